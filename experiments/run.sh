#!/bin/sh
# Runs every study under experiments/ and draws its figures: each DIR/spec.json is a
# wormlab sweep whose records go to DIR/results.jsonl (a rerun resumes: it runs only
# the points missing, so delete the file to start over), and the plots below read it.
# Usage: experiments/run.sh [DIR...]     (default: every study; WORMLAB=binary to
# use a built wormlab). About a minute on two cores, and up to 14 more for
# solver-frontier (issue 16's solver table, 60 s a point at most).
set -eu
cd "$(dirname "$0")"
wl=${WORMLAB:-}
if [ -z "$wl" ]; then
  wl=$(mktemp -d)/wormlab
  (cd .. && go build -o "$wl" ./cmd/wormlab)
fi
studies=${*:-online-greedy online-phased online-delayed lower-butterfly lower-prime solver-scaling solver-frontier}
ratio=makespan/online.instance_lower_bound
for s in $studies; do
  echo "== $s"
  workers=
  case $s in
  solver-frontier) workers="--workers 1" ;; # wall times of solve, one at a time: up to 14 minutes
  esac
  "$wl" sweep "$s/spec.json" -o "$s/results.jsonl" $workers || echo "($s: some points failed; see status in $s/results.jsonl)"
  r=$s/results.jsonl
  case $s in
  online-greedy)
    for p in butterfly64-heavy mesh12x12-random; do
      "$wl" plot "$r" --where problem=$p --x arb --y $ratio --series algo \
        --title "$p: online makespan / lower bound" --ylabel "makespan / lower bound" -o "$s/$p.svg"
    done ;;
  online-phased)
    "$wl" plot "$r" --x alpha --logx --y $ratio --logy --series problem --legend bottom-right \
      --title "phased algorithm: makespan / lower bound" --ylabel "makespan / lower bound" -o "$s/ratio.svg"
    "$wl" plot "$r" --x alpha --logx --y online.phased.undelivered_after_phase_one --series problem --legend top-right \
      --title "phased algorithm: worms left after phase one" --ylabel "worms left after phase one" -o "$s/phase-one.svg" ;;
  online-delayed)
    for p in butterfly64 mesh12x12; do
      "$wl" plot "$r" --where "setting=$p z=1,$p z=2,$p z=4,$p z=18" --x k --logx --y online.delayed.late --series setting --legend top-right \
        --title "Algorithm A, $p: late worms, T = 2d + Lz" --ylabel "worms late for their phase" -o "$s/late-$p.svg"
    done
    "$wl" plot "$r" --where "setting=butterfly64 z=18,mesh12x12 z=18" --x k --logx --y $ratio --logy --series setting --legend top-right \
      --title "Algorithm A, default T: makespan / lower bound" --ylabel "makespan / lower bound" -o "$s/ratio.svg" ;;
  lower-butterfly)
    "$wl" plot "$r" --x n --logx --y rows.0.Optimum/rows.0.CPlusD --series load \
      --title "butterfly problems: SAT optimum / (c + d)" --xlabel "inputs N" --ylabel "optimum / (c + d)" -o "$s/optimum.svg"
    "$wl" plot "$r" --x n --logx --y rows.0.Best --series load --logy \
      --title "butterfly problems: best lower bound" --xlabel "inputs N" --ylabel "best lower bound" -o "$s/best.svg" ;;
  lower-prime)
    "$wl" plot "$r" --x p --y claims.8.value --series repaired \
      --title "prime construction: proven bound / (c_L d)" --ylabel "bound / (c_L d)" -o "$s/omega-cd.svg"
    "$wl" plot "$r" --x p --y solver.0.makespan --series repaired --logy \
      --title "prime construction: SAT optimum" --ylabel "optimal makespan (wormhole)" -o "$s/optimum.svg" ;;
  solver-scaling)
    for sides in 4x4 6x6; do
      "$wl" plot "$r" --where gen.sides=$sides --where model=wormhole --x gen.messages --logx --y wall_ms --logy --series gen.flits --legend bottom-right \
        --title "solve, mesh $sides: time to a proven optimum" --xlabel messages --ylabel "wall time (ms)" -o "$s/time-$sides.svg"
    done ;;
  solver-frontier)
    # As cmd/wormlab/frontier_long_test.go draws them (WORMLAB_LONG=1 reruns the study).
    for m in wormhole bufferless; do
      "$wl" plot "$r" --where model=$m --x messages --y wall_ms --logy --series gen.flits --legend top-right \
        --title "solve --timeout 60s, $m: wall time" --xlabel worms --ylabel "wall time (ms; 60000: timed out)" -o "$s/time-$m.svg"
    done ;;
  esac
done
