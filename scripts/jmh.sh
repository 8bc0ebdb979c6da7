#!/usr/bin/env bash
# Runs the JMH benchmarks of toolscout-bench (dev.toolscout.bench.jmh) with a JDK 21+ (found as ./toolscout finds it).
# Usage: scripts/jmh.sh [JMH options and benchmark patterns, e.g. SelectionPathBenchmark.rank -p tools=10000]
# Builds the bench module and what it depends on (no tests), then runs org.openjdk.jmh.Main on its class path;
# `scripts/jmh.sh -h` lists JMH's options. docs/BENCHMARKS.md gives the figures and the command behind each.
exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bench-java.sh" org.openjdk.jmh.Main "$@"
