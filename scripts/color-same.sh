#!/bin/sh
# Checks that two wormlab binaries write the same schedules, byte for byte, and the
# same summary lines with `wormlab color`: the check that a change to the colorers'
# speed leaves their answers alone (issue 24). The instances are made with the
# first binary's `wormlab gen`: a random recursive tree, 2D and 3D meshes with the
# three routings, a torus, a butterfly, a k-ary tree, a levelled network and a
# line, messages of 1 to 4 flits, seeds 1 to 3; each is coloured plainly, with
# --improve and with --order any (270 runs a binary), plus a 10^5-path tree and
# mesh coloured plainly. Exit 1 at the first difference, naming it.
#
#   scripts/color-same.sh OLD_WORMLAB NEW_WORMLAB
#
# A few minutes of CPU; run it under nice.
set -eu

old=${1:?usage: scripts/color-same.sh OLD_WORMLAB NEW_WORMLAB}
new=${2:?usage: scripts/color-same.sh OLD_WORMLAB NEW_WORMLAB}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0
same() { # same NAME [COLOR FLAGS...]: colour $tmp/NAME.json with both binaries
	name=$1
	shift
	for b in old new; do
		eval bin=\$$b
		code=0
		"$bin" color "$tmp/$name.json" -o "$tmp/$b.out" "$@" 2> "$tmp/$b.err" || code=$?
		echo "exit $code" >> "$tmp/$b.err"
	done
	if ! cmp -s "$tmp/old.out" "$tmp/new.out" || ! cmp -s "$tmp/old.err" "$tmp/new.err"; then
		echo "color-same: $name $*: the binaries differ" >&2
		diff "$tmp/old.err" "$tmp/new.err" >&2 || true
		exit 1
	fi
	n=$((n + 1))
}

for seed in 1 2 3; do
	for flits in 1 2 4; do
		for spec in "tree --size 60 --messages 300" "mesh:8x8 --messages 300" \
			"mesh:8x8 --routing one-bend --messages 300" \
			"mesh:6x6 --routing random-shortest --messages 200" \
			"mesh:4x4x4 --messages 300" "torus:6x6 --messages 200" \
			"butterfly:16 --messages 100" "kary-tree:2x4 --messages 200" \
			"levelled:4x5 --messages 100" "line --size 20 --messages 60"; do
			name=$(echo "$spec-$seed-$flits" | tr -c 'a-z0-9-' '_')
			# shellcheck disable=SC2086 # the spec is several words on purpose
			"$old" gen $spec --flits "$flits" --seed "$seed" -o "$tmp/$name.json" 2>/dev/null
			same "$name"
			same "$name" --improve
			same "$name" --order any
		done
	done
done
"$old" gen tree --size 10000 --messages 100000 --seed 4 -o "$tmp/tree1e5.json" 2>/dev/null
same tree1e5
"$old" gen mesh:32x32 --messages 100000 --flits 3 --seed 4 -o "$tmp/mesh1e5.json" 2>/dev/null
same mesh1e5
echo "color-same: $n cases, the same schedules and summaries" >&2
