# Sourced by scripts/eval-all.sh and scripts/learn-split-all.sh: where the development sets are and which ones run,
# kept in one place. Not run on its own.

# dev_datasets CALLER HERE DIR: DIR when given, else the first `shared/datasets` found walking up from HERE; exits
# with a message naming CALLER when there is none.
dev_datasets() {
  local caller="$1" here="$2" dir="$3" d
  if [ -z "$dir" ]; then
    d="$here"
    while [ "$d" != "/" ]; do
      if [ -d "$d/shared/datasets" ]; then dir="$d/shared/datasets"; break; fi
      d="$(dirname "$d")"
    done
  fi
  [ -d "$dir" ] || { echo "$caller: no shared/datasets found above $here; pass --datasets DIR" >&2; exit 2; }
  printf '%s\n' "$dir"
}

# dev_sets DATASETS TMP MLIMIT: fills the array `sets` with one "label|dataset folder|qrels file|limit" per set
# (the eight first, NesTools with and without depends_on, ETOM-MCP levels 1-4 and any-of levels 2 and 4; the any-of
# qrels are written into TMP by scripts/anyof-qrels.py); MLIMIT caps metatool single's queries (empty: all).
dev_sets() {
  local datasets="$1" tmp="$2" mlimit="$3" l
  sets=(
    "toollens|$datasets/toollens|$datasets/toollens/normalized/qrels.test.tsv|"
    "metatool single|$datasets/metatool-toole|$datasets/metatool-toole/normalized/qrels.single.tsv|$mlimit"
    "metatool multi|$datasets/metatool-toole|$datasets/metatool-toole/normalized/qrels.multi.tsv|"
    "seal-tools OOD|$datasets/seal-tools|$datasets/seal-tools/normalized/qrels.test_out_domain.tsv|"
  )
  local r
  for r in apibank apigen gorilla-hf:gorilla-huggingface toolink; do
    sets+=("${r%%:*}|$datasets/toolret-subsets-via-mftr/${r##*:}|$datasets/toolret-subsets-via-mftr/${r##*:}/normalized/qrels.tsv|")
  done
  sets+=(
    "nestools|$datasets/nestools/normalized|$datasets/nestools/normalized/qrels.test.tsv|"
    "nestools nodeps|$datasets/nestools/normalized-nodeps|$datasets/nestools/normalized-nodeps/qrels.test.tsv|"
  )
  for l in 1 2 3 4; do
    sets+=("etom-mcp L$l|$datasets/etom-mcp|$datasets/etom-mcp/normalized/qrels.level$l.tsv|")
  done
  # ETOM-MCP any-of (gold_efs: several equivalent tools per step)
  if [ -f "$datasets/etom-mcp/normalized/queries.jsonl" ]; then
    for l in 2 4; do
      python3 "$(dirname "${BASH_SOURCE[0]}")/anyof-qrels.py" "$datasets/etom-mcp/normalized/queries.jsonl" \
        "$tmp/qrels.level$l.anyof.tsv" --where level=$l 2>/dev/null
      sets+=("etom-mcp L$l any|$datasets/etom-mcp|$tmp/qrels.level$l.anyof.tsv|")
    done
  fi
}
