#!/bin/sh
# Issue 25's speed goal in CPU time: the flit-hop benchmarks of the 16x16 torus
# and of the 1,056-terminal dragonfly, both at 0.2 (sim/bench_topology_test.go),
# alternated for ROUNDS rounds (default 7), each run at nice 19 with -benchtime 3x;
# one row per round and network to OUT/flithop.csv: CPU ns per flit-hop (a flit
# crossing a link or its ejection channel: Result.FlitHops), CPU ns per link-hop
# (router-to-router links alone), the links' flit-hops per cycle and the load
# average over the last minute before the run (ROUNDS=0: none, OUT/flithop.csv
# left as it is). Then, unless CACHEGRIND=0, one run
# of each network (TestFlitHopRun: WORMLAB_FLITHOP=torus02, dragonfly) under
# valgrind's cachegrind with this machine's L1 and L2 (--D1=32768,8,64
# --LL=1048576,8,64; GODEBUG=asyncpreemptoff=1), which a loaded machine does not
# change: one row per network to OUT/flithop-cachegrind.csv, the run's flit-hops
# and link-hops (a traced run) and the whole process's instructions, L1 data
# misses and data misses past the L2.
#
#   scripts/flithop-speed.sh OUT
#
# SIMTEST names a test binary of package sim (go test -c ./sim); by default one is
# built from this tree. docs/dragonfly.md quotes experiments/dragonfly/flithop.csv,
# a copy of OUT/flithop.csv; TestFlitHopDocFigures, package sim, checks it.
set -eu
OUT=${1:?usage: scripts/flithop-speed.sh OUT}
ROUNDS=${ROUNDS:-7}
case $ROUNDS in
'' | *[!0-9]*) echo "flithop-speed: ROUNDS=$ROUNDS: want a whole number" >&2; exit 2 ;;
esac
mkdir -p "$OUT"
# absolute: the default SIMTEST is built from the tree's root and run from here
OUT=$(cd "$OUT" && pwd)
if [ -z "${SIMTEST:-}" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	SIMTEST="$OUT/sim.test"
	(cd "$here" && go test -c -o "$SIMTEST" ./sim)
fi
if [ "$ROUNDS" -gt 0 ]; then
	csv="$OUT/flithop.csv"
	echo "round,network,cpu_ns_flit_hop,cpu_ns_link_hop,hops_link_cycle,load" > "$csv.tmp"
	round=1
	while [ "$round" -le "$ROUNDS" ]; do
		for net in Torus16x16 Dragonfly1056; do
			load=$(cut -d' ' -f1 /proc/loadavg)
			line=$(nice -n 19 "$SIMTEST" -test.run '^$' -test.bench "^BenchmarkFlitHop${net}Rate02\$" -test.benchtime 3x | grep "^BenchmarkFlitHop")
			echo "$line" | awk -v round="$round" -v net="$net" -v load="$load" '{
				for (i = 3; i < NF; i++) m[$(i + 1)] = $i
				if (m["cpu-ns/flit-hop"] == "" || m["cpu-ns/link-hop"] == "") { print "flithop-speed: no metrics in: " $0 > "/dev/stderr"; exit 1 }
				printf "%s,%s,%s,%s,%s,%s\n", round, net, m["cpu-ns/flit-hop"], m["cpu-ns/link-hop"], m["hops/link/cycle"], load
			}' >> "$csv.tmp"
		done
		round=$((round + 1))
	done
	mv "$csv.tmp" "$csv"
	cat "$csv"
fi
[ "${CACHEGRIND:-1}" = 0 ] && exit 0
cg="$OUT/flithop-cachegrind.csv"
echo "network,flit_hops,link_hops,instructions,d1_misses,ll_misses" > "$cg.tmp"
for net in torus02 dragonfly; do
	counts=$(WORMLAB_FLITHOP=$net WORMLAB_FLITHOP_COUNT=1 nice -n 19 "$SIMTEST" -test.run '^TestFlitHopRun$' | grep "flit-hops")
	GODEBUG=asyncpreemptoff=1 WORMLAB_FLITHOP=$net nice -n 19 valgrind --tool=cachegrind --cache-sim=yes \
		--D1=32768,8,64 --LL=1048576,8,64 --cachegrind-out-file="$OUT/cachegrind.$net" \
		"$SIMTEST" -test.run '^TestFlitHopRun$' > "$OUT/cachegrind.$net.log" 2>&1
	# "torus02: 4564503 flit-hops, 4058429 link-hops in 10000 cycles"
	echo "$counts" | awk -v net="$net" -v lf="$OUT/cachegrind.$net.log" '{
		fh = $2; lh = $4
		while ((getline l < lf) > 0) {
			n = split(l, f, " ")
			v = f[4]; gsub(",", "", v)
			if (l ~ /I +refs:/) ir = v
			if (l ~ /D1 +misses:/) d1 = v
			if (l ~ /LLd misses:/) ll = v
		}
		if (ir == "" || d1 == "" || ll == "") { print "flithop-speed: no counts in " lf > "/dev/stderr"; exit 1 }
		printf "%s,%s,%s,%s,%s,%s\n", net, fh, lh, ir, d1, ll
	}' >> "$cg.tmp"
done
mv "$cg.tmp" "$cg"
cat "$cg"
