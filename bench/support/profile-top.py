"""Self time by function in a .cpuprofile (node --cpu-prof): python3 bench/support/profile-top.py FILE [N]."""
import json, sys, collections
prof = json.load(open(sys.argv[1]))
n = int(sys.argv[2]) if len(sys.argv) > 2 else 25
nodes = {node["id"]: node for node in prof["nodes"]}
dt = collections.Counter()
for sample, delta in zip(prof["samples"], prof["timeDeltas"]):
    dt[sample] += delta
self_time = collections.Counter()
for nid, t in dt.items():
    f = nodes[nid]["callFrame"]
    self_time[f'{f["functionName"] or "(anon)"} {f["url"].split("/")[-1]}:{f["lineNumber"]}'] += t
total = sum(self_time.values())
for name, t in self_time.most_common(n):
    print(f"{t / 1000:9.1f} ms {100 * t / total:5.1f}%  {name}")
