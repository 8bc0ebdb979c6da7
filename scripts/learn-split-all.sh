#!/usr/bin/env bash
# Measures learning from use on every development set: splits each set's qrels in two halves by a fixed hash of
# the query id (scripts/split-qrels.py), learns one half (`eval --learn-qrels`) and scores the other half before
# and after learning. One line per set: N@10 and R@5 without -> with learning, and the paired change with two
# standard errors (a change within them is noise). Metrics in percent.
# Usage: scripts/learn-split-all.sh [--datasets DIR] [--metatool-limit N] [--launcher PATH]
# --metatool-limit caps metatool single's scored half (its learned half is always whole); --launcher runs another
# build (default: ./toolscout). Set TOOLSCOUT_DATA_DIR to keep the per-set embeddings elsewhere.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
datasets=""
mlimit=""
launcher="$here/toolscout"
while [ $# -gt 0 ]; do
  case "$1" in
    --datasets) datasets="$2"; shift 2 ;;
    --metatool-limit) mlimit="$2"; shift 2 ;;
    --launcher) launcher="$2"; shift 2 ;;
    *) echo "learn-split-all: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ -z "$datasets" ]; then
  d="$here"
  while [ "$d" != "/" ]; do
    if [ -d "$d/shared/datasets" ]; then datasets="$d/shared/datasets"; break; fi
    d="$(dirname "$d")"
  done
fi
[ -d "$datasets" ] || { echo "learn-split-all: no shared/datasets found above $here; pass --datasets DIR" >&2; exit 2; }
split="$(mktemp -d)"
trap 'rm -rf "$split"' EXIT
sets=(
  "toollens|toollens|normalized/qrels.test.tsv|"
  "metatool single|metatool-toole|normalized/qrels.single.tsv|$mlimit"
  "metatool multi|metatool-toole|normalized/qrels.multi.tsv|"
  "seal-tools OOD|seal-tools|normalized/qrels.test_out_domain.tsv|"
  "apibank|toolret-subsets-via-mftr/apibank|normalized/qrels.tsv|"
  "apigen|toolret-subsets-via-mftr/apigen|normalized/qrels.tsv|"
  "gorilla-hf|toolret-subsets-via-mftr/gorilla-huggingface|normalized/qrels.tsv|"
  "toolink|toolret-subsets-via-mftr/toolink|normalized/qrels.tsv|"
  "nestools|nestools/normalized|qrels.test.tsv|"
  "nestools nodeps|nestools/normalized-nodeps|qrels.test.tsv|"
  "etom-mcp L1|etom-mcp|normalized/qrels.level1.tsv|"
  "etom-mcp L2|etom-mcp|normalized/qrels.level2.tsv|"
  "etom-mcp L3|etom-mcp|normalized/qrels.level3.tsv|"
  "etom-mcp L4|etom-mcp|normalized/qrels.level4.tsv|"
)
if [ -f "$datasets/etom-mcp/normalized/queries.jsonl" ]; then
  for l in 2 4; do
    python3 "$here/scripts/anyof-qrels.py" "$datasets/etom-mcp/normalized/queries.jsonl" \
      "$split/qrels.level$l.anyof.tsv" --where level=$l 2>/dev/null
    sets+=("etom-mcp L$l any|etom-mcp|$split/qrels.level$l.anyof.tsv|")
  done
fi
printf '%-16s %6s %15s %15s %14s %14s\n' set test "N@10 no->yes" "R@5 no->yes" "dN@10 (2SE)" "dR@5 (2SE)"
i=0
for s in "${sets[@]}"; do
  IFS='|' read -r label dir qrels limit <<<"$s"
  i=$((i + 1))
  src="$qrels"
  [ "${src#/}" = "$src" ] && src="$datasets/$dir/$qrels"
  out="$split/$i"
  python3 "$here/scripts/split-qrels.py" "$src" "$out" >/dev/null
  name="$(basename "$src" .tsv)"
  extra=()
  [ -n "$limit" ] && extra=(--limit "$limit")
  err="$(mktemp)"
  if ! res="$("$launcher" eval --dataset "$datasets/$dir" --qrels "$out/$name.test.tsv" \
      --learn-qrels "$out/$name.learn.tsv" --format json ${extra[@]+"${extra[@]}"} 2>"$err")"; then
    echo "learn-split-all: $label failed:" >&2; tail -5 "$err" >&2; rm -f "$err"; exit 1
  fi
  rm -f "$err"
  json="$(sed -n '/^{/,/^}/p' <<<"$res")"
  python3 -c '
import json, sys
r = json.loads(sys.argv[2]); b = r["without_learning"]; g = r["learning_gain"]
print("%-16s %6d %6.1f -> %5.1f %6.1f -> %5.1f %+6.1f (%4.1f) %+6.1f (%4.1f)" % (sys.argv[1], r["queries"],
      b["ndcg@10"], r["ndcg@10"], b["recall@5"], r["recall@5"], g["ndcg@10"], g["ndcg@10_2se"], g["recall@5"],
      g["recall@5_2se"]))' "$label" "$json"
done
