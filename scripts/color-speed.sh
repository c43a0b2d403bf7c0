#!/bin/sh
# Measures `wormlab color`, the whole command (reading the instance, colouring it,
# writing the schedule), on issue 24's instances: 10^5 and 10^6 paths on a random
# recursive tree and on a mesh (the instances of BenchmarkColorCommand, made with
# wormlab gen). Each binary runs each instance REPS times, the binaries interleaved,
# at nice 19 under /usr/bin/time; the outputs of the binaries must be byte for byte
# the same (the script stops otherwise).
#
#   scripts/color-speed.sh OUT [NAME=WORMLAB ...]
#
# OUT is a folder; the script writes OUT/speed.csv, one row a run: binary, instance,
# paths, user and system CPU seconds, paths per CPU-second, maximum resident size in
# MB (the whole process), elapsed seconds and paths per elapsed second (the
# command reads and computes its lower bound on a second core where it has one:
# the elapsed figures count only on a machine with a core to spare). The binaries are given as NAME=PATH (default: new=, a
# wormlab built from this tree). Environment: REPS (default 2); INSTANCES, a subset
# of "tree1e5 mesh1e5 tree1e6 mesh1e6" (the default). docs/cli.md quotes
# docs/color/speed.csv, made with
#
#   scripts/color-speed.sh docs/color old=/path/to/wormlab-df5649c prev=/path/to/wormlab-e8ed83c new=/path/to/wormlab
set -eu

out=${1:?usage: scripts/color-speed.sh OUT [NAME=WORMLAB ...]}
shift
[ -d "$out" ] || { echo "color-speed: $out is not a folder" >&2; exit 2; }
REPS=${REPS:-2}
INSTANCES=${INSTANCES:-"tree1e5 mesh1e5 tree1e6 mesh1e6"}
[ -x /usr/bin/time ] || { echo "color-speed: needs /usr/bin/time (GNU time)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -eq 0 ]; then
	go build -o "$tmp/wormlab" ./cmd/wormlab
	set -- "new=$tmp/wormlab"
fi
gen=${1#*=}

spec() {
	case $1 in
	tree1e5) echo "tree --size 10000 --messages 100000" ;;
	mesh1e5) echo "mesh:100x100 --messages 100000" ;;
	tree1e6) echo "tree --size 100000 --messages 1000000" ;;
	mesh1e6) echo "mesh:32x32 --messages 1000000" ;;
	*) echo "color-speed: unknown instance $1" >&2; exit 2 ;;
	esac
}

echo "binary,instance,paths,user_s,sys_s,paths_per_cpu_s,max_rss_mb,elapsed_s,paths_per_s" > "$tmp/speed.csv"
for inst in $INSTANCES; do
	# shellcheck disable=SC2046 # the spec is several words on purpose
	"$gen" gen $(spec "$inst") --seed 1 -o "$tmp/$inst.json" 2>/dev/null
done
for rep in $(seq "$REPS"); do
	for inst in $INSTANCES; do
		first=
		for b in "$@"; do
			name=${b%%=*} bin=${b#*=}
			/usr/bin/time -f "%U %S %M %e" -o "$tmp/time" nice -n 19 "$bin" color "$tmp/$inst.json" -o "$tmp/out.json" 2> "$tmp/err"
			paths=$(sed -n 's/^color: \([0-9]*\) messages.*/\1/p' "$tmp/err")
			if [ -z "$first" ]; then
				first=$name
				mv "$tmp/out.json" "$tmp/first.json"
			elif ! cmp -s "$tmp/out.json" "$tmp/first.json"; then
				echo "color-speed: $name and $first write different schedules for $inst" >&2
				exit 1
			fi
			awk -v b="$name" -v i="$inst" -v n="$paths" '{ cpu = $1 + $2;
				printf "%s,%s,%d,%.2f,%.2f,%.0f,%.0f,%.2f,%.0f\n", b, i, n, $1, $2, n / cpu, $3 / 1024, $4, n / $4 }' "$tmp/time" >> "$tmp/speed.csv"
			echo "rep $rep $inst $name: $(tail -1 "$tmp/speed.csv") (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
		done
	done
done
mv "$tmp/speed.csv" "$out/speed.csv"
