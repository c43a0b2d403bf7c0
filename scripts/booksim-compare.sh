#!/bin/sh
# Runs an already-built BookSim2 and wormlab side by side on issue 11's configuration
# (8x8 torus, dimension order with datelines, 4 VCs of 8 flits, 16-flit packets,
# uniform Bernoulli traffic, BookSim's iq router defaults = wormlab's --pipeline
# booksim) and prints tables. It neither fetches nor builds BookSim: see
# docs/booksim.md for that.
#
#   BOOKSIM=/path/to/booksim scripts/booksim-compare.sh [MODE]
#
# MODE: latency, saturation, speed (all but the largest tori), all (those three),
# and apart: speed-large (the 64x64 and 128x128 rows, hours of BookSim), threads
# (wormlab on one core and on two, wall time, then BookSim-free BenchmarkThreads
# runs, THREADS_REPS of them, for where two threads start to pay), memory (a 10^7-cycle run's maximum
# resident size), minadapt (min_adapt against minadapt and minadapt-islip on the
# 16x16 torus), crossbar (BookSim2's one 10x10 crossbar, fly with k = 10 and n = 1,
# 8 VCs, 1-flit packets, no routing delay, as its src/examples/singleconfig sets
# it, at CROSSBAR_RATES, default "0.3 0.6", BookSim2 also with islip: wormlab's
# --config run of the same file, which is BookSim2's rules, --select rotate and
# --switch-input output, then with one or both overridden by wormlab's defaults,
# --select first and --switch-input vc), examples (BookSim2's torus88 and
# mesh88_lat and an --emit-config file, read by both), configlat (the latency
# table's torus through --config, with either simulator's allocators),
# configadapt (min_adapt on the 16x16 torus through --config, likewise),
# meshadapt (min_adapt on an 8x8 mesh through the file --emit-config writes),
# configrules (wormlab alone on configlat's file, each of BookSim2's two rules
# there replaced by wormlab's own, then both), credit (small buffers and
# wait_for_tail_credit, --config against one cycle more of credit delay),
# configcredit (configlat's file with one cycle more of credit delay). With OUT
# set, threads, memory, minadapt, crossbar, examples, configlat, configadapt,
# meshadapt, configrules, credit and configcredit also write threads.csv (and
# crossover.csv), memory.csv, minadapt.csv, crossbar.csv, examples.csv,
# configlat.csv, configadapt.csv, meshadapt.csv, configrules.csv, credit.csv and
# configcredit.csv there (the figures docs/booksim.md quotes).
#
# Environment: BOOKSIM (required) the booksim binary; WORMLAB the wormlab binary
# (default: built from this tree into a temporary directory); SIMTEST package
# sim's test binary, which threads' crossover runs (go test -c -o FILE ./sim, from
# the tree WORMLAB was built from; default: built from this tree when WORMLAB is
# not set, and with WORMLAB set and SIMTEST not, the crossover is not run, and
# says so, rather than measure other code than the table); RATES the offered
# loads of the latency table (default "0.05 0.1 0.2 0.3 0.35 0.38 0.4");
# SEEDS (default "1 2 3"); ROUTING wormlab's routing (default dor-booksim, the
# classes BookSim's dim_order_torus uses; dor is Dally-Seitz's); SPEED_CYCLES the
# cycles of a speed run on the 8x8 torus (default 60000; a k x k torus runs
# SPEED_CYCLES*64/k^2, at least SPEED_MIN, default 1200); OUT, when set, a folder
# where speed and speed-large append their rows to speed.csv (and draw speed.svg
# with wormlab plot); LARGE the sides of speed-large's tori (default "64 128") and
# LARGE_RATE their load (default 0.1, past saturation on 64x64 and 128x128: a
# k x k torus under uniform traffic and dimension order loads each channel with
# k/8 times the offered load, and the 8x8 torus saturates at 0.486; issue 24's
# size rule wants a load below saturation, e.g. LARGE="8 16 32 64 128"
# LARGE_RATE=0.02 SPEED_MIN=3000, the large tori's packets taking some 400 cycles
# to cross the network); SIMS the simulators of speed and speed-large (default
# "booksim wormlab"; "wormlab" leaves BookSim out); BOOKSIM_ROWS, for
# configlat and configadapt, an earlier CSV of the mode whose BookSim2 columns
# are read instead of rerun.
set -eu

mode=${1:-all}
: "${BOOKSIM:?set BOOKSIM to the path of a built booksim binary (docs/booksim.md)}"
[ -x "$BOOKSIM" ] || { echo "booksim-compare: $BOOKSIM is not an executable" >&2; exit 2; }
RATES=${RATES:-"0.05 0.1 0.2 0.3 0.35 0.38 0.4"}
SEEDS=${SEEDS:-"1 2 3"}
ROUTING=${ROUTING:-dor-booksim}
SPEED_CYCLES=${SPEED_CYCLES:-60000}
OUT=${OUT:-}
LARGE=${LARGE:-"64 128"}
LARGE_RATE=${LARGE_RATE:-0.1}
SPEED_MIN=${SPEED_MIN:-1200}
SIMS=${SIMS:-"booksim wormlab"}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")/.." && pwd)
built= # set when wormlab is built from this tree
if [ -z "${WORMLAB:-}" ]; then
	(cd "$here" && go build -o "$tmp/wormlab" ./cmd/wormlab)
	WORMLAB=$tmp/wormlab built=1
