#!/bin/sh
# Runs an already-built BookSim2 and wormlab side by side on issue 11's configuration
# (8x8 torus, dimension order with datelines, 4 VCs of 8 flits, 16-flit packets,
# uniform Bernoulli traffic, BookSim's iq router defaults = wormlab's --pipeline
# booksim) and prints tables. It neither fetches nor builds BookSim: see
# docs/booksim.md for that.
#
#   BOOKSIM=/path/to/booksim scripts/booksim-compare.sh [latency|saturation|speed|all]
#
# Environment: BOOKSIM (required) the booksim binary; WORMLAB the wormlab binary
# (default: built from this tree into a temporary directory); RATES the offered
# loads of the latency table (default "0.05 0.1 0.2 0.3 0.35 0.38 0.4");
# SEEDS (default "1 2 3"); ROUTING wormlab's routing (default dor-booksim, the
# classes BookSim's dim_order_torus uses; dor is Dally-Seitz's); SPEED_CYCLES the
# cycles of a speed run (default 60000).
set -eu

mode=${1:-all}
: "${BOOKSIM:?set BOOKSIM to the path of a built booksim binary (docs/booksim.md)}"
[ -x "$BOOKSIM" ] || { echo "booksim-compare: $BOOKSIM is not an executable" >&2; exit 2; }
RATES=${RATES:-"0.05 0.1 0.2 0.3 0.35 0.38 0.4"}
SEEDS=${SEEDS:-"1 2 3"}
ROUTING=${ROUTING:-dor-booksim}
SPEED_CYCLES=${SPEED_CYCLES:-60000}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${WORMLAB:-}" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	(cd "$here" && go build -o "$tmp/wormlab" ./cmd/wormlab)
	WORMLAB=$tmp/wormlab
fi

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

speed() {
	echo "# simulated cycles per CPU-second, runs interleaved; booksim: 3 warm-up + 3 measured periods of $((SPEED_CYCLES / 6)) cycles (stopping thresholds off) plus its drain"
	printf '%-12s %5s %9s %12s %12s %7s\n' network rate cycles booksim_c/s wormlab_c/s ratio
	for spec in "8 0.1" "8 0.4" "16 0.1"; do
		set -- $spec
		k=$1 r=$2
		bt=$(cpu "$BOOKSIM" "$tmp/torus.cfg" k="$k" injection_rate="$r" warmup_periods=3 sample_period=$((SPEED_CYCLES / 6)) max_samples=6 stopping_thres=-1.0 acc_stopping_thres=-1.0 latency_thres=-1.0 seed=1)
		bc=$(grep 'Time taken' "$tmp/run.out" | awk '{print $4}')
		wt=$(cpu "$WORMLAB" sim --json --topology "torus:${k}x${k}" --routing "$ROUTING" --rate "$r" --seed 1 --min-cycles "$SPEED_CYCLES" --max-cycles "$SPEED_CYCLES")
		wc=$(wl_field "$tmp/run.out" cycles)
		awk -v n="torus:${k}x${k}" -v r="$r" -v bc="$bc" -v bt="$bt" -v wc="$wc" -v wt="$wt" 'BEGIN {
			b = bc / (bt > 0 ? bt : 0.01); w = wc / (wt > 0 ? wt : 0.01)
			printf "%-12s %5s %9d %12.0f %12.0f %6.1fx\n", n, r, wc, b, w, w / b }'
	done
}

case $mode in
latency) latency ;;
saturation) saturation ;;
speed) speed ;;
all) latency; echo; saturation; echo; speed ;;
*) echo "usage: BOOKSIM=path $0 [latency|saturation|speed|all]" >&2; exit 2 ;;
esac
