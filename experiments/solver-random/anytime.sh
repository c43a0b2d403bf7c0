#!/bin/sh
# Issue 27's "best schedule at any time": wormlab's best makespan against CPU
# time beside cadical's stepping down on wormlab's own formula, bufferless model,
# on the instances of the family open at 20 s (or those named). Writes
# OUT/anytime.jsonl, one JSON object per improvement: instance, solver (wormlab
# or cadical), cpu_s (CPU seconds when that makespan was known), makespan,
# lower_bound (wormlab's proven bound; cadical's is 0 until it refutes a
# horizon), for wormlab sat_cpu_s (the CPU seconds when its SAT search
# started), for cadical formula_cpu_s (the CPU seconds of the `solve --dimacs`
# that wrote its first formula), and OUT/anytime.svg (makespan against CPU seconds, a line per
# instance and solver).
#
#   experiments/solver-random/anytime.sh OUT [NAME...]   (WORMLAB=binary, LIMIT=20)
#
# wormlab: `solve --model bufferless --cpu-limit LIMIT --trace`, whose lines give
# the process's CPU seconds at each improvement (from the greedy schedule on,
# the schedule search's included). cadical 1.5: from the horizon one below the
# makespan wormlab's SAT search starts from (the trace's line "SAT search from
# makespan M": the schedule search's, where both searches start), or, where
# the large-neighbourhood search runs before it, the makespan that search
# starts from (the line "neighbourhood search from makespan M"), each horizon's CNF written by `solve --dimacs F --horizon T`
# and run under ulimit -t with the CPU left of LIMIT; each satisfiable answer is
# decoded by `solve --assignment`, checked by `wormlab verify`, and the next
# horizon is one below its makespan. cadical's CPU seconds count cadical alone:
# not the CPU wormlab spends on the bounds, the schedule search and the CNF
# (formula_cpu_s, which wormlab's own times include). About 45 s of CPU an
# instance.
set -eu
out=${1:?usage: anytime.sh OUTDIR [NAME...]}
shift
names=${*:-"mesh:10x10/400/4/3 mesh:8x8/768/2/2 mesh:8x8/256/4/1 mesh:6x6/288/4/1"}
limit=${LIMIT:-20}
. "$(dirname "$0")/wormlab.sh"
res=$out/anytime.jsonl
: >"$res"
row() { printf '{"instance":"%s","solver":"%s","cpu_s":%s,"makespan":%s,"lower_bound":%s%s}\n' "$@" >>"$res"; }
for spec in $names; do
	IFS=/ read -r topo msgs flits seed <<EOS
$spec
EOS
	name=$(echo "$topo" | tr ':' '-')-$msgs-L$flits-s$seed
	inst=$out/$name.json
	"$wl" gen "$topo" --routing random-shortest --traffic random --messages "$msgs" --flits "$flits" --seed "$seed" -o "$inst" 2>/dev/null
	"$wl" solve --model bufferless --cpu-limit "${limit}s" --trace "$inst" -o "$out/$name.schedule.json" 2>"$out/$name.trace" || true
	"$wl" verify "$inst" "$out/$name.schedule.json" >/dev/null
	sed -n 's/^solve: \([0-9.]*\) s of CPU: makespan \([0-9]*\), lower bound \([0-9]*\)$/\1 \2 \3/p' "$out/$name.trace" >"$out/$name.wl"
	read -r satc satm <<EOS
$(sed -n 's/^solve: \([0-9.]*\) s of CPU: SAT search from makespan \([0-9]*\)$/\1 \2/p' "$out/$name.trace")
EOS
	[ -n "$satm" ] || { echo "anytime.sh: $name: the SAT search did not start" >&2; exit 1; }
	while read -r c m l; do row "$name" wormlab "$c" "$m" "$l" ",\"sat_cpu_s\":$satc"; done <"$out/$name.wl"
	# the large-neighbourhood search runs between the schedule search and
	# the SAT search: cadical starts where it starts, from the schedule
	# search's makespan
	lnsm=$(sed -n 's/^solve: [0-9.]* s of CPU: neighbourhood search from makespan \([0-9]*\)$/\1/p' "$out/$name.trace")
	T=$((${lnsm:-$satm} - 1))
	used=0 cnf=
	while :; do
		left=$(awk -v u="$used" -v t="$limit" 'BEGIN { l = t - u; print (l < 1) ? 0 : int(l) }')
		[ "$left" -gt 0 ] || break
		/usr/bin/time -f "%U %S" -o "$out/d.cpu" "$wl" solve --model bufferless --dimacs "$out/d.cnf" --horizon "$T" "$inst" 2>/dev/null || break
		[ -n "$cnf" ] || cnf=,\"formula_cpu_s\":$(tail -1 "$out/d.cpu" | awk '{ printf "%.2f", $1 + $2 }')
		rc=0
		/usr/bin/time -f "%U %S" -o "$out/d.cpu" sh -c "ulimit -t $left; exec cadical -q \"\$1\"" sh "$out/d.cnf" >"$out/d.out" 2>/dev/null || rc=$?
		used=$(tail -1 "$out/d.cpu" | awk -v u="$used" '{ printf "%.2f", u + $1 + $2 }')
		case $rc in
		10)
			"$wl" solve --model bufferless --assignment "$out/d.out" --horizon "$T" "$inst" -o "$out/d.json" 2>/dev/null
			"$wl" verify "$inst" "$out/d.json" >/dev/null
			m=$(sed -n 's/^  "makespan": \([0-9]*\),$/\1/p' "$out/d.json")
			row "$name" cadical "$used" "$m" 0 "$cnf"
			T=$((m - 1)) ;;
		20) row "$name" cadical "$used" $((T + 1)) $((T + 1)) "$cnf"; break ;;
		*) break ;;
		esac
	done
	rm -f "$out/d.cnf" "$out/d.out" "$out/d.json" "$out/d.cpu"
done
"$wl" plot "$res" --x cpu_s --y makespan --series instance+solver --legend top-right \
	--title "issue 27: best bufferless makespan against CPU time" --xlabel "CPU seconds" --ylabel makespan -o "$out/anytime.svg"