fi
case ${SIMTEST:-} in
"" | /*) ;;
*) SIMTEST=$(pwd)/$SIMTEST ;; # the benchmark runs in $tmp
esac

cat > "$tmp/torus.cfg" <<'EOF'
topology = torus;
k = 8;
n = 2;
routing_function = dim_order;
num_vcs = 4;
vc_buf_size = 8;
packet_size = 16;
traffic = uniform;
injection_process = bernoulli;
injection_rate_uses_flits = 1;
injection_rate = 0.1;
sim_type = latency;
EOF

# bs_field OUT NAME: the value of an "Overall" statistic of a BookSim output.
bs_field() {
	sed -n '/Overall Traffic Statistics/,$p' "$1" | grep -m1 "$2" | sed 's/.*= \([0-9.e+-]*\).*/\1/'
}
# wl_field JSON NAME: a number (or null/true/false) of wormlab's JSON.
wl_field() {
	grep -o "\"$2\": *[^,}]*" "$1" | head -1 | sed 's/.*: *//'
}
# csvrow NAME HEADER VALUES: with OUT set, appends VALUES and the load average to
# OUT/NAME.csv (HEADER and load first, in a new file).
csvrow() {
	[ -n "$OUT" ] || return 0
	mkdir -p "$OUT"
	[ -s "$OUT/$1.csv" ] || echo "$2,load" > "$OUT/$1.csv"
	echo "$3,$(cut -d' ' -f1 /proc/loadavg)" >> "$OUT/$1.csv"
}
mean() { awk '{s+=$1; n++} END {if (n) printf "%.4g", s/n; else print "-"}'; }

latency() {
	echo "# mean packet latency (cycles) and accepted load (flits/node/cycle), mean over seeds: $SEEDS"
	echo "# booksim: sample_period=10000; wormlab: sim --routing $ROUTING --rel 0.01 --min-cycles 50000"
	printf '%-7s %10s %10s %10s %10s %8s\n' offered bs_latency wl_latency bs_accept wl_accept lat_diff
	for r in $RATES; do
		: > "$tmp/bl"; : > "$tmp/ba"; : > "$tmp/wl"; : > "$tmp/wa"
		for s in $SEEDS; do
			"$BOOKSIM" "$tmp/torus.cfg" injection_rate="$r" seed="$s" sample_period=10000 > "$tmp/bs.out" 2>&1 || true
			if grep -q unstable "$tmp/bs.out"; then echo unstable >> "$tmp/bl"; else
				bs_field "$tmp/bs.out" 'Packet latency average' >> "$tmp/bl"
				bs_field "$tmp/bs.out" 'Accepted flit rate average' >> "$tmp/ba"
			fi
			"$WORMLAB" sim --json --routing "$ROUTING" --rate "$r" --seed "$s" --rel 0.01 --min-cycles 50000 > "$tmp/wl.json"
			if [ "$(wl_field "$tmp/wl.json" saturated)" = true ]; then echo saturated >> "$tmp/wl"; else
				wl_field "$tmp/wl.json" latency >> "$tmp/wl"
			fi
			wl_field "$tmp/wl.json" accepted >> "$tmp/wa"
		done
		bl=$(grep -v unstable "$tmp/bl" | mean); grep -q unstable "$tmp/bl" && bl="unstable"
		wl=$(grep -v saturated "$tmp/wl" | mean); grep -q saturated "$tmp/wl" && wl="saturated"
		ba=$(mean < "$tmp/ba"); wa=$(mean < "$tmp/wa")
		d=$(awk -v a="$bl" -v b="$wl" 'BEGIN { if (a+0 > 0 && b+0 > 0) printf "%+.1f%%", 100*(b-a)/a; else print "-" }')
		printf '%-7s %10s %10s %10s %10s %8s\n' "$r" "$bl" "$wl" "$ba" "$wa" "$d"
	done
}

saturation() {
	echo "# saturation throughput: accepted load with the sources always backlogged (offered 1.0)"
	echo "# booksim: sim_type=throughput sample_period=10000; wormlab: --rate 1 --min-cycles 60000 --max-cycles 60000"
	printf '%-5s %10s %10s\n' seed booksim wormlab
	for s in $SEEDS; do
		"$BOOKSIM" "$tmp/torus.cfg" injection_rate=1.0 sim_type=throughput sample_period=10000 seed="$s" > "$tmp/bs.out" 2>&1 || true
		b=$(bs_field "$tmp/bs.out" 'Accepted flit rate average')
		"$WORMLAB" sim --json --routing "$ROUTING" --rate 1 --seed "$s" --min-cycles 60000 --max-cycles 60000 > "$tmp/wl.json"
		w=$(wl_field "$tmp/wl.json" accepted)
		printf '%-5s %10.4f %10.4f\n' "$s" "$b" "$w"
	done
}

# cpu CMD...: user+sys CPU seconds of a command (output to $tmp/run.out).
cpu() {
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$@" > "$tmp/run.out" 2>&1 || true
	tail -1 "$tmp/time" | awk '{print $1+$2}'
}

