"""Who calls a function, by inclusive time, in a .cpuprofile: python3 bench/support/profile-callers.py FILE NAME [DEPTH]."""
import json, sys, collections
prof = json.load(open(sys.argv[1]))
name, depth = sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 6
nodes = {n["id"]: n for n in prof["nodes"]}
parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
dt = collections.Counter()
for s, d in zip(prof["samples"], prof["timeDeltas"]):
    dt[s] += d
label = lambda n: f'{n["callFrame"]["functionName"] or "(anon)"} {n["callFrame"]["url"].split("/")[-1]}:{n["callFrame"]["lineNumber"]}'
stacks = collections.Counter()
for nid, t in dt.items():
    chain, cur = [], nid
    while cur is not None:
        chain.append(nodes[cur]); cur = parent.get(cur)
    hits = [i for i, n in enumerate(chain) if n["callFrame"]["functionName"] == name]
    if not hits: continue
    i = hits[-1]
    stacks[" < ".join(label(n) for n in chain[i:i + depth])] += t
for s, t in stacks.most_common(12):
    print(f"{t / 1000:8.1f} ms  {s}")
