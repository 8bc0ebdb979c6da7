#!/usr/bin/env python3
# Splits a qrels file in two halves by a fixed hash of the query id, for `toolscout eval --qrels TEST
# --learn-qrels LEARN`: a query goes to LEARN when the first byte of SHA-256(query id) is even, else to TEST
# (about half and half, the same on every machine and run; all of a query's lines go to the same half).
# Usage: scripts/split-qrels.py QRELS OUT_DIR   -> OUT_DIR/<name>.learn.tsv and OUT_DIR/<name>.test.tsv
import hashlib, os, sys

if len(sys.argv) != 3:
    sys.exit("usage: split-qrels.py QRELS OUT_DIR")
src, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
with open(src, encoding="utf-8") as f:
    header, *lines = f.read().splitlines()
name = os.path.basename(src)[:-len(".tsv")] if src.endswith(".tsv") else os.path.basename(src)
halves = {"learn": [], "test": []}
for line in lines:
    if not line.strip():
        continue
    qid = line.split("\t", 1)[0].strip()
    half = "learn" if hashlib.sha256(qid.encode("utf-8")).digest()[0] % 2 == 0 else "test"
    halves[half].append(line)
for half, rows in halves.items():
    with open(os.path.join(out, f"{name}.{half}.tsv"), "w", encoding="utf-8") as f:
        f.write("\n".join([header] + rows) + "\n")
    print(f"{half}: {len(set(r.split(chr(9), 1)[0] for r in rows))} queries -> {out}/{name}.{half}.tsv")
