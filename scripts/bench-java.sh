#!/usr/bin/env bash
# Runs a main class of toolscout-bench (never shipped: the JMH benchmarks, dev.toolscout.bench.ModelComparison,
# dev.toolscout.bench.eval.QueryAdapterTrainer) on that module's class path, with a JDK 21+ found as ./toolscout
# finds it and the launcher's JVM flags.
# Usage: scripts/bench-java.sh MAIN_CLASS [ARGS...]
# Builds toolscout-bench and what it depends on (no tests) first. The product's benchmarks (bench, bench-gateway, ...)
# have their runner: scripts/bench.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[ $# -ge 1 ] || { echo "usage: scripts/bench-java.sh MAIN_CLASS [ARGS...]" >&2; exit 2; }
source "$here/find-java.sh"
cd "$here"
cp="$(mktemp)"
trap 'rm -f "$cp"' EXIT
# one Maven session, so the sibling modules resolve to this checkout's build, not to ~/.m2; each module writes
# the file in turn, and toolscout-bench, which depends on the others, comes last
mvn -B -q -pl toolscout-bench -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile="$cp" -Dmdep.includeScope=runtime
"$JAVA_HOME/bin/java" -Xmx2g --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xlog:disable \
  -Xlog:all=warning:stderr -cp "toolscout-bench/target/classes:$(cat "$cp")" "$@"
