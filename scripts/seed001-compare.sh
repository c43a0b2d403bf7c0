#!/bin/sh
# The seed001 study (docs/seed001.md), now a Go program: go run ./experiments/seed001 [flags] OUTDIR.
# It writes only into OUTDIR (specs/, sweeps/, points.jsonl.gz, summary.md, the
# figures); docs/seed001 is the committed run, refreshed by naming it as OUTDIR.
# Flags: -scale full|test, -workers N, -only PARTS, -report, -wormlab BIN.
#   sh scripts/seed001-compare.sh OUTDIR [flags]
set -eu
if [ $# -lt 1 ]; then
	echo "usage: sh scripts/seed001-compare.sh OUTDIR [flags]" >&2
	exit 2
fi
out=$1
shift
exec go run ./experiments/seed001 "$@" "$out"
