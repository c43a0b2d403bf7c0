#!/bin/sh
# Seed 003 (Boppana and Chalasani, "A comparison of adaptive wormhole routing
# algorithms", ISCA 1993) re-run with wormlab: latency and achieved channel
# utilisation against offered channel utilisation on the 16-ary 2-cube for e-cube
# (dor), north-last, positive-hop, negative-hop, NBC and Pn, under uniform, hotspot
# and local traffic, fixed-length messages and geometric inter-arrival times
# (Bernoulli injection each cycle). Writes JSON Lines and SVG plots under $OUT.
#
# Readings (numbers the seed's copy lost; docs/seed003.md says why):
#   message length 20 flits (FLITS), hotspot share 4% to node 0 (HOT), local traffic
#   destinations at grid distance 1..3 (24 nodes, the size of the paper's 5x5
#   submesh; RADIUS), congestion control by --inject-limit (LIMIT packets of a node
#   in the network), each algorithm at its minimum VC count, BUF flits per VC,
#   ideal one-cycle router, selection SELECT.
#   offered channel utilisation rho = offered flits/node/cycle * mean hops / (2n),
#   the pattern's mean hops: 8 for uniform and hotspot, 56/24 for local;
#   latency plots show the points that reached a steady state (steady.jsonl);
#   achieved = the measured mean channel utilisation (util_mean).
#
#   SCALE=reduced (default): loads rho 0.1..0.9 (local 0.09..0.51), 20000 cycles a point
#   U, L override the --rates of uniform/hotspot and local; an entry NAME:SELECT of
#   ALGS runs NAME with that selection as its own series ("nbc:bonus");
#   results go to $OUT/results-PATTERN.jsonl, so a rerun of one pattern
#   (PATTERNS=uniform) replaces only its rows, and results.jsonl joins them all.
#   SCALE=full: rho 0.05..0.9, 100000 cycles a point (hours on one core)
#
#   sh scripts/seed003-compare.sh          # results in docs/seed003/
set -eu
OUT=${OUT:-docs/seed003}
SCALE=${SCALE:-reduced}
FLITS=${FLITS:-20}
HOT=${HOT:-0.04}
RADIUS=${RADIUS:-3}
LIMIT=${LIMIT:-4}
BUF=${BUF:-4}
SELECT=${SELECT:-credits}
TOPO=torus:16x16
ALGS=${ALGS:-"dor northlast poshop neghop nbc pn"}
PATTERNS=${PATTERNS:-"uniform hotspot local"}
WORMLAB=${WORMLAB:-}
if [ -z "$WORMLAB" ]; then
	WORMLAB=$(mktemp -d)/wormlab
	go build -o "$WORMLAB" ./cmd/wormlab
fi
mkdir -p "$OUT"
if [ "$SCALE" = full ]; then
	CYC="--min-cycles 20000 --max-cycles 100000"
	U="0.025:0.45:0.025"
	L="0.1:1:0.1"
else
	CYC="--min-cycles 5000 --max-cycles 20000"
	U=${U:-"0.05:0.45:0.05"}
	L=${L:-"0.15:0.9:0.15"}
fi
RES="$OUT/results.jsonl"
for p in $PATTERNS; do
	PRES="$OUT/results-$p.jsonl"
	: >"$PRES.tmp"
	case $p in
	uniform) R=$U EXTRA="" ;;
	hotspot) R=$U EXTRA="--hot 0 --hot-fraction $HOT" ;;
	local) R=$L EXTRA="--radius $RADIUS" ;;
	esac
	for spec in $ALGS; do
		a=${spec%%:*}
		sel=$SELECT
		label=$a
		if [ "$spec" != "$a" ]; then
			sel=${spec#*:}
			label="$a ($sel)"
		fi
		V=$("$WORMLAB" deadlock --topology $TOPO --routing "$a" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["vcs"])')
		echo "seed003: $p $label vcs=$V rates=$R" >&2
		# shellcheck disable=SC2086
		"$WORMLAB" sim --topology $TOPO --routing "$a" --vcs "$V" --buf "$BUF" \
			--flits "$FLITS" --traffic "$p" $EXTRA --rates "$R" --pipeline ideal \
			--select "$sel" --inject-limit "$LIMIT" $CYC --seed 3 --json |
			python3 -c '
import json, sys
a, p, v = sys.argv[1], sys.argv[2], int(sys.argv[3])
# mean hops of the pattern on the 16x16 torus (uniform and hotspot to node 0: 8,
# counting a node sending to itself as uniform does; local at distance 1..3: 56/24)
dbar = {"uniform": 8.0, "hotspot": 8.0, "local": 56 / 24}[p]
for line in sys.stdin:
    r = json.loads(line)
    r.pop("hop_classes", None)
    r.update(routing=a, pattern=p, vcs=v, offered_util=r["offered"] * dbar / 4,
             achieved_util=r.get("util_mean", 0.0))
    if r.get("latency") is None:  # saturated: no steady latency
        for k in ("latency", "latency_ci", "p50", "p99", "max"):
            r.pop(k, None)
    print(json.dumps(r))
' "$label" "$p" "$V" >>"$PRES.tmp"
	done
	mv "$PRES.tmp" "$PRES"
done
cat "$OUT"/results-*.jsonl >"$RES.tmp"
mv "$RES.tmp" "$RES"
grep '"latency"' "$RES" >"$OUT/steady.jsonl" || :
for p in $PATTERNS; do
	"$WORMLAB" plot "$OUT/steady.jsonl" --where pattern="$p" --x offered_util --y latency --series routing \
		--title "seed 003, $p traffic, 16-ary 2-cube, $FLITS-flit messages" \
		--xlabel "offered channel utilisation" --ylabel "average latency (cycles)" -o "$OUT/$p-latency.svg"
	"$WORMLAB" plot "$RES" --where pattern="$p" --x offered_util --y achieved_util --series routing \
		--title "seed 003, $p traffic, 16-ary 2-cube, $FLITS-flit messages" \
		--xlabel "offered channel utilisation" --ylabel "achieved channel utilisation" -o "$OUT/$p-throughput.svg"
done
echo "seed003: $RES and $OUT/*.svg" >&2