# speedrow K RATE: one row of the speed table: BookSim and wormlab (one thread,
# GOMAXPROCS=1) on the KxK torus at RATE, interleaved; BookSim runs 3 warm-up and 3
# measured periods (stopping thresholds off) plus its drain. A flit-hop is a flit
# crossing a channel, a link or into its sink: wormlab counts them (flit_hops);
# for BookSim they are its accepted flits/node/cycle times nodes, cycles and its
# "Hops average" (router traversals per packet: (hops+1)).
speedrow() {
	k=$1 r=$2
	c=$((SPEED_CYCLES * 64 / (k * k)))
	[ "$c" -ge "$SPEED_MIN" ] || c=$SPEED_MIN
	c=$((c / 6 * 6))
	bt=0 bc=0 bh=0 ba=0
	case " $SIMS " in *" booksim "*)
		bt=$(cpu "$BOOKSIM" "$tmp/torus.cfg" k="$k" injection_rate="$r" warmup_periods=3 sample_period=$((c / 6)) max_samples=6 stopping_thres=-1.0 acc_stopping_thres=-1.0 latency_thres=-1.0 seed=1)
		bc=$(grep 'Time taken' "$tmp/run.out" | awk '{print $4}')
		bh=$(bs_field "$tmp/run.out" 'Hops average')
		ba=$(bs_field "$tmp/run.out" 'Accepted flit rate average')
	esac
	wt=$(cpu env GOMAXPROCS=1 "$WORMLAB" sim --json --topology "torus:${k}x${k}" --routing "$ROUTING" --rate "$r" --seed 1 --min-cycles "$c" --max-cycles "$c")
	wc=$(wl_field "$tmp/run.out" cycles)
	wh=$(wl_field "$tmp/run.out" flit_hops)
	awk -v k="$k" -v r="$r" -v bc="$bc" -v bt="$bt" -v bh="$bh" -v ba="$ba" -v wc="$wc" -v wt="$wt" -v wh="$wh" -v out="$OUT" 'BEGIN {
		n = k * k
		w = wc / (wt > 0 ? wt : 0.01); wns = 1e9 * wt / wh
		if (bc > 0) {
			b = bc / (bt > 0 ? bt : 0.01); bns = 1e9 * bt / (ba * n * bc * bh)
			printf "%-14s %5s %9d %12.0f %12.0f %7.1fx %10.0f %10.1f %7.1fx\n", "torus:" k "x" k, r, wc, b, w, w / b, bns, wns, bns / wns
		} else
			printf "%-14s %5s %9d %12s %12.0f %8s %10s %10.1f %8s\n", "torus:" k "x" k, r, wc, "-", w, "-", "-", wns, "-"
		if (out != "") {
			f = out "/speed.csv"
			if (bc > 0) printf "booksim,%d,%s,%d,%.3f,%.1f\n", n, r, bc, bt, bns >> f
			printf "wormlab,%d,%s,%d,%.3f,%.2f\n", n, r, wc, wt, wns >> f
		}
	}'
}

speedhead() {
	echo "# simulated cycles per CPU-second and CPU nanoseconds per flit-hop, one thread each, runs interleaved; 8x8: $SPEED_CYCLES cycles, k x k: $SPEED_CYCLES*64/k^2 (at least $SPEED_MIN)"
	echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-14s %5s %9s %12s %12s %8s %10s %10s %8s\n' network rate cycles booksim_c/s wormlab_c/s ratio bs_ns/fh wl_ns/fh ratio
	if [ -n "$OUT" ] && [ ! -s "$OUT/speed.csv" ]; then
		mkdir -p "$OUT"
		echo "simulator,routers,rate,cycles,cpu_s,ns_per_flit_hop" > "$OUT/speed.csv"
	fi
}

speedplot() {
	[ -n "$OUT" ] || return 0
	# The figure is of the rows at 0.1 (speed's table); a folder of speed-large's
	# rows at another LARGE_RATE alone has none to draw.
	if ! awk -F, 'NR > 1 && $3 == 0.1 { found = 1 } END { exit !found }' "$OUT/speed.csv"; then
		echo "# no row at 0.1 in $OUT/speed.csv: speed.svg not drawn"
		return 0
	fi
	"$WORMLAB" plot "$OUT/speed.csv" --where rate=0.1 --x routers --y ns_per_flit_hop --series simulator --logx --logy \
		--title "CPU time per flit-hop, torus at 0.1 flits/node/cycle" -o "$OUT/speed.svg"
}

speed() {
	speedhead
	for spec in "8 0.1" "8 0.4" "16 0.1" "16 0.2" "32 0.1"; do
		speedrow $spec
	done
	speedplot
}

speedlarge() {
	speedhead
	for k in $LARGE; do
		speedrow "$k" "$LARGE_RATE"
	done
	speedplot
}

