#!/usr/bin/env bash
# Runs `toolscout eval` on the development sets (the eight first, NesTools with and without depends_on, ETOM-MCP
# levels 1-4 and any-of levels 2 and 4) and prints one line per set (metrics in percent).
# Usage: scripts/eval-all.sh [--datasets DIR] [--metatool-limit N] [eval options, e.g. --retriever bm25; not --k or --per-query]
# DIR defaults to the first `shared/datasets` found walking up from this script. Metatool single runs in
# full unless --metatool-limit is given (JVM notes on stdout, such as AppCDS warnings, are skipped). Set TOOLSCOUT_DATA_DIR to keep the per-set embeddings elsewhere.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
datasets=""
mlimit=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --datasets) datasets="$2"; shift 2 ;;
    --metatool-limit) mlimit="$2"; shift 2 ;;
    --per-query|--per-query=*|--k|--k=*)
      echo "eval-all: $1 is per set; run ./toolscout eval on the one set (the summary prints R@5/10, C@5/10)" >&2
      exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
source "$here/scripts/dev-sets.sh"
datasets="$(dev_datasets eval-all "$here" "$datasets")"
anyof="$(mktemp -d)"
trap 'rm -rf "$anyof"' EXIT
dev_sets "$datasets" "$anyof" "$mlimit"
printf '%-16s %7s %6s %6s %6s %6s %6s\n' set queries R@5 R@10 N@10 C@5 C@10
for s in "${sets[@]}"; do
  IFS='|' read -r label dir qrels limit <<<"$s"
  extra=()
  [ -n "$limit" ] && extra=(--limit "$limit")
  err="$(mktemp)"
  if ! out="$("$here/toolscout" eval --dataset "$dir" --qrels "$qrels" --format json \
      ${extra[@]+"${extra[@]}"} ${args[@]+"${args[@]}"} 2>"$err")"; then
    echo "eval-all: $label failed:" >&2; tail -5 "$err" >&2; rm -f "$err"; exit 1
  fi
  rm -f "$err"
  json="$(sed -n '/^{/,/^}/p' <<<"$out")"
  python3 -c '
import json, sys
r = json.loads(sys.argv[2])
print("%-16s %7d %6.1f %6.1f %6.1f %6.1f %6.1f" % (sys.argv[1], r["queries"], r["recall@5"], r["recall@10"],
      r["ndcg@10"], r["complete@5"], r["complete@10"]))' "$label" "$json"
done
