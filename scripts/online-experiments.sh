#!/bin/sh
# Runs the gated experiments of package online (probabilistic claims of seed 002's
# Theorem 1 and seed 000's Algorithm A, greedy and store against the lower bound)
# and the engine benchmarks, printing their figures. Usage:
#   scripts/online-experiments.sh [RUNS]     (default 200 seeds per configuration)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-200}
WORMLAB_LONG=1 WORMLAB_LONG_RUNS=$runs go test ./online -run Experiment -v -timeout 60m |
	sed -n 's/^ *experiment_test.go:[0-9]*: //p'
go test ./engine -run '^$' -bench . -benchtime=2x -timeout 60m
