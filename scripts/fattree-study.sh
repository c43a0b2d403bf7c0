#!/bin/sh
# The fattree study (docs/fattree-study.md), now a Go program: go run ./experiments/fattree [flags] OUTDIR.
# It writes only into OUTDIR (specs/, sweeps/, points.jsonl, summary.md, the
# figures); docs/fattree is the committed run, refreshed by naming it as OUTDIR.
# Flags: -scale full|test, -workers N, -only PARTS, -report, -wormlab BIN.
#   sh scripts/fattree-study.sh OUTDIR [flags]
set -eu
if [ $# -lt 1 ]; then
	echo "usage: sh scripts/fattree-study.sh OUTDIR [flags]" >&2
	exit 2
fi
out=$1
shift
exec go run ./experiments/fattree "$@" "$out"
