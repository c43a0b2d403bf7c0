#!/bin/sh
# Issue 27's two instances open at 20 s (the 10x10 mesh of seed 3, the 8x8
# mesh of 768 messages, seed 2) against their saturated edges: is the order
# of the worms on those edges what makes them hard (docs/solver.md, "The
# saturated edges")? Two measurements, bufferless model:
#
# - restrictions (OUT/restrict.jsonl, OUT/restrict.md): each instance
#   restricted to the worms crossing its saturated edges, and to the others,
#   solved by `wormlab solve --model bufferless --cpu-limit LIMIT`, each
#   schedule checked by `wormlab verify`;
# - the saturated edges' worms fixed (OUT/fixed.jsonl, OUT/fixed.md): the
#   formula of horizon T (`wormlab solve --model bufferless --dimacs F
#   --horizon T`) with unit clauses fixing the start of every worm crossing
#   those edges (bottleneck.py fix): as in the instance's best known
#   schedule (certify/testdata/issue27), by Jackson's rule, or as in the
#   optimal schedule of the first restriction; and, with no worm fixed,
#   the second restriction at the instance's known optimum (the formula of
#   the worms that do not cross the saturated edges); one call of gini's command
#   (gini v1.0.4, the solver `wormlab solve` runs) within SATLIMIT CPU
#   seconds; a schedule it finds is decoded by `solve --assignment` and
#   checked by `wormlab verify`.
#
#   experiments/solver-random/bottleneck.sh OUT   (WORMLAB=binary, LIMIT=20s, SATLIMIT=60)
#
# About 4 LIMIT + 6 SATLIMIT seconds of CPU.
set -eu
out=${1:?usage: bottleneck.sh OUTDIR}
limit=${LIMIT:-20s}
satlimit=${SATLIMIT:-60}
. "$(dirname "$0")/wormlab.sh"
py=$here/experiments/solver-random/bottleneck.py
known=$here/certify/testdata/issue27
gini=$out/gini
(cd "$here" && go build -o "$gini" github.com/go-air/gini/cmd/gini)
gen() { # name topo messages flits seed
	[ -f "$out/$1.json" ] || "$wl" gen "$2" --routing random-shortest --traffic random --messages "$3" --flits "$4" --seed "$5" -o "$out/$1.json" 2>/dev/null
}
m10=mesh-10x10-400-L4-s3 m8=mesh-8x8-768-L2-s2
e10="6,6->5,6" e8="2,5->3,5;4,2->4,3"
gen $m10 mesh:10x10 400 4 3
gen $m8 mesh:8x8 768 2 2
res=$out/restrict.jsonl
: >"$res"
printf '| instance | worms kept | worms | makespan / bound at %s | CPU s |\n| --- | --- | --- | --- | --- |\n' "$limit" >"$out/restrict.md"
for spec in "$m10 $e10" "$m8 $e8"; do
	# shellcheck disable=SC2086
	set -- $spec
	for mode in with without; do
		r=$out/$1-$mode.json
		n=$(python3 "$py" restrict "$out/$1.json" "$2" $mode "$r")
		/usr/bin/time -f "%U %S" -o "$out/cpu" "$wl" solve --model bufferless --cpu-limit "$limit" "$r" -o "$out/s.json" 2>/dev/null
		"$wl" verify "$r" "$out/s.json" >/dev/null
		cpu=$(tail -1 "$out/cpu" | awk '{ printf "%.2f", $1 + $2 }')
		python3 - "$1" "$2" "$mode" "$n" "$out/s.json" "$cpu" >>"$res" <<'PY'
import json, sys
name, edges, mode, n, sched, cpu = sys.argv[1:]
s = json.load(open(sched))
print(json.dumps({"instance": name, "edges": edges, "keep": mode, "worms": int(n), "makespan": s["makespan"],
                  "lower_bound": s["lower_bound"], "optimal": s["optimal"], "cpu_s": float(cpu)}, separators=(",", ":")))
PY
		python3 - "$res" >>"$out/restrict.md" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read().split("\n")[-2])
keep = ("crossing " if r["keep"] == "with" else "not crossing ") + " or ".join(r["edges"].split(";"))
ms = "%d optimal" % r["makespan"] if r["optimal"] else "%d / %d" % (r["makespan"], r["lower_bound"])
print("| %s | %s | %d | %s | %.2f |" % (r["instance"], keep, r["worms"], ms, r["cpu_s"]))
PY
		[ $mode = with ] && cp "$out/s.json" "$out/$1-with.schedule.json"
	done
done
res=$out/fixed.jsonl
: >"$res"
printf '| formula (bufferless, horizon T) | worms fixed | starts from | gini |\n| --- | --- | --- | --- |\n' >"$out/fixed.md"
for spec in "$m10 84 $e10 known" "$m10 84 $e10 jackson" "$m10-without 84 $e10 none" "$m8 79 $e8 known" "$m8 78 $e8 jackson" "$m8 78 $e8 restriction"; do
	# shellcheck disable=SC2086
	set -- $spec
	name=$1 T=$2 edges=$3 from=$4
	case $from in
	known) src=$known/$name.schedule.json what="the best known schedule" ;;
	jackson) src=jackson what="Jackson's rule" ;;
	restriction) src=$out/$name-with.schedule.json what="the restriction's optimum" ;;
	none) src=none what="none fixed" ;;
	esac
	"$wl" solve --model bufferless --dimacs "$out/f.cnf" --horizon "$T" "$out/$name.json" 2>/dev/null
	n=$(python3 "$py" fix "$out/$name.json" "$out/f.cnf" "$src" "$edges" "$T" "$out/u.cnf")
	/usr/bin/time -f "%U %S" -o "$out/cpu" sh -c "ulimit -t $satlimit; exec \"\$1\" -satcomp -model -timeout 100h \"\$2\"" sh "$gini" "$out/u.cnf" >"$out/answer" 2>/dev/null || true
	cpu=$(tail -1 "$out/cpu" | awk '{ printf "%.2f", $1 + $2 }')
	extra=
	case $(sed -n 's/^s //p' "$out/answer") in
	SATISFIABLE)
		answer=sat
		"$wl" solve --model bufferless --assignment "$out/answer" --horizon "$T" "$out/$name.json" -o "$out/s.json" 2>/dev/null
		"$wl" verify "$out/$name.json" "$out/s.json" >/dev/null
		m=$(sed -n 's/^  "makespan": \([0-9]*\),$/\1/p' "$out/s.json")
		extra=",\"makespan\":$m"
		cell="sat, $cpu s" ;;
	UNSATISFIABLE) answer=unsat cell="unsat, $cpu s" ;;
	*) answer=none cell="none in $satlimit s" ;;
	esac
	printf '{"instance":"%s","horizon":%s,"edges":"%s","from":"%s","fixed":%s,"answer":"%s","cpu_s":%s,"limit_s":%s%s}\n' \
		"$name" "$T" "$edges" "$from" "$n" "$answer" "$cpu" "$satlimit" "$extra" >>"$res"
	printf '| %s, T = %s | %s | %s | %s |\n' "$name" "$T" "$n" "$what" "$cell" >>"$out/fixed.md"
done
rm -f "$out/f.cnf" "$out/u.cnf" "$out/answer" "$out/s.json" "$out/cpu"