# threads: wormlab on one core and on two (GOMAXPROCS; a run is the same whatever
# its threads), wall and CPU seconds, on tori from 16x16 to 128x128 at 0.1.
threads() {
	echo "# wormlab wall and CPU seconds on one thread and on two; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-14s %7s %9s %9s %9s %9s %8s\n' network cycles wall_1 cpu_1 wall_2 cpu_2 speedup
	for k in 16 32 64 128; do
		c=$((SPEED_CYCLES * 64 / (k * k)))
		[ "$c" -ge "$SPEED_MIN" ] || c=$SPEED_MIN
		for g in 1 2; do
			/usr/bin/time -f '%e %U %S' -o "$tmp/time.$g" env GOMAXPROCS=$g "$WORMLAB" sim --json --topology "torus:${k}x${k}" --routing "$ROUTING" --rate 0.1 --seed 1 --min-cycles "$c" --max-cycles "$c" > "$tmp/thr.$g"
		done
		same=yes
		cmp -s "$tmp/thr.1" "$tmp/thr.2" || { same=no; echo "booksim-compare: torus:${k}x${k}: results differ between 1 and 2 threads" >&2; }
		paste "$tmp/time.1" "$tmp/time.2" | awk -v n="torus:${k}x${k}" -v k="$k" -v c="$c" -v same="$same" -v row="$tmp/threads.row" '{
			printf "%-14s %7d %9.2f %9.2f %9.2f %9.2f %7.2fx\n", n, c, $1, $2+$3, $4, $5+$6, $1 / $4
			printf "%d,%d,%.2f,%.2f,%.2f,%.2f,%s\n", k * k, c, $1, $2+$3, $4, $5+$6, same > row
		}'
		csvrow threads routers,cycles,wall_1,cpu_1,wall_2,cpu_2,identical "$(cat "$tmp/threads.row")"
	done
	crossover
}

# crossover: BenchmarkThreads (sim/bench_test.go: 2,000 cycles at 0.1 on tori
# from 16x16 to 128x128, one thread and two whatever the default), THREADS_REPS
# times (default 3), elapsed one thread over two, where two threads start to pay;
# with OUT, rows of crossover.csv (one a size and run, the load as the run ends).
# sim.ParallelRouters is the least size from which every run of every size was
# faster on two threads (TestCrossoverDocFigures checks it against the committed
# file). The benchmark is SIMTEST (see Environment).
crossover() {
	if [ -z "${SIMTEST:-}" ]; then
		if [ -z "$built" ]; then
			echo "# crossover not run: WORMLAB names a build of its own; set SIMTEST to package sim's test binary built from the same tree (go test -c -o FILE ./sim)"
			return 0
		fi
		(cd "$here" && go test -c -o "$tmp/sim.test" ./sim)
		SIMTEST=$tmp/sim.test
	fi
	echo "# BenchmarkThreads, elapsed ns of a run on one thread and on two (GOMAXPROCS 2), ${THREADS_REPS:-3} runs; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-14s %4s %14s %14s %8s\n' network run ns_1 ns_2 speedup
	for i in $(seq "${THREADS_REPS:-3}"); do
		(cd "$tmp" && GOMAXPROCS=2 "$SIMTEST" -test.run '^$' -test.bench 'Threads/' -test.benchtime 1x) > "$tmp/bench.txt"
		awk -v run="$i" -v rows="$tmp/crossover.rows" '
			/^BenchmarkThreads\/torus:/ {
				split($1, a, "/"); sub("torus:", "", a[2]); split(a[2], side, "x")
				t = a[3]; sub("-.*", "", t)
				ns[side[1], t] = $3
				if (!(side[1] in seen)) { seen[side[1]] = 1; order[++n] = side[1] }
			}
			END {
				printf "" > rows
				for (j = 1; j <= n; j++) {
					k = order[j]
					printf "%-14s %4d %14.0f %14.0f %7.2fx\n", "torus:" k "x" k, run, ns[k, "threads=1"], ns[k, "threads=2"], ns[k, "threads=1"] / ns[k, "threads=2"]
					printf "%d,%d,%.0f,%.0f\n", k * k, run, ns[k, "threads=1"], ns[k, "threads=2"] > rows
				}
			}' "$tmp/bench.txt"
		while read -r row; do
			csvrow crossover routers,run,ns_1,ns_2 "$row"
		done < "$tmp/crossover.rows"
	done
}

# memory: the maximum resident size of a 10^7-cycle run at 0.4 on the 8x8 torus.
memory() {
	/usr/bin/time -f '%M %U' -o "$tmp/time" "$WORMLAB" sim --json --routing "$ROUTING" --rate 0.4 --seed 1 --min-cycles 10000000 --max-cycles 10000000 > "$tmp/mem.json"
	awk -v lat="$(wl_field "$tmp/mem.json" latency)" -v n="$(wl_field "$tmp/mem.json" packets_delivered)" '{
		printf "torus:8x8 at 0.4, 10^7 cycles: %d packets delivered, latency %.2f, maximum resident %.1f MB, %.0f CPU s\n", n, lat, $1 / 1024, $2 }' "$tmp/time"
	if [ -n "$OUT" ]; then
		mkdir -p "$OUT"
		awk -v lat="$(wl_field "$tmp/mem.json" latency)" -v n="$(wl_field "$tmp/mem.json" packets_delivered)" '{
			print "cycles,packets,latency,max_rss_mb,cpu_s"
			printf "10000000,%d,%.2f,%.1f,%.0f\n", n, lat, $1 / 1024, $2 }' "$tmp/time" > "$OUT/memory.csv"
	fi
}

