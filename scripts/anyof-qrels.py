#!/usr/bin/env python3
"""Writes an any-of qrels file from a queries.jsonl field that lists, per query, its steps as lists of
equivalent tool ids (ETOM-MCP's `gold_efs`): header `query-id  tool-id  score  step`, one line per (step, tool).
`toolscout eval --qrels FILE` then counts a step as found when any of its tools is ranked (docs/EVALUATION.md).

usage: scripts/anyof-qrels.py QUERIES_JSONL OUT_TSV [--field gold_efs] [--where KEY=VALUE]
  --where level=4   only queries whose KEY equals VALUE (compared as text)
A query whose field is missing, empty, or has an empty step is left out (counted on stderr).
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("queries")
    ap.add_argument("out")
    ap.add_argument("--field", default="gold_efs")
    ap.add_argument("--where", default=None)
    a = ap.parse_args()
    key = value = None
    if a.where:
        if "=" not in a.where:
            sys.exit(f"anyof-qrels: --where must be KEY=VALUE, got: {a.where!r}")
        key, value = a.where.split("=", 1)
    written = skipped = 0
    with open(a.queries, encoding="utf-8") as f, open(a.out, "w", encoding="utf-8") as out:
        out.write("query-id\ttool-id\tscore\tstep\n")
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            q = json.loads(line)
            if key is not None and str(q.get(key)) != value:
                continue
            steps = q.get(a.field)
            if not isinstance(steps, list) or not steps or any(not isinstance(s, list) or not s for s in steps):
                skipped += 1
                continue
            for i, step in enumerate(steps):
                for tool in step:
                    out.write(f"{q['id']}\t{str(tool).strip()}\t1\t{i + 1}\n")
            written += 1
    print(f"anyof-qrels: {written} queries written to {a.out}, {skipped} left out (no usable {a.field})",
          file=sys.stderr)


if __name__ == "__main__":
    main()
