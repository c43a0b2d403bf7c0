#!/usr/bin/env bash
# Reproduces the figures of the lower-bound study (package lower): the claims of
# seed 002 section 5 on the paper's and the repaired prime construction with SAT
# optima, the section 3 butterfly table, and adversarial searches. Deterministic
# (iteration limits; the solver only where it proves optimality quickly).
# Usage: scripts/lower-experiments.sh [OUTDIR]   (default /tmp/wormlab-lower)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/wormlab-lower}
mkdir -p "$out"
go build -o "$out/wormlab" ./cmd/wormlab || exit 2
w="$out/wormlab"
run() { echo "\$ wormlab $*"; "$w" "$@"; echo "(exit $?)"; echo; }

for p in 2 3 5; do run lower prime --p "$p" --solve 60s -o "$out/prime-p$p.json"; done
for p in 2 3; do run lower prime --p "$p" --repaired --solve 60s -o "$out/prime-p$p-repaired.json"; done
run lower prime --p 7 --repaired

run lower butterfly --n 8,16,32,64 --load light --solve 20s
run lower butterfly --n 8,16,32,64 --load heavy --solve 20s
run lower butterfly --n 8,16,32 --load heavy --flits 8 --solve 20s
if [ -n "${WORMLAB_LONG:-}" ]; then
  run lower butterfly --n 128,256,512 --load light
  run lower butterfly --n 128 --load heavy
fi

for net in line:6 mesh:3x3 kary-tree:2x3 torus:3x3 butterfly:8; do
  for seed in 1 2; do
    run adversary --network "$net" --messages 5 --flits 3 --objective opt/lower --iters 300 --budget 5m --seed "$seed" -o "$out/opt-lower-$net-$seed.json"
    run adversary --network "$net" --messages 5 --flits 3 --objective opt/cd --iters 300 --budget 5m --seed "$seed" -o "$out/opt-cd-$net-$seed.json"
  done
done
for net in mesh:3x3 kary-tree:2x3 butterfly:8; do
  run adversary --network "$net" --messages 6 --objective colorer/opt --iters 200 --budget 5m --seed 1 -o "$out/colorer-opt-$net.json"
  run adversary --network "$net" --messages 6 --objective greedy/opt --iters 200 --budget 5m --seed 1 -o "$out/greedy-opt-$net.json"
done
for net in mesh:6x6 butterfly:32 kary-tree:2x5; do
  run adversary --network "$net" --messages 30 --objective colorer/bound --flits 4 --iters 300 --budget 5m --seed 1 -o "$out/colorer-bound-$net.json"
  run adversary --network "$net" --messages 30 --objective greedy/bound --flits 4 --iters 300 --budget 5m --seed 1 -o "$out/greedy-bound-$net.json"
done
