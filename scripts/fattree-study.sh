#!/bin/sh
# Reruns wormlab's fat-tree study (issue 13; Greenberg and Oh, seed 000, section B):
# every point is `wormlab fattree --json` (RUNS runs, 99% intervals), written as
# JSON objects to $OUT/*.jsonl, then Figures 2-5 as SVG (wormlab plot) and Tables I
# and II as Markdown ($OUT/tables.md). Two jobs at a time (JOBS). Not run by go test.
#   OUT=docs/fattree RUNS=10 JOBS=2 scripts/fattree-study.sh
set -eu
OUT=${OUT:-docs/fattree}
RUNS=${RUNS:-10}
JOBS=${JOBS:-2}
SIZES=${SIZES:-"16 64 256 1024 4096"}
WL=${WL:-$(mktemp -d)/wormlab}
go build -o "$WL" ./cmd/wormlab
mkdir -p "$OUT/points"
rm -f "$OUT/points/"*.json

# one line per point: file-name|flags
points() {
	for n in $SIZES; do
		for p in random complement many-to-1; do
			echo "t1-store-$p-$n|--n $n --algo store --path rp --scan rr --pattern $p"
			echo "t1-worm-$p-$n|--n $n --algo worm --path rp --scan rr --pattern $p"
		done
		echo "f2-univ-$n|--n $n --algo univ --path rp --scan rr"
		for a in store worm; do
			for s in fp gp; do echo "f3-$a-$s-$n|--n $n --algo $a --path $s --scan rr"; done
			for s in fo ff; do echo "f4-$a-$s-$n|--n $n --algo $a --path rp --scan $s"; done
			echo "f4-$a-gpfo-$n|--n $n --algo $a --path gp --scan fo"
		done
		echo "f5-split-rpfo-$n|--n $n --algo split --path rp --scan fo"
		echo "f5-split-gpff-$n|--n $n --algo split --path gp --scan ff"
		echo "f5-split-rprr-$n|--n $n --algo split --path rp --scan rr"
		echo "f5-split1-rprr-$n|--n $n --algo split --path rp --scan rr --overhead 1"
		echo "fp-worm-$n|--n $n --algo worm --path fp --scan rr --bounds"
	done
	for n in 256 1024; do
		echo "delay-store-$n|--n $n --algo store --path rp --scan rr --delay 8"
		echo "delay-worm-$n|--n $n --algo worm --path rp --scan rr --delay 2"
	done
	for l in 4 8 16 32 64; do
		echo "len-worm-$l|--n 256 --algo worm --path rp --scan rr --flits $l"
		echo "len-store-$l|--n 256 --algo store --path rp --scan rr --flits $l"
	done
	echo "opt-16|--n 16 --algo worm --path fp --scan rr --bounds --optimal 60s"
	echo "opt-64|--n 64 --algo worm --path fp --scan rr --bounds --optimal 60s --runs 3"
}
points | xargs -P "$JOBS" -I{} sh -c '
	name=${1%%|*}; flags=${1#*|}
	"$2" fattree --runs "$3" --json $flags -o "$4/points/$name.json"' _ {} "$WL" "$RUNS" "$OUT"

cat "$OUT/points/"*.json > "$OUT/results.jsonl"
for f in t1 f2 f3 f4 f5 fp delay len opt; do
	cat "$OUT/points/$f"-*.json > "$OUT/$f.jsonl"
done
cat "$OUT/t1.jsonl" "$OUT/f2.jsonl" > "$OUT/fig2.jsonl"
plot() { "$WL" plot --series label --logx --x n --y max_latency --xlabel N --ylabel "max latency (flit-steps)" "$@"; }
plot --where pattern=random --where label=STORE-RP-RR,UNIV-RP-RR --err max_latency_ci \
	--title "Figure 2: STORE vs UNIV (RP, RR), random" -o "$OUT/fig2.svg" "$OUT/fig2.jsonl"
cat "$OUT/t1.jsonl" "$OUT/f3.jsonl" > "$OUT/fig3.jsonl"
plot --where pattern=random --title "Figure 3: FP, RP, GP (RR scan), random" -o "$OUT/fig3.svg" "$OUT/fig3.jsonl"
cat "$OUT/t1.jsonl" "$OUT/f4.jsonl" > "$OUT/fig4.jsonl"
plot --where pattern=random --title "Figure 4: FO, RR, FF (RP), random" -o "$OUT/fig4.svg" "$OUT/fig4.jsonl"
cat "$OUT/t1.jsonl" "$OUT/f5.jsonl" > "$OUT/fig5.jsonl"
plot --where pattern=random --where label=WORM-RP-RR,SPLIT-RP-FO,SPLIT-GP-FF,SPLIT-RP-RR,SPLIT-RP-RR+1 \
	--title "Figure 5: WORM vs SPLIT (+1: one addressing flit per flit), random" -o "$OUT/fig5.svg" "$OUT/fig5.jsonl"
"$WL" plot --series label --x flits --y max_latency --title "Latency against L (N = 256, RP, RR)" \
	-o "$OUT/length.svg" "$OUT/len.jsonl"
"$WL" fattree --tables "$OUT/results.jsonl" -o "$OUT/tables.md"
echo "wrote $OUT"
