#!/bin/sh
# Runs every study under experiments/ and draws its figures: each DIR/spec.json is a
# wormlab sweep whose records go to DIR/results.jsonl (a rerun resumes: it runs only
# the points missing, so delete the file to start over), and the figures figures.tsv
# lists for it are drawn from it.
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
tab=$(printf '\t')
studies=${*:-online-greedy online-phased online-delayed lower-butterfly lower-prime solver-scaling solver-frontier}
for s in $studies; do
  echo "== $s"
  workers=
  case $s in
  solver-frontier) workers="--workers 1" ;; # wall times of solve, one at a time: up to 14 minutes
  esac
  "$wl" sweep "$s/spec.json" -o "$s/results.jsonl" $workers || echo "($s: some points failed; see status in $s/results.jsonl)"
  # the study's figures, as figures.tsv lists them (tab-separated arguments)
  grep "^$s$tab" figures.tsv | while IFS= read -r line; do
    (
      IFS=$tab
      set -f
      set -- $line
      study=$1 file=$2
      shift 2
      "$wl" plot "$study/results.jsonl" "$@" -o "$study/$file"
    )
  done
done
