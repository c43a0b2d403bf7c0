#!/bin/sh
# Issue 27's diagnosis of gini against cadical: both SAT solvers, and cadical
# with some of its features switched off, on the very formula wormlab builds
# (bufferless model, `solve --dimacs F --horizon T`, busy-slot and cardinality
# clauses included), one call each, within LIMIT CPU seconds. Writes
# OUT/sat.jsonl, one JSON object per formula and solver configuration
# (instance, horizon, vars, clauses, config, answer sat / unsat / none,
# cpu_s, limit_s, and for sat the makespan of the decoded schedule, checked by
# `wormlab verify`), and OUT/sat.md, a markdown table: a row per formula, a
# column per configuration.
#
#   experiments/solver-random/sat-compare.sh OUT [TOPO/MESSAGES/FLITS/SEED@T...]
#   (WORMLAB=binary, LIMIT=30,
#    CONFIGS="gini gophersat cadical plain focused stable notarget")
#
# Configurations: gini is the command of gini v1.0.4 (github.com/go-air/gini/
# cmd/gini, built from the module wormlab uses: the solver `wormlab solve`
# runs, on one formula, without wormlab's turns, hints and horizon steps);
# gophersat is the command of gophersat v1.4.0 (github.com/crillab/gophersat,
# the other Go SAT library in wormlab's go.mod, there for DRAT proofs);
# cadical is cadical (sc2021) with its defaults; plain is `cadical --plain`
# (no preprocessing or inprocessing: elimination, subsumption, probing,
# vivification, ...); focused is `cadical --stabilize=0` (focused mode only:
# restarts on glue averages, no stable phases, no target phases); stable is
# `cadical --stabilizeonly=1` (stable mode only: reluctant doubling restarts,
# a Luby sequence as gini's, and target phases); notarget is `cadical
# --target=0` (both modes, no target phases). CPU seconds are user + system
# of the solver's process (ulimit -t stops it at LIMIT); the formula's own
# CPU (`solve --dimacs`) is not counted. About LIMIT x configurations x
# formulas seconds of CPU at most.
set -eu
out=${1:?usage: sat-compare.sh OUTDIR [TOPO/MESSAGES/FLITS/SEED@T...]}
shift
specs=${*:-"mesh:8x8/768/2/2@80 mesh:8x8/256/4/1@64"}
limit=${LIMIT:-30}
configs=${CONFIGS:-"gini gophersat cadical plain focused stable notarget"}
. "$(dirname "$0")/wormlab.sh"
gini=$out/gini
gophersat=$out/gophersat
(cd "$here" && go build -o "$gini" github.com/go-air/gini/cmd/gini &&
	go build -o "$gophersat" github.com/crillab/gophersat)
res=$out/sat.jsonl
md=$out/sat.md
: >"$res"
{
	printf '| formula (bufferless, horizon T) | vars | clauses |'
	for c in $configs; do printf ' %s |' "$c"; done
	printf '\n| --- | --- | --- |'
	for c in $configs; do printf ' --- |'; done
	printf '\n'
} >"$md"
for spec in $specs; do
	T=${spec##*@}
	IFS=/ read -r topo msgs flits seed <<EOS
${spec%@*}
EOS
	name=$(echo "$topo" | tr ':' '-')-$msgs-L$flits-s$seed
	inst=$out/$name.json
	"$wl" gen "$topo" --routing random-shortest --traffic random --messages "$msgs" --flits "$flits" --seed "$seed" -o "$inst" 2>/dev/null
	cnf=$out/$name-$T.cnf
	"$wl" solve --model bufferless --dimacs "$cnf" --horizon "$T" "$inst" 2>/dev/null
	read -r _ _ vars clauses <<EOS
$(grep -m1 '^p cnf' "$cnf")
EOS
	printf '| %s, T = %s | %s | %s |' "$name" "$T" "$vars" "$clauses" >>"$md"
	for c in $configs; do
		case $c in
		gini) cmd="\"$gini\" -satcomp -model -timeout 100h" ;;
		gophersat) cmd="\"$gophersat\"" ;;
		cadical) cmd="cadical -q" ;;
		plain) cmd="cadical -q --plain" ;;
		focused) cmd="cadical -q --stabilize=0" ;;
		stable) cmd="cadical -q --stabilizeonly=1" ;;
		notarget) cmd="cadical -q --target=0" ;;
		*) echo "sat-compare.sh: unknown configuration $c" >&2; exit 2 ;;
		esac
		# the answer is the solver's "s" line (exit codes differ: gophersat
		# exits 0 either way); a solver stopped by ulimit has none
		/usr/bin/time -f "%U %S" -o "$out/cpu" sh -c "ulimit -t $limit; exec $cmd \"\$1\"" sh "$cnf" >"$out/answer" 2>/dev/null || true
		cpu=$(tail -1 "$out/cpu" | awk '{ printf "%.2f", $1 + $2 }')
		extra=
		case $(sed -n 's/^s //p' "$out/answer") in
		SATISFIABLE)
			answer=sat
			"$wl" solve --model bufferless --assignment "$out/answer" --horizon "$T" "$inst" -o "$out/schedule.json" 2>/dev/null
			"$wl" verify "$inst" "$out/schedule.json" >/dev/null
			m=$(sed -n 's/^  "makespan": \([0-9]*\),$/\1/p' "$out/schedule.json")
			extra=",\"makespan\":$m"
			cell="sat, $cpu s" ;;
		UNSATISFIABLE) answer=unsat cell="unsat, $cpu s" ;;
		*) answer=none cell="none in $limit s" ;;
		esac
		printf '{"instance":"%s","horizon":%s,"vars":%s,"clauses":%s,"config":"%s","answer":"%s","cpu_s":%s,"limit_s":%s%s}\n' \
			"$name" "$T" "$vars" "$clauses" "$c" "$answer" "$cpu" "$limit" "$extra" >>"$res"
		printf ' %s |' "$cell" >>"$md"
	done
	printf '\n' >>"$md"
	rm -f "$cnf" "$out/answer" "$out/schedule.json" "$out/cpu"
done
