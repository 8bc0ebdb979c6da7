#!/usr/bin/env python3
# Main-tool ranks from `toolscout eval --per-query FILE` runs on a dataset whose tools declare depends_on:
# a query's main tools are its gold tools that no other gold tool of it depends on (the steps a user asked for,
# not the providers a dependency brings). Prints R@1, R@5 and MRR over them, per file.
# Usage: scripts/main-tool-ranks.py TOOLS_JSONL PER_QUERY_FILE...
import json,sys
deps={}
for l in open(sys.argv[1]):
    t=json.loads(l); deps[t['id']]=t.get('depends_on') or []
def stats(f):
    n=0;r5=0;mrr=0;r1=0
    for l in open(f):
        q=json.loads(l); gold=q['gold']
        provided=set(d for g in gold for d in deps.get(g,[]))
        main=[g for g in gold if g not in provided]
        for m in main:
            rk=q['gold_ranks'].get(m); n+=1
            if rk and rk<=5: r5+=1
            if rk==1: r1+=1
            if rk: mrr+=1/rk
    return "main tools %d: R@1 %.1f R@5 %.1f MRR %.1f"%(n,100*r1/n,100*r5/n,100*mrr/n)
for f in sys.argv[2:]: print(f, stats(f))
