#!/bin/sh
# The fattree study (docs/fattree-study.md): go run ./experiments/fattree [flags] OUTDIR.
# It writes only into OUTDIR (specs/, sweeps/, points.jsonl.gz, cpu-seconds.json,
# summary.md, the figures), which must be given: nothing tracked is written unless
# OUTDIR names it. docs/fattree is the committed run; to refresh it, run into a
# folder outside the repository, copy its points.jsonl.gz, cpu-seconds.json and specs/
# into docs/fattree and run
#   go run ./experiments/fattree -report -doc docs/fattree-study.md docs/fattree
# Flags: -scale full|test, -workers N, -only PARTS, -report, -doc PAGE, -wormlab BIN.
#   sh scripts/fattree-study.sh OUTDIR [flags]
set -eu
if [ $# -lt 1 ]; then
	echo "usage: sh scripts/fattree-study.sh OUTDIR [flags]" >&2
	exit 2
fi
out=$1
shift
exec go run ./experiments/fattree "$@" "$out"
