#!/bin/sh
# Fingerprints of `wormlab sim` outputs: one line "md5 name" per run of a broad, fixed
# set (routings, pipelines, arbitrations, selections, VC counts and buffers, tori,
# meshes, fat-trees, traffic patterns, processes, size mixes, injection limits, rate
# sweeps, closed batches and the theory model), each a few hundred milliseconds. A
# change to the simulator that must keep outputs identical is checked by running
# this before and after and comparing (`diff`); the per-run outputs are kept in OUT
# for a closer look.
#
#   WORMLAB=/path/to/wormlab OUT=/tmp/outs scripts/sim-outputs.sh > md5.txt
#
# WORMLAB defaults to a build of this tree; OUT (required) is a folder for the
# outputs (created; files in it are overwritten).
set -eu
: "${OUT:?set OUT to a folder for the outputs}"
mkdir -p "$OUT"
if [ -z "${WORMLAB:-}" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	WORMLAB=$(mktemp -d)/wormlab
	(cd "$here" && go build -o "$WORMLAB" ./cmd/wormlab)
fi
inst=$(cd "$(dirname "$0")/../instances" && pwd)

# run NAME ARGS...: wormlab sim ARGS, its output (and exit status) into OUT/NAME.
run() {
	name=$1
	shift
	st=0
	"$WORMLAB" sim "$@" > "$OUT/$name" 2>&1 || st=$?
	echo "exit $st" >> "$OUT/$name"
	printf '%s %s\n' "$(md5sum < "$OUT/$name" | cut -c1-32)" "$name"
}

S="--json --channels --min-cycles 4000 --max-cycles 12000"
# routings on the 8x8 torus (booksim pipeline)
for r in dor dor-booksim duato duato-dp minadapt valiant redrover pn nbc poshop neghop; do
	run "torus8-$r" $S --routing "$r" --rate 0.2 --vcs 8
done
for r in dor westfirst northlast minadapt duato; do
	run "mesh8-$r" $S --topology mesh:8x8 --routing "$r" --rate 0.2 --vcs 4
done
run fattree64-updown $S --topology fattree:64 --routing updown --rate 0.2
run fattree64-updown-fixed $S --topology fattree:64 --routing updown-fixed --rate 0.2
# loads, near and past saturation
for r in 0.05 0.3 0.45 0.6 1; do
	run "torus8-bs-$r" $S --routing dor-booksim --rate "$r"
done
run torus8-sweep --min-cycles 4000 --max-cycles 8000 --routing dor-booksim --rates 0.1:0.5:0.1 --csv
run torus8-text --min-cycles 4000 --max-cycles 8000 --routing dor --rate 0.3
# arbitrations and selections
for a in fixed random round-robin; do
	for s in first random credits; do
		run "torus8-$a-$s" $S --routing duato --rate 0.3 --arb "$a" --select "$s"
	done
done
run torus8-nbc-bonus $S --routing nbc --rate 0.2 --select bonus --vcs 8
# VC counts and buffers (powers of two and not)
for v in 2 3 5 6 16; do
	run "torus8-vcs$v" $S --routing dor --rate 0.3 --vcs "$v" --buf 4
done
run torus8-buf1 $S --routing dor --rate 0.1 --buf 1
run torus8-buf2-ideal $S --routing dor --rate 0.2 --buf 2 --pipeline ideal
# buffers longer than a cache line (the simulator pads such rings to whole lines and
# keeps a VC's few flits in its ring's first line)
run torus8-buf16 $S --routing dor-booksim --rate 0.3 --buf 16 --flits 20
run torus8-buf32-mix $S --routing duato --rate 0.4 --buf 32 --flits 1:0.5,40:0.5
run mesh8-buf13 $S --topology mesh:8x8 --routing westfirst --vcs 2 --rate 0.3 --buf 13 --flits 3,30
run dragonfly-buf256 $S --topology dragonfly:p=2 --routing df-min --vcs 2 --buf 256 --rate 0.3
# the dragonfly's other routings, its palm-tree arrangement and its worst-case
# traffic (concentration: several terminals a router)
for r in df-valiant df-ugal-l df-ugal-g df-par; do
	run "dragonfly-$r" $S --topology dragonfly:p=2 --routing "$r" --vcs 4 --buf 32 --rate 0.2
done
run dragonfly-palmtree $S --topology dragonfly:p=2,arrangement=palmtree --routing df-min --vcs 2 --buf 32 --rate 0.3
run dragonfly-p4-group $S --topology dragonfly:a=4,p=4,h=2 --routing df-ugal-l --vcs 3 --buf 64 --traffic worstcase --rate 0.2
# pipelines
run torus8-ideal $S --routing dor --rate 0.3 --pipeline ideal
run torus8-ideal-minadapt $S --routing minadapt --rate 0.3 --pipeline ideal
run torus8-zero $S --routing dor --rate 0.3 --pipeline ideal --inject-delay 0 --eject-delay 0
run torus8-slow $S --routing dor --rate 0.2 --route-delay 2 --vc-delay 2 --sw-delay 2 --st-delay 2 --link-delay 3 --credit-delay 4
run torus8-zerostages $S --routing duato --rate 0.3 --route-delay 0 --vc-delay 0 --sw-delay 0 --st-delay 0
# sizes, processes, patterns, limits
run torus8-mix $S --routing dor-booksim --rate 0.3 --flits 1:0.8,16:0.2
run torus8-mix2 $S --routing dor --rate 0.2 --flits 1,4,20
run torus8-poisson $S --routing dor --msg-rate 0.01 --process poisson
for p in bitcomp bitrev neighbor randperm shuffle tornado transpose; do
	run "torus8-$p" $S --routing dor --rate 0.2 --traffic "$p"
done
run torus16-hotspot $S --topology torus:16x16 --routing pn --vcs 6 --rate 0.1 --traffic hotspot --hot 0,17 --hot-fraction 0.04 --flits 20 --buf 4 --select credits --inject-limit 4
run torus16-local $S --topology torus:16x16 --routing nbc --vcs 9 --rate 0.3 --traffic local --radius 3 --flits 20 --buf 4 --select credits --inject-limit 4
run torus16-dor $S --topology torus:16x16 --routing dor-booksim --rate 0.2
run torus4x8x2 $S --topology torus:4x8x2 --routing dor --rate 0.2
run mesh4x4-atomic $S --topology mesh:4x4 --routing duato --rate 0.3 --atomic-vc on
run torus8-atomic-off $S --routing duato --rate 0.3 --atomic-vc off
run torus32-short --json --topology torus:32x32 --routing dor-booksim --rate 0.05 --min-cycles 6000 --max-cycles 6000
run torus8-deadlock $S --routing dor --vcs 1 --unsafe --rate 0.5
# closed batches and the theory model
run batch-mesh4 --batch "$inst/mesh4x4-transpose.json" --json
run batch-mesh4-ideal --batch "$inst/mesh4x4-transpose.json" --json --pipeline ideal --vcs 1 --buf 1
for f in mesh4x4-transpose butterfly8-heavy fat-tree16-complement example mesh6x6-hotspot; do
	run "theory-$f" --batch "$inst/$f.json" --theory --json
	run "theory-rot-$f" --batch "$inst/$f.json" --theory --rotate --json
done
run theory-ring4 --batch "$inst/ring4-deadlock.json" --theory --json
run theory-rot-ring4 --batch "$inst/ring4-deadlock.json" --theory --rotate --json
for a in random round-robin; do
	run "theory-$a-butterfly" --batch "$inst/butterfly8-heavy.json" --theory --arb "$a" --seed 3 --json
done
