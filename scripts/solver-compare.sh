#!/bin/sh
# Runs wormlab solve, cadical and MiniZinc/Gecode side by side on issue 16's and
# issue 27's instances and prints one markdown row per instance and model.
#
#   scripts/solver-compare.sh [NAME...]      (default: every instance below)
#
# Columns: wormlab's whole `solve --timeout` (makespan / lower bound, optimal or
# not, CPU seconds, and for a wormhole solve the stage that answered: b for its
# bufferless stage, w for the wormhole search); cadical on the CNF that `wormlab
# solve --dimacs F --horizon T` writes at the optimum T (satisfiable) and at T - 1
# (unsatisfiable: the proof of optimality a SAT solver must find by itself;
# wormlab may have it from a lower bound); cadical stepping down on wormlab's
# formula from STEP_FROM steps above wormlab's makespan (each satisfiable answer
# decoded by `wormlab solve --assignment`, the next horizon one below its
# makespan), its best makespan and the CPU seconds it took to reach it (to prove
# it, when the horizon below is refuted), within
# TIMEOUT CPU seconds in all; Gecode on scripts/minizinc/bufferless.mzn or
# wormhole.mzn (its makespan, "proven" when it closed the search, CPU seconds).
#
# Times are CPU seconds (user + system, children included), so that a loaded
# machine slows every column alike; each external run is stopped after TIMEOUT
# CPU seconds (default 60) by ulimit -t, and wormlab by its own --cpu-limit
# (it then writes its best schedule). Every schedule a
# solver reports is decoded and checked by wormlab verify (a failed check
# prints "ILLEGAL").
#
# Needs cadical and minizinc with Gecode (Debian: apt-get install cadical
# minizinc flatzinc); a missing one prints "-" in its columns. Environment:
# WORMLAB (default: built from this tree), TIMEOUT, STEP_FROM (default 5).
set -eu
TIMEOUT=${TIMEOUT:-60}
STEP_FROM=${STEP_FROM:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wl=${WORMLAB:-}
if [ -z "$wl" ]; then
	wl=$tmp/wormlab
	(cd "$here" && go build -o "$wl" ./cmd/wormlab)
fi
(cd "$here" && go build -o "$tmp/dzn" ./scripts/minizinc/dzn)

spec() {
	case $1 in
	mesh4x4-L8) echo "mesh --sides 4x4 --messages 256 --flits 8 --seed 1" ;;
	mesh5x5-L4) echo "mesh --sides 5x5 --messages 400 --flits 4 --seed 1" ;;
	mesh5x5-L1) echo "mesh --sides 5x5 --messages 400 --flits 1 --seed 1" ;;
	mesh7x7-L8) echo "mesh --sides 7x7 --messages 196 --flits 8 --seed 1" ;;
	tree4-L8) echo "kary-tree --k 2 --depth 4 --traffic random --messages 64 --flits 8 --seed 1" ;;
	tree5-complement) echo "kary-tree --k 2 --depth 5 --traffic complement --flits 4" ;;
	tree4-frontier) echo "kary-tree --k 2 --depth 4 --traffic random --messages 128 --flits 4 --seed 1" ;;
	prime-p3 | prime-p5) echo "prime" ;; # seed 002's all-pairs-colliding family, repaired (wormlab lower prime)
	# issue 27: random shortest paths, random traffic (NAME-sS: seed S, default 1)
	rs-mesh10-400-L4*) echo "mesh:10x10 --routing random-shortest --traffic random --messages 400 --flits 4 --seed $(seedOf "$1")" ;;
	rs-mesh6-288-L4*) echo "mesh:6x6 --routing random-shortest --traffic random --messages 288 --flits 4 --seed $(seedOf "$1")" ;;
	rs-mesh8-512-L2*) echo "mesh:8x8 --routing random-shortest --traffic random --messages 512 --flits 2 --seed $(seedOf "$1")" ;;
	rs-mesh8-256-L4*) echo "mesh:8x8 --routing random-shortest --traffic random --messages 256 --flits 4 --seed $(seedOf "$1")" ;;
	rs-torus6-576-L2*) echo "torus:6x6 --routing random-shortest --traffic random --messages 576 --flits 2 --seed $(seedOf "$1")" ;;
	rs-mesh8-768-L2*) echo "mesh:8x8 --routing random-shortest --traffic random --messages 768 --flits 2 --seed $(seedOf "$1")" ;;
	*) echo "solver-compare: unknown instance $1" >&2; exit 2 ;;
	esac
}
seedOf() {
	case $1 in
	*-s[0-9]*) echo "${1##*-s}" ;;
	*) echo 1 ;;
	esac
}
issue16="mesh4x4-L8 mesh5x5-L4 mesh5x5-L1 mesh7x7-L8 tree4-L8 tree5-complement tree4-frontier prime-p3 prime-p5"
issue27="rs-mesh10-400-L4 rs-mesh6-288-L4 rs-mesh8-512-L2 rs-mesh8-256-L4 rs-torus6-576-L2 rs-mesh8-768-L2"
names=${*:-"$issue16 $issue27"}

