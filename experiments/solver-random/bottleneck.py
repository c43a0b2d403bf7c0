"""Helpers of bottleneck.sh (issue 27's two open instances and their saturated
edges). Two commands:

  restrict IN EDGES with|without OUT
      writes OUT, the instance IN restricted to the worms whose path crosses
      one of EDGES ("a->b;c->d"), or to the others, and prints its worm count;
      a restriction to some of the worms is a relaxation: a legal schedule of
      IN stays legal without some of its worms.
  fix IN CNF FROM EDGES T OUT
      writes OUT, the bufferless formula CNF of horizon T (`wormlab solve
      --dimacs CNF --horizon T IN`) with unit clauses fixing the start of
      every worm crossing one of EDGES: from the schedule FROM (a file), or
      by Jackson's rule when FROM is "jackson" (each edge's worms take its
      slots 1, 1 + L, 1 + 2L, ... in turn, at each slot the worm released by
      then, its head's position on its path, with the earliest deadline, T
      minus the steps it needs after the edge; ties by message order). Of
      identical worms (same path and length) the earlier in the instance
      gets the earlier start, the formula's symmetry rule. FROM "none" fixes
      no worm (OUT is CNF). Prints the number of worms fixed, or says why
      none can be.
"""
import json
import re
import sys


def load(path):
    d = json.load(open(path))
    edges = [tuple(e) for e in d["network"]["edges"]]
    eid = {e: i for i, e in enumerate(edges)}
    L0 = d.get("flits", 1)
    msgs = []
    for m in d["messages"]:
        if "edges" in m:
            p = m["edges"]
        else:
            p = [eid[(m["path"][k], m["path"][k + 1])] for k in range(len(m["path"]) - 1)]
        msgs.append((m["id"], p, m.get("flits", L0)))
    return d, edges, msgs


def edge_ids(edges, names):
    want = names.split(";")
    ids = [i for i, e in enumerate(edges) if e[0] + "->" + e[1] in want]
    if len(ids) != len(want):
        sys.exit("bottleneck.py: no such edge among " + names)
    return ids


def restrict(inp, names, mode, out):
    d, edges, msgs = load(inp)
    ids = set(edge_ids(edges, names))
    keep = [m for m, (_, p, _) in zip(d["messages"], msgs) if any(e in ids for e in p) == (mode == "with")]
    d["messages"] = keep
    json.dump(d, open(out, "w"))
    print(len(keep))


def jackson(msgs, e, T):
    """The starts of the worms crossing edge e by Jackson's rule, and None; or
    None and why the rule fails at horizon T."""
    jobs = []
    for i, (_, p, L) in enumerate(msgs):
        if e in p:
            k = p.index(e)
            jobs.append((i, k + 1, T - (len(p) - k - 1) - (L - 1)))
    starts, t = {}, 1
    while jobs:
        ready = [j for j in jobs if j[1] <= t]
        if not ready:
            return None, "no worm is released by slot %d" % t
        i, _, dl = min(ready, key=lambda j: (j[2], j[0]))
        if t > dl:
            return None, "message %s crosses at %d, after its deadline %d" % (msgs[i][0], t, dl)
        starts[i] = t - msgs[i][1].index(e)
        jobs = [j for j in jobs if j[0] != i]
        t += msgs[i][2]
    return starts, None


def fix(inp, cnf, frm, names, T, out):
    d, edges, msgs = load(inp)
    ids = edge_ids(edges, names)
    starts = {}
    if frm == "none":
        pass
    elif frm == "jackson":
        for e in ids:
            s, why = jackson(msgs, e, T)
            if s is None:
                sys.exit("bottleneck.py: Jackson's rule on %s->%s at horizon %d: %s" % (edges[e][0], edges[e][1], T, why))
            starts.update(s)
    else:
        idx = {m[0]: i for i, m in enumerate(msgs)}
        for m in json.load(open(frm))["messages"]:
            i = idx[m["id"]]
            if any(e in msgs[i][1] for e in ids):
                starts[i] = m["cross"][0]
    groups = {}
    for i in starts:
        groups.setdefault((tuple(msgs[i][1]), msgs[i][2]), []).append(i)
    for g in groups.values():
        for i, s in zip(sorted(g), sorted(starts[i] for i in g)):
            starts[i] = s
    chain = {}
    pat = re.compile(r'^c time (\d+)\.\.\d+: message "([^"]*)" hop 1 .*variable \d+\+\(v-(\d+)\) means .* for v = \d+\.\.(\d+)$')
    fixed = re.compile(r'^c time -: message "([^"]*)" hop 1: t_1 = (\d+) fixed$')
    lines = open(cnf).read().split("\n")
    for l in lines:
        m = pat.match(l)
        if m:
            chain[m.group(2)] = ("var", int(m.group(1)), int(m.group(3)), int(m.group(4)))
        m = fixed.match(l)
        if m:
            chain[m.group(1)] = ("fixed", int(m.group(2)))
    units = []
    for i, x in starts.items():
        c = chain[msgs[i][0]]
        if c[0] == "fixed":
            if c[1] != x:
                sys.exit("bottleneck.py: start outside the formula's window")
            continue
        _, base, lo, top = c
        if not lo <= x <= top + 1:
            sys.exit("bottleneck.py: start outside the formula's window")
        if x <= top:
            units.append(base + x - lo)
        if x - 1 >= lo:
            units.append(-(base + x - 1 - lo))
    with open(out, "w") as f:
        for l in lines:
            if l.startswith("p cnf "):
                _, _, v, c = l.split()
                l = "p cnf %s %d" % (v, int(c) + len(units))
            if l:
                f.write(l + "\n")
        for u in units:
            f.write("%d 0\n" % u)
    print(len(starts))


if __name__ == "__main__":
    if sys.argv[1] == "restrict":
        restrict(*sys.argv[2:6])
    elif sys.argv[1] == "fix":
        fix(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), sys.argv[7])
    else:
        sys.exit("bottleneck.py: restrict or fix")
