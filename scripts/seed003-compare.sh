#!/bin/sh
# The seed003 study (docs/seed003.md), now a Go program: go run ./experiments/seed003 [flags] OUTDIR.
# It writes only into OUTDIR (specs/, sweeps/, points.jsonl.gz, summary.md, the
# figures); docs/seed003 is the committed run, refreshed by naming it as OUTDIR.
# Flags: -scale full|reduced|test, -workers N, -only PARTS, -report, -wormlab BIN.
#   sh scripts/seed003-compare.sh OUTDIR [flags]
set -eu
if [ $# -lt 1 ]; then
	echo "usage: sh scripts/seed003-compare.sh OUTDIR [flags]" >&2
	exit 2
fi
out=$1
shift
exec go run ./experiments/seed003 "$@" "$out"