field() { sed -n "s/^  \"$1\": \([^,]*\),*$/\1/p" "$2" | head -1; }
jfield() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p" "$2" | head -1; }

# cpu FILE CMD...: runs CMD with at most TIMEOUT CPU seconds; FILE gets its CPU
# seconds (children included); returns CMD's status.
cpu() {
	cpuf=$1
	shift
	rc=0
	/usr/bin/time -f "%U %S" -o "$cpuf" sh -c "ulimit -t $TIMEOUT; exec \"\$@\"" sh "$@" || rc=$?
	secs "$cpuf" >"$cpuf.s"
	mv "$cpuf.s" "$cpuf"
	return $rc
}

# secs FILE: the CPU seconds in the last line of /usr/bin/time -f "%U %S" (a
# first line says when the command exited with a non-zero status)
secs() { tail -1 "$1" | awk '{ printf "%.2f", $1 + $2 }'; }

# cadical_at CNF: "sat 1.23 s", "unsat 0.40 s" or "no answer in TIMEOUT s"
cadical_at() {
	command -v cadical >/dev/null || { echo "-"; return; }
	rc=0
	cpu "$tmp/c.cpu" cadical -q "$1" >/dev/null 2>&1 || rc=$?
	case $rc in
	10) echo "sat $(cat "$tmp/c.cpu") s" ;;
	20) echo "unsat $(cat "$tmp/c.cpu") s" ;;
	*) echo "no answer in $TIMEOUT s" ;;
	esac
}

# cadical_down NAME MODEL T: cadical stepping down from horizon T on wormlab's
# formula: "M in X s" (the best makespan found and the CPU seconds to it, or
# "M optimal in X s" when the horizon below it is unsatisfiable), within
# TIMEOUT CPU seconds in all.
cadical_down() {
	command -v cadical >/dev/null || { echo "-"; return; }
	n=$1 m=$2 T=$3 used=0 best=none at=0 proven=
	while [ "$T" -ge 1 ]; do
		left=$(awk -v u="$used" -v t="$TIMEOUT" 'BEGIN { l = t - u; print (l < 1) ? 0 : int(l) }')
		[ "$left" -gt 0 ] || break
		"$wl" solve --model "$m" --dimacs "$tmp/d.cnf" --horizon "$T" "$tmp/$n.json" 2>/dev/null || break
		rc=0
		/usr/bin/time -f "%U %S" -o "$tmp/d.cpu" sh -c "ulimit -t $left; exec cadical -q \"\$1\"" sh "$tmp/d.cnf" >"$tmp/d.out" 2>/dev/null || rc=$?
		used=$(tail -1 "$tmp/d.cpu" | awk -v u="$used" '{ printf "%.2f", u + $1 + $2 }')
		case $rc in
		10)
			"$wl" solve --model "$m" --assignment "$tmp/d.out" --horizon "$T" "$tmp/$n.json" -o "$tmp/d.json" 2>/dev/null || { echo "ILLEGAL at $T"; return; }
			"$wl" verify "$tmp/$n.json" "$tmp/d.json" >/dev/null 2>&1 || { echo "ILLEGAL at $T"; return; }
			best=$(field makespan "$tmp/d.json") at=$used
			T=$((best - 1)) ;;
		20) proven=" optimal" at=$used; break ;;
		*) break ;;
		esac
	done
	rm -f "$tmp/d.cnf" "$tmp/d.out" "$tmp/d.json"
	echo "$best$proven in $at s"
}

