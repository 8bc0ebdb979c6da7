#!/usr/bin/env bash
# The product's benchmarks (never shipped; toolscout-bench's dev.toolscout.bench.cli.Bench): the commands that were
# `toolscout bench*`, with the same options and output. docs/BENCHMARKS.md gives the figures and the command behind
# each.
# Usage: scripts/bench.sh bench|bench-gateway|bench-http|bench-replicas|bench-writes|bench-frameworks [OPTIONS]   (--help: all)
# Builds toolscout-bench and what it depends on (no tests), lets ./toolscout prepare the product as for a user's
# command (the native libraries and models unpacked, the class-data cache trained), then runs the benchmark with
# the launcher's JVM flags and the product jar first on the class path: the processes it starts (the cold-start
# probe, `serve` replicas, the `mcp` gateway) start as the product's own commands do, class-data cache included
# (the JVM maps the cache when the class path begins with the jar it was made for). Keep the flags in step with
# ./toolscout.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/find-java.sh"
cd "$here"
cp="$(mktemp)"
trap 'rm -f "$cp"' EXIT
# one Maven session, so the sibling modules resolve to this checkout's build, not to ~/.m2 (scripts/bench-java.sh)
mvn -B -q -pl toolscout-bench -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile="$cp" -Dmdep.includeScope=runtime
./toolscout --version >/dev/null
t="$here/toolscout-server/target"
java_major="$(_ts_java_major "$JAVA_HOME")"
logs="all=warning,cds=off"
[ "$java_major" -ge 25 ] && logs="$logs,aot=off"
jvm=(--enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xlog:disable "-Xlog:$logs:stderr")
[ -f "$t/onnxruntime-native/.unpacked" ] && jvm+=("-Donnxruntime.native.path=$t/onnxruntime-native")
sqlite_lib="$(cd "$t/sqlite-native" 2>/dev/null && ls libsqlitejdbc.* 2>/dev/null | head -n1 || true)"
[ -f "$t/sqlite-native/.unpacked" ] && [ -n "$sqlite_lib" ] \
  && jvm+=("-Dorg.sqlite.lib.path=$t/sqlite-native" "-Dorg.sqlite.lib.name=$sqlite_lib")
[ -f "$t/models/.unpacked" ] && jvm+=("-Dtoolscout.models.dir=$t/models")
if [ "$java_major" -ge 25 ]; then
  [ -f "$t/toolscout.aot" ] && jvm+=("-XX:AOTCache=$t/toolscout.aot")
else
  [ -f "$t/toolscout.jsa" ] && jvm+=("-XX:SharedArchiveFile=$t/toolscout.jsa")
fi
exec "$JAVA_HOME/bin/java" ${TOOLSCOUT_JAVA_OPTS:-} "${jvm[@]}" \
  -cp "$t/toolscout.jar:toolscout-bench/target/classes:$(cat "$cp")" dev.toolscout.bench.cli.Bench "$@"
