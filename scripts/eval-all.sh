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
if [ -z "$datasets" ]; then
  d="$here"
  while [ "$d" != "/" ]; do
    if [ -d "$d/shared/datasets" ]; then datasets="$d/shared/datasets"; break; fi
    d="$(dirname "$d")"
  done
fi
[ -d "$datasets" ] || { echo "eval-all: no shared/datasets found above $here; pass --datasets DIR" >&2; exit 2; }
sets=(
  "toollens|toollens|qrels.test.tsv|"
  "metatool single|metatool-toole|qrels.single.tsv|$mlimit"
  "metatool multi|metatool-toole|qrels.multi.tsv|"
  "seal-tools OOD|seal-tools|qrels.test_out_domain.tsv|"
  "apibank|toolret-subsets-via-mftr/apibank|qrels.tsv|"
  "apigen|toolret-subsets-via-mftr/apigen|qrels.tsv|"
  "gorilla-hf|toolret-subsets-via-mftr/gorilla-huggingface|qrels.tsv|"
  "toolink|toolret-subsets-via-mftr/toolink|qrels.tsv|"
  "nestools|nestools/normalized|qrels.test.tsv|"
  "nestools nodeps|nestools/normalized-nodeps|qrels.test.tsv|"
  "etom-mcp L1|etom-mcp|qrels.level1.tsv|"
  "etom-mcp L2|etom-mcp|qrels.level2.tsv|"
  "etom-mcp L3|etom-mcp|qrels.level3.tsv|"
  "etom-mcp L4|etom-mcp|qrels.level4.tsv|"
)
# ETOM-MCP any-of (gold_efs: several equivalent tools per step), qrels written by scripts/anyof-qrels.py
anyof="$(mktemp -d)"
trap 'rm -rf "$anyof"' EXIT
if [ -f "$datasets/etom-mcp/normalized/queries.jsonl" ]; then
  for l in 2 4; do
    python3 "$here/scripts/anyof-qrels.py" "$datasets/etom-mcp/normalized/queries.jsonl" "$anyof/qrels.level$l.anyof.tsv" \
      --where level=$l 2>/dev/null
    sets+=("etom-mcp L$l any|etom-mcp|$anyof/qrels.level$l.anyof.tsv|")
  done
fi
printf '%-16s %7s %6s %6s %6s %6s %6s\n' set queries R@5 R@10 N@10 C@5 C@10
for s in "${sets[@]}"; do
  IFS='|' read -r label dir qrels limit <<<"$s"
  extra=()
  [ -n "$limit" ] && extra=(--limit "$limit")
  err="$(mktemp)"
  if ! out="$("$here/toolscout" eval --dataset "$datasets/$dir" --qrels "$qrels" --format json \
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