# minadapt: BookSim2's min_adapt against wormlab's minadapt (adaptive VC
# preferred, as the routing function's priorities say) and minadapt-islip with
# random selection (no preference, as BookSim's iSLIP VC allocator has it), on the
# 16x16 torus; latency means over SEEDS.
minadapt() {
	sed 's/^k = 8;/k = 16;/; s/^routing_function = dim_order;/routing_function = min_adapt;/' "$tmp/torus.cfg" > "$tmp/minadapt.cfg"
	echo "# mean packet latency on the 16x16 torus, seeds: $SEEDS; booksim: sample_period=10000; wormlab: --rel 0.01 --min-cycles 50000"
	printf '%-7s %10s %10s %8s %16s %8s\n' offered booksim minadapt diff minadapt-islip diff
	for r in ${MINADAPT_RATES:-0.1 0.25}; do
		: > "$tmp/bl"; : > "$tmp/w1"; : > "$tmp/w2"
		for s in $SEEDS; do
			"$BOOKSIM" "$tmp/minadapt.cfg" injection_rate="$r" seed="$s" sample_period=10000 > "$tmp/bs.out" 2>&1 || true
			bs_field "$tmp/bs.out" 'Packet latency average' >> "$tmp/bl"
			"$WORMLAB" sim --json --topology torus:16x16 --routing minadapt --rate "$r" --seed "$s" --rel 0.01 --min-cycles 50000 > "$tmp/wl.json"
			wl_field "$tmp/wl.json" latency >> "$tmp/w1"
			"$WORMLAB" sim --json --topology torus:16x16 --routing minadapt-islip --select random --rate "$r" --seed "$s" --rel 0.01 --min-cycles 50000 > "$tmp/wl.json"
			wl_field "$tmp/wl.json" latency >> "$tmp/w2"
		done
		if [ -n "$OUT" ]; then
			mkdir -p "$OUT"
			[ -s "$OUT/minadapt.csv" ] || echo "rate,seed,booksim,minadapt,minadapt_islip" > "$OUT/minadapt.csv"
			set -- $SEEDS
			paste -d' ' "$tmp/bl" "$tmp/w1" "$tmp/w2" | while read -r b x y; do
				echo "$r,$1,$b,$x,$y" >> "$OUT/minadapt.csv"
				shift
			done
		fi
		bl=$(mean < "$tmp/bl"); w1=$(mean < "$tmp/w1"); w2=$(mean < "$tmp/w2")
		awk -v r="$r" -v b="$bl" -v x="$w1" -v y="$w2" 'BEGIN {
			printf "%-7s %10.2f %10.2f %+7.1f%% %16.2f %+7.1f%%\n", r, b, x, 100*(x-b)/b, y, 100*(y-b)/b }'
	done
}

# crossbar: BookSim2's separable input-first allocators (and its default, islip)
# against wormlab's VC selections and switch input stages on one 10x10 crossbar;
# latency per seed. wormlab reads the file (--config: --select rotate
# --switch-input output); the columns vc, rotate and output override one or both
# rules with wormlab's defaults, rotate_output is the file as it reads.
crossbar() {
	cat > "$tmp/crossbar.cfg" <<'EOF'
topology = fly;
k = 10;
n = 1;
num_vcs = 8;
vc_buf_size = 8;
vc_allocator = separable_input_first;
sw_allocator = separable_input_first;
routing_function = dest_tag;
traffic = uniform;
use_read_write = 0;
sample_period = 100000;
routing_delay = 0;
EOF
	echo "# mean packet latency (cycles) on one 10x10 crossbar (8 VCs, 1-flit packets), seeds: $SEEDS; both: the same file (sample_period=100000)"
	printf '%-7s %5s %10s %10s %10s %10s %10s %14s\n' offered seed booksim islip vc rotate output rotate+output
	for r in ${CROSSBAR_RATES:-0.3 0.6}; do
		for s in $SEEDS; do
			"$BOOKSIM" "$tmp/crossbar.cfg" injection_rate="$r" seed="$s" > "$tmp/bs.out" 2>&1 || true
			b=$(bs_field "$tmp/bs.out" 'Packet latency average')
			"$BOOKSIM" "$tmp/crossbar.cfg" injection_rate="$r" seed="$s" vc_allocator=islip sw_allocator=islip > "$tmp/bs.out" 2>&1 || true
			bi=$(bs_field "$tmp/bs.out" 'Packet latency average')
			w=""
			for flags in "--select first --switch-input vc" "--switch-input vc" "--select first" ""; do
				"$WORMLAB" sim --json --config "$tmp/crossbar.cfg" injection_rate="$r" seed="$s" $flags > "$tmp/wl.json" 2>/dev/null
				w="$w $(wl_field "$tmp/wl.json" latency)"
			done
			set -- $w
			printf '%-7s %5s %10s %10s %10s %10s %10s %14s\n' "$r" "$s" "$b" "$bi" "$1" "$2" "$3" "$4"
			csvrow crossbar rate,seed,booksim,booksim_islip,vc,rotate,output,rotate_output "$r,$s,$b,$bi,$1,$2,$3,$4"
		done
	done
}