# gecode NAME MODEL: Gecode on the MiniZinc model of MODEL
gecode() {
	command -v minizinc >/dev/null || { echo "-"; return; }
	flag=
	[ "$2" = wormhole ] && flag=--wormhole
	"$tmp/dzn" $flag "$tmp/$1.json" >"$tmp/i.dzn"
	cpu "$tmp/g.cpu" minizinc --solver gecode "$here/scripts/minizinc/$2.mzn" "$tmp/i.dzn" >"$tmp/g.out" 2>/dev/null || true
	gm=$(sed -n 's/^makespan = //p' "$tmp/g.out" | tail -1)
	if [ -n "$gm" ]; then
		"$tmp/dzn" --schedule "$tmp/$1.json" <"$tmp/g.out" >"$tmp/g.json" &&
			"$wl" verify "$tmp/$1.json" "$tmp/g.json" >/dev/null 2>&1 || { echo "ILLEGAL $gm"; return; }
	fi
	if grep -q '^==========' "$tmp/g.out"; then
		echo "${gm:-?} proven, $(cat "$tmp/g.cpu") s"
	else
		echo "${gm:-none} found, not proven in $TIMEOUT s"
	fi
}

echo "| instance | worms | model | wormlab | cadical at T | cadical at T - 1 | cadical stepping down from T + $STEP_FROM | Gecode |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for name in $names; do
	case $(spec "$name") in
	prime) "$wl" lower prime --p "${name#prime-p}" --repaired -o "$tmp/$name.json" >/dev/null ;;
	# shellcheck disable=SC2046
	*) "$wl" gen $(spec "$name") -o "$tmp/$name.json" 2>/dev/null ;;
	esac
	worms=$(grep -c '"id"' "$tmp/$name.json")
	for model in bufferless wormhole; do
		out=$tmp/$name-$model.out.json
		/usr/bin/time -f "%U %S" -o "$tmp/w.cpu" "$wl" solve --model "$model" --cpu-limit "${TIMEOUT}s" "$tmp/$name.json" -o "$out" 2>/dev/null || true
		mk=$(field makespan "$out")
		lb=$(field lower_bound "$out")
		opt=$(field optimal "$out")
		w="$mk / $lb"
		[ "$opt" = true ] && w="$mk optimal"
		w="$w, $(secs "$tmp/w.cpu") s"
		case $(jfield answered "$out") in
		bufferless) w="$w (b)" ;;
		wormhole) w="$w (w)" ;;
		esac
		"$wl" verify "$tmp/$name.json" "$out" >/dev/null 2>&1 || w="$w ILLEGAL"
		# the critical horizons: the best makespan (satisfiable) and one below
		ca=- cb=- cd=-
		if command -v cadical >/dev/null; then
			"$wl" solve --model "$model" --dimacs "$tmp/a.cnf" --horizon "$mk" "$tmp/$name.json" 2>/dev/null &&
				ca="T = $mk: $(cadical_at "$tmp/a.cnf")"
			"$wl" solve --model "$model" --dimacs "$tmp/b.cnf" --horizon $((mk - 1)) "$tmp/$name.json" 2>/dev/null &&
				cb="$(cadical_at "$tmp/b.cnf")"
			rm -f "$tmp/a.cnf" "$tmp/b.cnf"
			cd=$(cadical_down "$name" "$model" $((mk + STEP_FROM)))
		fi
		echo "| $name | $worms | $model | $w | $ca | $cb | $cd | $(gecode "$name" "$model") |"
	done
done
