#!/bin/sh
# Issue 27's family: meshes and a torus with random shortest paths and random
# traffic, the six sizes of the issue's table at seeds 1, 2 and 3, each solved in
# both models with `wormlab solve --cpu-limit LIMIT` (default 20s: the issue's
# target). Writes OUT/results.jsonl (one JSON object per solve: instance, seed,
# model, worms, makespan, lower bound, optimal, the stage that answered, the
# lower bound's source, and cpu_s, the CPU seconds of the whole command), one
# instance file per size and seed, and OUT/time.svg (CPU seconds against worms,
# a line per model). A rerun with the same OUT skips the solves already recorded.
#
#   experiments/solver-random/run.sh OUT        (WORMLAB=binary, LIMIT=20s)
#
# CPU time, not wall time, so that the figures do not depend on the load of the
# shared machine; 233.6 s of CPU in the committed run (docs/solver.md), at most
# 12 minutes of CPU for the solves.
set -eu
out=${1:?usage: run.sh OUTDIR}
limit=${LIMIT:-20s}
. "$(dirname "$0")/wormlab.sh"
res=$out/results.jsonl
touch "$res"
for size in "mesh:10x10 400 4" "mesh:6x6 288 4" "mesh:8x8 512 2" "mesh:8x8 256 4" "torus:6x6 576 2" "mesh:8x8 768 2"; do
	# shellcheck disable=SC2086
	set -- $size
	topo=$1 msgs=$2 flits=$3
	for seed in 1 2 3; do
		name=$(echo "$topo" | tr ':' '-')-$msgs-L$flits-s$seed
		inst=$out/$name.json
		[ -f "$inst" ] || "$wl" gen "$topo" --routing random-shortest --traffic random --messages "$msgs" \
			--flits "$flits" --seed "$seed" -o "$inst" 2>/dev/null
		for model in wormhole bufferless; do
			grep -q "\"instance\":\"$name\",\"model\":\"$model\"" "$res" && continue
			sched=$out/$name-$model.schedule.json
			/usr/bin/time -f "%U %S" -o "$out/cpu" "$wl" solve --model "$model" --cpu-limit "$limit" "$inst" -o "$sched" 2>/dev/null
			"$wl" verify "$inst" "$sched" >/dev/null
			cpu=$(tail -1 "$out/cpu" | awk '{ printf "%.2f", $1 + $2 }')
			python3 - "$inst" "$sched" "$name" "$model" "$topo" "$msgs" "$flits" "$seed" "$cpu" >>"$res" <<'PY'
import json, sys
inst, sched, name, model, topo, msgs, flits, seed, cpu = sys.argv[1:]
i, s = json.load(open(inst)), json.load(open(sched))
v = s.get("solver", {})
print(json.dumps({"instance": name, "model": model, "topology": topo, "messages": int(msgs), "flits": int(flits),
                  "seed": int(seed), "worms": len(i["messages"]), "makespan": s["makespan"], "lower_bound": s["lower_bound"],
                  "optimal": s["optimal"], "answered": v.get("answered", ""), "lower_source": v.get("lower_source"),
                  "cpu_s": float(cpu)}, separators=(",", ":")))
PY
			tail -1 "$res"
		done
	done
done
rm -f "$out/cpu"
"$wl" plot "$res" --x worms --y cpu_s --logy --series model --legend top-left \
	--title "issue 27's family: solve --cpu-limit $limit" --xlabel worms --ylabel "CPU seconds ($limit: not proven)" -o "$out/time.svg"