# configrows MODE FILE RATES COLUMN FLAGS...: per load of RATES and seed, BookSim2
# reading FILE as it says and with separable_input_first (sif), wormlab reading it
# as it says and with FLAGS (column COLUMN), wormlab with --rel 0.01 --min-cycles
# 50000, BookSim2 with sample_period=10000; rows printed and written to MODE.csv.
configrows() {
	mode=$1 file=$2 rates=$3 col=$4
	shift 4
	sif="vc_allocator=separable_input_first sw_allocator=separable_input_first"
	printf '%-7s %5s %10s %10s %10s %12s\n' offered seed booksim sif wormlab "$col"
	for r in $rates; do
		for s in $SEEDS; do
			if [ -n "${BOOKSIM_ROWS:-}" ]; then
				# BookSim2's two columns from an earlier run of this mode
				b=$(awk -F, -v r="$r" -v s="$s" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $1 == r && $2 == s {print $c["booksim"]; exit}' "$BOOKSIM_ROWS")
				bf=$(awk -F, -v r="$r" -v s="$s" 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} $1 == r && $2 == s {print $c["booksim_sif"]; exit}' "$BOOKSIM_ROWS")
				[ -n "$b" ] && [ -n "$bf" ] || { echo "booksim-compare: $BOOKSIM_ROWS has no row of rate $r, seed $s" >&2; exit 2; }
			else
				"$BOOKSIM" "$file" injection_rate="$r" seed="$s" sample_period=10000 > "$tmp/bs.out" 2>&1 || true
				b=$(bs_field "$tmp/bs.out" 'Packet latency average')
				"$BOOKSIM" "$file" injection_rate="$r" seed="$s" sample_period=10000 $sif > "$tmp/bs.out" 2>&1 || true
				bf=$(bs_field "$tmp/bs.out" 'Packet latency average')
			fi
			"$WORMLAB" sim --json --config "$file" injection_rate="$r" seed="$s" --rel 0.01 --min-cycles 50000 > "$tmp/wl.json" 2>/dev/null
			w=$(wl_field "$tmp/wl.json" latency)
			"$WORMLAB" sim --json --config "$file" injection_rate="$r" seed="$s" --rel 0.01 --min-cycles 50000 "$@" > "$tmp/wl.json" 2>/dev/null
			wo=$(wl_field "$tmp/wl.json" latency)
			printf '%-7s %5s %10s %10s %10s %12s\n' "$r" "$s" "$b" "$bf" "$w" "$wo"
			csvrow "$mode" "rate,seed,booksim,booksim_sif,wormlab,$col" "$r,$s,$b,$bf,$w,$wo"
		done
	done
}

# configlat: the latency table's 8x8 torus through --config, per load and seed:
# BookSim2 as the file says (its default islip) and with separable_input_first,
# wormlab reading the file (BookSim2's rules) and with its own (--select first
# --switch-input vc), at RATES.
configlat() {
	echo "# mean packet latency (cycles) on the 8x8 torus, both reading the same file; booksim: sample_period=10000"
	configrows configlat "$tmp/torus.cfg" "$RATES" wormlab_own --select first --switch-input vc
}

# configadapt: BookSim2's min_adapt on the 16x16 torus (the minadapt mode's file)
# read by both, per load and seed: BookSim2 as the file says (its default islip,
# which reads no priorities) and with separable_input_first (which takes the
# adaptive VC first, as the routing function's priorities say); wormlab reading
# the file (min_adapt under islip as minadapt-booksim-islip, islip as
# separable_input_first: --select rotate --switch-input output) and the file with
# separable_input_first (min_adapt as minadapt-booksim), at ADAPT_RATES (default
# "0.05 0.1 0.15"; saturation is about 0.23). BOOKSIM_ROWS, when set, is a CSV
# of an earlier run of this mode: BookSim2's two columns are read from its row of
# the same rate and seed rather than rerun (BookSim2's run is the same for the
# same file and seed; its two runs take some 200 CPU-s a row here).
configadapt() {
	sed 's/^k = 8;/k = 16;/; s/^routing_function = dim_order;/routing_function = min_adapt;/' "$tmp/torus.cfg" > "$tmp/minadapt.cfg"
	echo "# mean packet latency (cycles) on the 16x16 torus with min_adapt, both reading the same file (sif: with separable_input_first); booksim: sample_period=10000"
	configrows configadapt "$tmp/minadapt.cfg" "${ADAPT_RATES:-0.05 0.1 0.15}" wormlab_sif vc_allocator=separable_input_first sw_allocator=separable_input_first
}

# meshadapt: min_adapt on an 8x8 mesh (4 VCs of 8 flits, 4-flit packets, uniform
# Bernoulli traffic), both reading the file wormlab sim --emit-config writes for
# --routing minadapt-booksim --select rotate --switch-input output (BookSim2's
# separable_input_first): per load of MESHADAPT_RATES (default "0.1 0.2 0.3") and
# seed, BookSim2 (sample_period=10000), wormlab as --config reads it
# (minadapt-booksim: the adaptive VCs of the lowest dimension still to correct
# alone, as BookSim2's OutputSet leaves them) and with --routing minadapt (the
# adaptive VCs of every such dimension, as the routing function reads); --rel
# 0.01 --min-cycles 50000; then both with wait_for_tail_credit=1 (a VC
# reallocated only once its last flit's credit is back: wormlab's --atomic-vc
# on).
meshadapt() {
	"$WORMLAB" sim --topology mesh:8x8 --routing minadapt-booksim --vcs 4 --flits 4 --rate 0.2 --select rotate --switch-input output --emit-config "$tmp/meshadapt.cfg"
	echo "# mean packet latency (cycles) on the 8x8 mesh with min_adapt, both reading the same file (separable_input_first); booksim: sample_period=10000"
	printf '%-7s %5s %10s %10s %16s %12s %12s\n' offered seed booksim wormlab wormlab_minadapt booksim_wtc wormlab_wtc
	for r in ${MESHADAPT_RATES:-0.1 0.2 0.3}; do
		for s in $SEEDS; do
			"$BOOKSIM" "$tmp/meshadapt.cfg" injection_rate="$r" seed="$s" sample_period=10000 > "$tmp/bs.out" 2>&1 || true
			b=$(bs_field "$tmp/bs.out" 'Packet latency average')
			"$WORMLAB" sim --json --config "$tmp/meshadapt.cfg" injection_rate="$r" seed="$s" --rel 0.01 --min-cycles 50000 > "$tmp/wl.json" 2>/dev/null
			w=$(wl_field "$tmp/wl.json" latency)
			"$WORMLAB" sim --json --config "$tmp/meshadapt.cfg" injection_rate="$r" seed="$s" --rel 0.01 --min-cycles 50000 --routing minadapt > "$tmp/wl.json" 2>/dev/null
			wf=$(wl_field "$tmp/wl.json" latency)
			"$BOOKSIM" "$tmp/meshadapt.cfg" injection_rate="$r" seed="$s" sample_period=10000 wait_for_tail_credit=1 > "$tmp/bs.out" 2>&1 || true
			bt=$(bs_field "$tmp/bs.out" 'Packet latency average')
			"$WORMLAB" sim --json --config "$tmp/meshadapt.cfg" injection_rate="$r" seed="$s" wait_for_tail_credit=1 --rel 0.01 --min-cycles 50000 > "$tmp/wl.json" 2>/dev/null
			wt=$(wl_field "$tmp/wl.json" latency)
			printf '%-7s %5s %10s %10s %16s %12s %12s\n' "$r" "$s" "$b" "$w" "$wf" "$bt" "$wt"
			csvrow meshadapt rate,seed,booksim,wormlab,wormlab_minadapt,booksim_wtc,wormlab_wtc "$r,$s,$b,$w,$wf,$bt,$wt"
		done
	done
}

# configcredit: configlat's rows with one cycle more of credit delay in place of
# wormlab's own rules (--credit-delay 3: the torus's channel latency 2, plus the
# cycle BookSim2's credits take beyond it; docs/booksim.md, "Credits"), at RATES;
# with BOOKSIM_ROWS a configlat CSV, BookSim2's columns are read from it.
configcredit() {
	echo "# mean packet latency (cycles) on the 8x8 torus, both reading the same file; wormlab_plus1: --config --credit-delay 3"
	configrows configcredit "$tmp/torus.cfg" "$RATES" wormlab_plus1 --credit-delay 3
}

# configrules: wormlab alone on the latency table's file, per load of RATES and
# seed, its two BookSim2 rules taken away one at a time: as the file reads
# (--select rotate --switch-input output), with --select first, with
# --switch-input vc, with both (wormlab's own rules); --rel 0.01 --min-cycles
# 50000, as configlat.
configrules() {
	echo "# mean packet latency (cycles) on the 8x8 torus, wormlab reading the latency table's file with one or both of BookSim2's rules replaced by its own"
	printf '%-7s %5s %10s %10s %10s %10s\n' offered seed file first vc own
	for r in $RATES; do
		for s in $SEEDS; do
			w=""
			for flags in "" "--select first" "--switch-input vc" "--select first --switch-input vc"; do
				"$WORMLAB" sim --json --config "$tmp/torus.cfg" injection_rate="$r" seed="$s" --rel 0.01 --min-cycles 50000 $flags > "$tmp/wl.json" 2>/dev/null
				w="$w $(wl_field "$tmp/wl.json" latency)"
			done
			set -- $w
			printf '%-7s %5s %10.2f %10.2f %10.2f %10.2f\n' "$r" "$s" "$1" "$2" "$3" "$4"
			csvrow configrules rate,seed,file,first,vc,own "$r,$s,$1,$2,$3,$4"
		done
	done
}

# examples: configurations read by both, latency per seed: BookSim2's own
# src/examples/torus88 and mesh88_lat (with input_speedup=1, which wormlab has,
# and separable_input_first, as in its own comment), and the file wormlab sim
# --emit-config writes for an 8x8 mesh, XY, 2 VCs, --flits 1:4,16:1 at 0.2
# flits/node/cycle; wormlab as --config reads them (BookSim2's rules) and with its
# own (--select first --switch-input vc). BOOKSIM_SRC: BookSim2's checkout
# (default: two folders above BOOKSIM).
examples() {
	src=${BOOKSIM_SRC:-$(dirname "$(dirname "$BOOKSIM")")}/src/examples
	"$WORMLAB" sim --topology mesh:8x8 --routing xy --vcs 2 --flits 1:4,16:1 --rate 0.2 --select rotate --switch-input output --emit-config "$tmp/emitted.cfg"
	echo "# mean packet latency (cycles) per seed, both reading the same file (sample_period=10000)"
	printf '%-10s %5s %10s %10s %10s\n' case seed booksim wormlab wormlab_own
	for c in "torus88|$src/torus88|" "mesh88_lat|$src/mesh88_lat|input_speedup=1 vc_allocator=separable_input_first sw_allocator=separable_input_first" "emitted|$tmp/emitted.cfg|"; do
		name=${c%%|*}; rest=${c#*|}; file=${rest%%|*}; extra=${rest#*|}
		for s in $SEEDS; do
			"$BOOKSIM" "$file" $extra seed="$s" sample_period=10000 > "$tmp/bs.out" 2>&1 || true
			b=$(bs_field "$tmp/bs.out" 'Packet latency average')
			"$WORMLAB" sim --json --config "$file" $extra seed="$s" sample_period=10000 > "$tmp/wl.json" 2>/dev/null
			w=$(wl_field "$tmp/wl.json" latency)
			"$WORMLAB" sim --json --config "$file" $extra seed="$s" sample_period=10000 --select first --switch-input vc > "$tmp/wl.json" 2>/dev/null
			wo=$(wl_field "$tmp/wl.json" latency)
			printf '%-10s %5s %10s %10s %10s\n' "$name" "$s" "$b" "$w" "$wo"
			csvrow examples case,seed,booksim,wormlab,wormlab_own "$name,$s,$b,$w,$wo"
		done
	done
}

# credit: BookSim2's credit loop against --config's. Small buffers at load 0.02,
# where a packet's body waits for credits: the 8x8 mesh with dim_order, 4 VCs,
# 4-flit packets (the meshadapt file's network) with vc_buf_size 1 and 3, and the
# latency table's 8x8 torus (16-flit packets) with vc_buf_size 2 and 4; BookSim2
# sample_period=3000, wormlab 30000 cycles. Then the meshadapt file at 0.3 with
# wait_for_tail_credit = 1 (a VC reallocated at its last credit), BookSim2
# sample_period=10000, wormlab --rel 0.01 --min-cycles 50000. Per case and seed:
# BookSim2, wormlab as --config reads the file (credits back channel latency +
# credit_delay cycles after the slot is freed) and with one cycle more
# (--credit-delay 2 on the mesh, 3 on the torus).
credit() {
	"$WORMLAB" sim --topology mesh:8x8 --routing minadapt-booksim --vcs 4 --flits 4 --rate 0.2 --select rotate --switch-input output --emit-config "$tmp/meshadapt.cfg"
	sed 's/^routing_function = min_adapt;/routing_function = dim_order;/' "$tmp/meshadapt.cfg" > "$tmp/meshdor.cfg"
	echo "# mean packet latency (cycles), both reading the same file; wormlab_plus1: --config with one cycle more of credit delay"
	printf '%-14s %5s %10s %10s %14s\n' case seed booksim wormlab wormlab_plus1
	for c in "mesh-buf1|$tmp/meshdor.cfg|vc_buf_size=1 injection_rate=0.02|2|short" "mesh-buf3|$tmp/meshdor.cfg|vc_buf_size=3 injection_rate=0.02|2|short" \
		"torus-buf2|$tmp/torus.cfg|vc_buf_size=2 injection_rate=0.02|3|short" "torus-buf4|$tmp/torus.cfg|vc_buf_size=4 injection_rate=0.02|3|short" \
		"meshadapt-wtc|$tmp/meshadapt.cfg|wait_for_tail_credit=1 injection_rate=0.3|2|long"; do
		name=${c%%|*} rest=${c#*|}
		file=${rest%%|*} rest=${rest#*|}
		extra=${rest%%|*} rest=${rest#*|}
		cd=${rest%%|*} len=${rest#*|}
		if [ "$len" = short ]; then
			bsrun="sample_period=3000" wlrun="--min-cycles 30000 --max-cycles 30000"
		else
			bsrun="sample_period=10000" wlrun="--rel 0.01 --min-cycles 50000"
		fi
		for s in $SEEDS; do
			"$BOOKSIM" "$file" $extra seed="$s" $bsrun > "$tmp/bs.out" 2>&1 || true
			b=$(bs_field "$tmp/bs.out" 'Packet latency average')
			"$WORMLAB" sim --json --config "$file" $extra seed="$s" $wlrun > "$tmp/wl.json" 2>/dev/null
			w=$(wl_field "$tmp/wl.json" latency)
			"$WORMLAB" sim --json --config "$file" $extra seed="$s" $wlrun --credit-delay "$cd" > "$tmp/wl.json" 2>/dev/null
			wp=$(wl_field "$tmp/wl.json" latency)
			printf '%-14s %5s %10s %10s %14s\n' "$name" "$s" "$b" "$w" "$wp"
			csvrow credit case,seed,booksim,wormlab,wormlab_plus1 "$name,$s,$b,$w,$wp"
		done
	done
}

case $mode in
latency) latency ;;
saturation) saturation ;;
speed) speed ;;
speed-large) speedlarge ;;
threads) threads ;;
memory) memory ;;
minadapt) minadapt ;;
crossbar) crossbar ;;
examples) examples ;;
configlat) configlat ;;
configadapt) configadapt ;;
meshadapt) meshadapt ;;
configrules) configrules ;;
credit) credit ;;
configcredit) configcredit ;;
all) latency; echo; saturation; echo; speed ;;
*) echo "usage: BOOKSIM=path $0 [latency|saturation|speed|speed-large|threads|memory|minadapt|meshadapt|crossbar|examples|configlat|configadapt|configrules|credit|configcredit|all]" >&2; exit 2 ;;
esac
