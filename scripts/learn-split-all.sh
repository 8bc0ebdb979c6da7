#!/usr/bin/env bash
# Measures learning from use on every development set: splits each set's qrels in two halves by a fixed hash of
# the query id (scripts/split-qrels.py), learns one half (`eval --learn-qrels`) and scores the other half before
# and after learning. One line per set: N@10 and R@5 without -> with learning, and the paired change with two
# standard errors (a change within them is noise). Metrics in percent.
# Usage: scripts/learn-split-all.sh [--datasets DIR] [--metatool-limit N] [--launcher PATH] [--only LABELS]
# --metatool-limit caps metatool single's scored half (its learned half is always whole); --launcher runs another
# build (default: ./toolscout); --only runs the sets named (labels as printed, comma-separated) in that order. Set TOOLSCOUT_DATA_DIR to keep the per-set embeddings elsewhere.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
datasets=""
mlimit=""
launcher="$here/toolscout"
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --datasets) datasets="$2"; shift 2 ;;
    --metatool-limit) mlimit="$2"; shift 2 ;;
    --launcher) launcher="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    *) echo "learn-split-all: unknown option $1" >&2; exit 2 ;;
  esac
done
source "$here/scripts/dev-sets.sh"
datasets="$(dev_datasets learn-split-all "$here" "$datasets")"
split="$(mktemp -d)"
trap 'rm -rf "$split"' EXIT
dev_sets "$datasets" "$split" "$mlimit"
if [ -n "$only" ]; then
  all=("${sets[@]}")
  sets=()
  IFS=',' read -r -a wanted <<<"$only"
  for w in "${wanted[@]}"; do
    found=""
    for s in "${all[@]}"; do
      [ "${s%%|*}" = "$w" ] && { sets+=("$s"); found=1; }
    done
    [ -n "$found" ] || { echo "learn-split-all: --only names an unknown set '$w' (known: $(IFS=,; echo "${all[*]%%|*}"))" >&2; exit 2; }
  done
fi
printf '%-16s %6s %15s %15s %14s %14s\n' set test "N@10 no->yes" "R@5 no->yes" "dN@10 (2SE)" "dR@5 (2SE)"
i=0
for s in "${sets[@]}"; do
  IFS='|' read -r label dir qrels limit <<<"$s"
  i=$((i + 1))
  src="$qrels"
  out="$split/$i"
  python3 "$here/scripts/split-qrels.py" "$src" "$out" >/dev/null
  name="$(basename "$src" .tsv)"
  extra=()
  [ -n "$limit" ] && extra=(--limit "$limit")
  err="$(mktemp)"
  if ! res="$("$launcher" eval --dataset "$dir" --qrels "$out/$name.test.tsv" \
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
