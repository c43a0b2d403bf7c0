#!/bin/sh
# Seed 001 (Draper and Petrini, "Routing in bidirectional k-ary n-cubes with the Red
# Rover algorithm", PDPTA 1997) re-run with wormlab: Red Rover (redrover) against
# Dally and Seitz's spiral (dor) and the two-class Duato variant (duato-dp) on the
# 16-ary 2-cube, 8- and 64-flit packets, exponential inter-arrival times (Poisson
# injection), on the permutation and uniform patterns. Each point: offered load in
# flits/node/cycle, accepted load and latency. Writes JSON Lines, SVG plots and a
# table of saturation throughputs (the most accepted over the sweep) with Red
# Rover's gain over each other algorithm.
#
# Readings (docs/seed001.md): 2 VCs per channel for every algorithm (one per class),
# BUF flits per VC, ideal one-cycle router (the paper's router-delay scaling is not
# modelled), traffic patterns uniform, transpose, bitrev, shuffle, bitcomp (the
# seed's copy lost its list).
#
#   SCALE=reduced (default): rates 0.05..0.5 step 0.05, 3000..8000 cycles a point
#   SCALE=full: rates 0.05..0.6 step 0.05, 20000..100000 cycles a point
set -eu
OUT=${OUT:-docs/seed001}
SCALE=${SCALE:-reduced}
BUF=${BUF:-4}
TOPO=torus:16x16
ALGS=${ALGS:-"redrover dor duato-dp"}
PATTERNS=${PATTERNS:-"uniform transpose bitrev shuffle bitcomp"}
SIZES=${SIZES:-"8 64"}
WORMLAB=${WORMLAB:-}
if [ -z "$WORMLAB" ]; then
	WORMLAB=$(mktemp -d)/wormlab
	go build -o "$WORMLAB" ./cmd/wormlab
fi
mkdir -p "$OUT"
if [ "$SCALE" = full ]; then
	CYC="--min-cycles 20000 --max-cycles 100000"
	R="0.05:0.6:0.05"
else
	CYC="--min-cycles 3000 --max-cycles 8000"
	R="0.05:0.5:0.05"
fi
RES="$OUT/results.jsonl"
: >"$RES.tmp"
for f in $SIZES; do
	for p in $PATTERNS; do
		for a in $ALGS; do
			echo "seed001: $f-flit $p $a" >&2
			# shellcheck disable=SC2086
			"$WORMLAB" sim --topology $TOPO --routing "$a" --vcs 2 --buf "$BUF" \
				--flits "$f" --traffic "$p" --process poisson --rates "$R" \
				--pipeline ideal $CYC --seed 1 --json |
				python3 -c '
import json, sys
a, p, f = sys.argv[1], sys.argv[2], int(sys.argv[3])
for line in sys.stdin:
    r = json.loads(line)
    r.pop("hop_classes", None)
    r.update(routing=a, pattern=p, flits=f, series="%s %d-flit" % (a, f))
    if r.get("latency") is None:
        for k in ("latency", "latency_ci", "p50", "p99", "max"):
            r.pop(k, None)
    print(json.dumps(r))
' "$a" "$p" "$f" >>"$RES.tmp"
		done
	done
done
mv "$RES.tmp" "$RES"
grep '"latency"' "$RES" >"$OUT/steady.jsonl" || :
for f in $SIZES; do
	for p in $PATTERNS; do
		"$WORMLAB" plot "$RES" --where pattern="$p" --where flits="$f" --x offered --y accepted \
			--series routing --title "seed 001, $p, $f-flit packets, 16-ary 2-cube" \
			--xlabel "offered load (flits/node/cycle)" --ylabel "accepted load (flits/node/cycle)" \
			-o "$OUT/$p-$f-throughput.svg"
		"$WORMLAB" plot "$OUT/steady.jsonl" --where pattern="$p" --where flits="$f" --x offered \
			--y latency --series routing --title "seed 001, $p, $f-flit packets, 16-ary 2-cube" \
			--xlabel "offered load (flits/node/cycle)" --ylabel "latency (cycles)" \
			-o "$OUT/$p-$f-latency.svg" || echo "seed001: no steady points for $p $f" >&2
	done
done
python3 - "$RES" >"$OUT/saturation.txt" <<'PY'
import json, sys
best = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    k = (r["flits"], r["pattern"], r["routing"])
    best[k] = max(best.get(k, 0.0), r["accepted"])
print("flits pattern    redrover   dor      duato-dp  gain/dor  gain/duato-dp")
for (f, p) in sorted({(k[0], k[1]) for k in best}):
    rr, d, dd = (best.get((f, p, a), float("nan")) for a in ("redrover", "dor", "duato-dp"))
    print("%5d %-10s %.4f     %.4f   %.4f    %+6.1f%%   %+6.1f%%" % (f, p, rr, d, dd, 100 * (rr / d - 1), 100 * (rr / dd - 1)))
PY
cat "$OUT/saturation.txt" >&2
