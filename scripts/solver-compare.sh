#!/bin/sh
# Runs wormlab solve, cadical and MiniZinc/Gecode side by side on issue 16's
# instances and prints one markdown row per instance and model.
#
#   scripts/solver-compare.sh [NAME...]      (default: every instance below)
#
# Columns: wormlab's whole `solve --timeout` (makespan / lower bound, optimal or
# not, wall seconds); cadical on the CNF that `wormlab solve --dimacs F --horizon
# T` writes at the optimum T (satisfiable) and at T - 1 (unsatisfiable: the proof
# of optimality a SAT solver must find by itself; wormlab may have it from a lower
# bound); Gecode on scripts/minizinc/bufferless.mzn (bufferless rows only: its
# makespan, "proven" when it closed the search, and its wall time). Every external
# run is stopped after TIMEOUT seconds (default 60).
#
# Needs cadical and minizinc with Gecode (Debian: apt-get install cadical
# minizinc flatzinc); a missing one prints "-" in its columns. Environment:
# WORMLAB (default: built from this tree), TIMEOUT.
set -eu
TIMEOUT=${TIMEOUT:-60}
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
	*) echo "solver-compare: unknown instance $1" >&2; exit 2 ;;
	esac
}
names=${*:-"mesh4x4-L8 mesh5x5-L4 mesh5x5-L1 mesh7x7-L8 tree4-L8 tree5-complement tree4-frontier prime-p3 prime-p5"}

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
field() { sed -n "s/^  \"$1\": \([^,]*\),*$/\1/p" "$2" | head -1; }

# cadical_at CNF: "sat 1.23 s", "unsat 0.40 s" or "no answer in TIMEOUT s"
cadical_at() {
	command -v cadical >/dev/null || { echo "-"; return; }
	t0=$(now)
	rc=0
	timeout "$TIMEOUT" cadical -q "$1" >/dev/null 2>&1 || rc=$?
	t1=$(now)
	case $rc in
	10) echo "sat $(secs "$t0" "$t1") s" ;;
	20) echo "unsat $(secs "$t0" "$t1") s" ;;
	*) echo "no answer in $TIMEOUT s" ;;
	esac
}

echo "| instance | worms | model | wormlab | cadical at T | cadical at T - 1 | Gecode (bufferless) |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for name in $names; do
	case $(spec "$name") in
	prime) "$wl" lower prime --p "${name#prime-p}" --repaired -o "$tmp/$name.json" >/dev/null ;;
	# shellcheck disable=SC2046
	*) "$wl" gen $(spec "$name") -o "$tmp/$name.json" 2>/dev/null ;;
	esac
	worms=$(grep -c '"id"' "$tmp/$name.json")
	for model in bufferless wormhole; do
		out=$tmp/$name-$model.out.json
		t0=$(now)
		"$wl" solve --model "$model" --timeout "${TIMEOUT}s" "$tmp/$name.json" -o "$out" 2>/dev/null || true
		t1=$(now)
		mk=$(field makespan "$out")
		lb=$(field lower_bound "$out")
		opt=$(field optimal "$out")
		w="$mk / $lb"
		[ "$opt" = true ] && w="$mk optimal"
		w="$w, $(secs "$t0" "$t1") s"
		# the critical horizons: the best makespan (satisfiable) and one below
		ca=- cb=-
		if command -v cadical >/dev/null; then
			"$wl" solve --model "$model" --dimacs "$tmp/a.cnf" --horizon "$mk" "$tmp/$name.json" 2>/dev/null &&
				ca="T = $mk: $(cadical_at "$tmp/a.cnf")"
			"$wl" solve --model "$model" --dimacs "$tmp/b.cnf" --horizon $((mk - 1)) "$tmp/$name.json" 2>/dev/null &&
				cb="$(cadical_at "$tmp/b.cnf")"
			rm -f "$tmp/a.cnf" "$tmp/b.cnf"
		fi
		g=-
		if [ "$model" = bufferless ] && command -v minizinc >/dev/null; then
			"$tmp/dzn" "$tmp/$name.json" >"$tmp/i.dzn"
			t0=$(now)
			minizinc --solver gecode --time-limit "${TIMEOUT}000" "$here/scripts/minizinc/bufferless.mzn" "$tmp/i.dzn" >"$tmp/g.out" 2>/dev/null || true
			t1=$(now)
			gm=$(sed -n 's/^makespan = //p' "$tmp/g.out" | tail -1)
			if grep -q '^==========' "$tmp/g.out"; then
				g="${gm:-?} proven, $(secs "$t0" "$t1") s"
			else
				g="${gm:-none} found, not proven in $TIMEOUT s"
			fi
		fi
		echo "| $name | $worms | $model | $w | $ca | $cb | $g |"
	done
done
