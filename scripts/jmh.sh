#!/usr/bin/env bash
# Runs the JMH benchmarks of toolscout-bench (dev.toolscout.bench.jmh) with a JDK 21+ (found as ./toolscout finds it).
# Usage: scripts/jmh.sh [JMH options and benchmark patterns, e.g. SelectionPathBenchmark.rank -p tools=10000]
# Builds the bench module and what it depends on (no tests), then runs org.openjdk.jmh.Main on its class path;
# `scripts/jmh.sh -h` lists JMH's options. docs/BENCHMARKS.md gives the figures and the command behind each.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$here/find-java.sh"
cd "$here"
cp="$(mktemp)"
trap 'rm -f "$cp"' EXIT
# one Maven session, so the sibling modules resolve to this checkout's build, not to ~/.m2; each module writes
# the file in turn, and toolscout-bench, which depends on the others, comes last
mvn -B -q -pl toolscout-bench -am package dependency:build-classpath -DskipTests \
  -Dmdep.outputFile="$cp" -Dmdep.includeScope=runtime
exec "$JAVA_HOME/bin/java" -cp "toolscout-bench/target/classes:$(cat "$cp")" \
  org.openjdk.jmh.Main "$@"
