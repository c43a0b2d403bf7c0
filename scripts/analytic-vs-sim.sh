#!/bin/sh
# Seed 004's model against its tables and wormlab's simulator (docs/analytic-model.md),
# now a Go program: go run ./experiments/analytic [flags] OUTDIR. It writes only into
# OUTDIR; docs/analytic is the committed run, refreshed by naming it as OUTDIR.
# Flags: -scale full|test, -workers N, -only PARTS, -report, -wormlab BIN.
#   sh scripts/analytic-vs-sim.sh OUTDIR [flags]
set -eu
if [ $# -lt 1 ]; then
	echo "usage: sh scripts/analytic-vs-sim.sh OUTDIR [flags]" >&2
	exit 2
fi
out=$1
shift
exec go run ./experiments/analytic "$@" "$out"
