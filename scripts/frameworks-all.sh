#!/usr/bin/env bash
# Runs the development sets (the ones scripts/eval-all.sh runs, from scripts/dev-sets.sh) through the frameworks'
# built-in tool search and ToolScout's, side by side, in one run (toolscout-bench's bench-frameworks): LangChain4j's
# VectorToolSearchStrategy, ToolScout.find and ToolScout.select; prints one Markdown table (docs/EVALUATION.md).
# Usage: scripts/frameworks-all.sh [--datasets DIR] [--metatool-limit N] [bench-frameworks options, e.g. --format json]
# DIR defaults to the first `shared/datasets` found walking up from this script. Set TOOLSCOUT_DATA_DIR to keep the
# per-set embeddings elsewhere (they are eval's: <data dir>/eval).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
datasets=""
mlimit=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --datasets) datasets="$2"; shift 2 ;;
    --metatool-limit) mlimit="$2"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
source "$here/scripts/dev-sets.sh"
datasets="$(dev_datasets frameworks-all "$here" "$datasets")"
anyof="$(mktemp -d)"
trap 'rm -rf "$anyof"' EXIT
dev_sets "$datasets" "$anyof" "$mlimit"
for s in "${sets[@]}"; do
  args+=(--set "$s")
done
"$here/scripts/bench.sh" bench-frameworks "${args[@]}"
