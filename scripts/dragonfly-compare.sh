#!/bin/sh
# Runs an already-built BookSim2 and wormlab side by side on the networks of issue 25
# and writes one line per run to OUTDIR/booksim.tsv and OUTDIR/wormlab.tsv (docs/
# dragonfly.md reads them; it neither fetches nor builds BookSim: see docs/booksim.md).
#
#   BOOKSIM=/path/to/booksim scripts/dragonfly-compare.sh OUTDIR [CASE ...]
#
# Cases (default: agree-df agree-ff study):
#   agree-df   BookSim's dragonflynew with k = 2 (p = 2, a = 4, h = 2, g = 9: 72
#              terminals), minimal routing on 2 VCs, uniform traffic, rates RATES_DF
#              and saturation (offered 1.0), seeds SEEDS
#   agree-ff   BookSim's flatfly k = 4, n = 2, c = 4 (4x4 routers, 64 terminals,
#              channel latency 1), ran_min on 4 VCs of 8 flits, uniform, RATES_FF
#              and saturation, seeds SEEDS
#   agree-cmesh  BookSim's cmesh k = 4, n = 2, c = 4 (4x4 routers, 64 terminals,
#              channel latency 1), dor_no_express on 4 VCs of 8 flits, 4-flit
#              packets: wormlab's cmesh:4x4,c=4 with dor (every VC at every hop, as
#              BookSim's), uniform, RATES_CM and saturation, seeds SEEDS
#   agree-anynet  BookSim's anynet on experiments/dragonfly/tree32.anynet (a tree
#              of 13 routers, 32 terminals: TREE overrides it), min (its one
#              shortest route a destination, every VC) on 4 VCs of 8 flits:
#              wormlab's any-updown on the same file (on a tree the one shortest
#              route, every VC), uniform, RATES_ANY and saturation, seeds SEEDS
#              (agree-ff, agree-cmesh and agree-anynet run wormlab once for each
#              VC selection of SELECTS: first, wormlab's default, and rotate,
#              BookSim's separable VC allocator's rule; and with each, for each
#              switch allocator input stage of SWINS: vc, wormlab's default, and
#              output, BookSim's separable switch allocator's; docs/dragonfly.md)
#   agree-df-cut  BookSim alone: agree-df's throughput runs (offered 1.0, seeds
#              SEEDS) ended at the start of their drain as BS_CUT ends them, to
#              check the cut against agree-df's full runs
#   ugal-groupmid  BookSim alone: its ugal on the study's network under bad_dragon
#              at offered 1.0 (cut at the drain), seeds BS_STUDY_SEEDS, with
#              BS_GROUPMID=1 in its environment: for a BookSim2 whose
#              ugal_dragonflynew ends the non-minimal phase on entering the
#              intermediate group when BS_GROUPMID is set (docs/dragonfly.md says
#              the change; BOOKSIM names that binary)
#   study      the 1,056-terminal dragonfly (k = 4: p = 4, a = 8, h = 4, g = 33):
#              wormlab's routings under uniform and worst-case traffic at
#              RATES_UR / RATES_WC, BookSim's min (2 VCs) and ugal (3 VCs) under
#              uniform and bad_dragon at RATES_UR_BS / RATES_WC_BS (a BookSim run
#              here takes minutes of CPU); wormlab at seeds STUDY_SEEDS, BookSim
#              at BS_STUDY_SEEDS; wormlab runs at most 60,000 cycles a point
#   study-x2   the study's wormlab runs with two VCs a class (twice the VCs), at
#              RATES_X2 under both patterns
#   csv        OUTDIR/results.csv: the lines of both TSVs under a CSV header, with
#              a column series = sim:routing
#   plots      OUTDIR/latency-*.svg and accepted-*.svg of the study from
#              OUTDIR/results.csv (the patterns with runs)
#
# Every dragonfly run: local channels 10 cycles, global 100 (BookSim's DRAGON_LATENCY,
# wormlab's dragonfly defaults), 256-flit VC buffers, 4-flit packets, Bernoulli
# injection in flits/node/cycle, BookSim's iq router delays (wormlab --pipeline
# booksim), separable input-first allocators on BookSim's side (wormlab's kind).
#
# BS_CUT set: a BookSim2 throughput run (offered 1.0) is ended, by its process id,
# when it starts to drain (cut, below): its accepted rate is already fixed then, and
# the drain of the source queues can take hours (worst-case traffic).
#
# Environment: BOOKSIM (required unless only wormlab runs: SIDES=wormlab), WORMLAB
# (default: built from this tree), SIDES ("booksim wormlab"), SEEDS ("1 2 3"),
# STUDY_SEEDS ("1 2 3"), BS_STUDY_SEEDS ("1"),
# RATES_DF, RATES_FF, RATES_CM, RATES_ANY, RATES_UR, RATES_WC, RATES_UR_BS,
# RATES_WC_BS, RATES_X2, BS_CUT, TREE, SELECTS ("first rotate"), SWINS ("vc"),
# WL_ROUTINGS (the study's wormlab
# routings, default "df-min df-valiant df-ugal-l df-ugal-g df-par": 2 VCs for
# df-min, 4 for df-par, 3 for the others; a RATES_ variable set empty runs no
# rate of its kind). Runs are nice -n 19
# and one at a time. Columns: sim case routing traffic vcs rate seed latency
# latency_ci accepted status (ok, saturated, unstable), cpu_seconds, select
# (wormlab's --select; "-" for BookSim), switch_input (wormlab's --switch-input;
# "-" for BookSim).
set -eu

out=${1:?usage: dragonfly-compare.sh OUTDIR [agree-df agree-df-cut agree-ff agree-cmesh agree-anynet ugal-groupmid study study-x2 csv plots]}
shift
cases=${*:-"agree-df agree-ff study"}
SIDES=${SIDES:-"booksim wormlab"}
SEEDS=${SEEDS:-"1 2 3"}
STUDY_SEEDS=${STUDY_SEEDS:-"1 2 3"}
BS_STUDY_SEEDS=${BS_STUDY_SEEDS:-"1"}
RATES_DF=${RATES_DF-"0.1 0.2 0.3 0.4 0.5 0.6 0.7"}
RATES_FF=${RATES_FF-"0.1 0.2 0.3 0.4 0.5 0.6 0.7"}
RATES_CM=${RATES_CM-"0.05 0.1 0.15 0.2 0.25"}
RATES_ANY=${RATES_ANY-"0.02 0.05 0.08 0.1 0.12 0.14"}
RATES_UR=${RATES_UR-"0.1 0.3 0.35 0.4 0.5 0.7 0.8 0.9 1.0"}
RATES_WC=${RATES_WC-"0.02 0.1 0.2 0.3 0.4 1.0"}
RATES_UR_BS=${RATES_UR_BS-"0.3 1.0"}
RATES_WC_BS=${RATES_WC_BS-"0.2"}
RATES_X2=${RATES_X2-"1.0"}
WL_ROUTINGS=${WL_ROUTINGS:-"df-min df-valiant df-ugal-l df-ugal-g df-par"}
SELECTS=${SELECTS:-"first rotate"}
SWINS=${SWINS:-"vc"}
case " $SIDES " in *" booksim "*)
	: "${BOOKSIM:?set BOOKSIM to the path of a built booksim binary (docs/booksim.md)}"
	[ -x "$BOOKSIM" ] || { echo "dragonfly-compare: $BOOKSIM is not an executable" >&2; exit 2; } ;;
esac
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${WORMLAB:-}" ]; then
	here=$(cd "$(dirname "$0")/.." && pwd)
	(cd "$here" && go build -o "$tmp/wormlab" ./cmd/wormlab)
	WORMLAB=$tmp/wormlab
fi

# cpu CMD...: runs CMD (output to $tmp/run.out), prints its user+system seconds.
cpu() {
	/usr/bin/time -f '%U %S' -o "$tmp/time" nice -n 19 "$@" > "$tmp/run.out" 2>&1 || true
	tail -1 "$tmp/time" | awk '{printf "%.1f", $1 + $2}'
}
# cut CMD...: runs CMD as cpu does, but ends it (by its process id) once it prints
# "Draining remaining packets": BookSim2's throughput mode counts accepted flits only
# while warming up and running (trafficmanager.cpp's _Step) and divides by the
# cycles up to the drain (_UpdateOverallStats), so its figure is fixed when the
# drain starts; the drain delivers every packet queued at the sources (about 50
# times the measured cycles for minimal routing under worst-case traffic at 1.0).
cut() {
	# emptied first: the loop below must not read the previous run's output (a
	# background job may open its redirection after the loop's first look)
	: > "$tmp/run.out"
	/usr/bin/time -f '%U %S' -o "$tmp/time" nice -n 19 "$@" > "$tmp/run.out" 2>&1 &
	tp=$!
	while kill -0 "$tp" 2>/dev/null; do
		if grep -q 'Draining remaining packets' "$tmp/run.out" 2>/dev/null; then
			for cp in $(ps -o pid= --ppid "$tp"); do kill "$cp" 2>/dev/null || true; done
			break
		fi
		sleep 1
	done
	wait "$tp" || true
	tail -1 "$tmp/time" | awk '{printf "%.1f", $1 + $2}'
}
bs_field() {
	sed -n '/Overall Traffic Statistics/,$p' "$tmp/run.out" | grep -m1 "$1" | sed 's/.*= \([0-9.e+-]*\).*/\1/'
}
# bs_last FIELD: the last sample period's FIELD before the drain (a cut run has no
# overall statistics; the last period's accepted rate is over the same cycles)
bs_last() {
	sed '/Draining remaining packets/,$d' "$tmp/run.out" | grep "$1" | tail -1 | sed 's/.*= \([0-9.e+-]*\).*/\1/'
}
wl_field() {
	grep -o "\"$1\": *[^,}]*" "$tmp/run.out" | head -1 | sed 's/.*: *//'
}

# booksim CASE ROUTING TRAFFIC VCS RATE SEED CONFIG-LINES...
booksim() {
	c=$1 rt=$2 tr=$3 v=$4 r=$5 s=$6
	shift 6
	printf '%s\n' "$@" > "$tmp/bs.cfg"
	st=latency run=cpu
	[ "$r" = 1.0 ] && st=throughput
	[ "$st" = throughput ] && [ -n "${BS_CUT:-}" ] && run=cut
	case $c in agree-df-cut | ugal-groupmid) run=cut ;; esac
	t=$($run "$BOOKSIM" "$tmp/bs.cfg" routing_function="$rt" traffic="$tr" num_vcs="$v" injection_rate="$r" seed="$s" sim_type="$st")
	if grep -q unstable "$tmp/run.out"; then
		printf 'booksim\t%s\t%s\t%s\t%s\t%s\t%s\t-\t-\t-\tunstable\t%s\t-\t-\n' "$c" "$rt" "$tr" "$v" "$r" "$s" "$t"
	elif [ $run = cut ]; then
		a=$(bs_last 'Accepted flit rate average')
		[ -n "$a" ] || { echo "dragonfly-compare: booksim $c $rt $tr $r $s: no accepted rate before the drain" >&2; exit 1; }
		printf 'booksim\t%s\t%s\t%s\t%s\t%s\t%s\t-\t-\t%s\tsaturated\t%s\t-\t-\n' "$c" "$rt" "$tr" "$v" "$r" "$s" "$a" "$t"
	else
		status=ok
		[ "$st" = throughput ] && status=saturated
		printf 'booksim\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t-\t%s\t%s\t%s\t-\t-\n' "$c" "$rt" "$tr" "$v" "$r" "$s" \
			"$(bs_field 'Packet latency average')" "$(bs_field 'Accepted flit rate average')" "$status" "$t"
	fi >> "$out/booksim.tsv"
}

# wormlab CASE ROUTING TRAFFIC VCS RATE SEED FLAGS... (the VC selection $sel, the
# switch allocator's input stage $swin)
sel=first swin=vc
wormlab() {
	c=$1 rt=$2 tr=$3 v=$4 r=$5 s=$6
	shift 6
	t=$(cpu "$WORMLAB" sim --json --routing "$rt" --traffic "$tr" --vcs "$v" --rate "$r" --seed "$s" --select "$sel" --switch-input "$swin" "$@")
	sat=$(wl_field saturated)
	status=ok
	[ "$sat" = true ] && status=saturated
	printf 'wormlab\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$rt" "$tr" "$v" "$r" "$s" \
		"$(wl_field latency)" "$(wl_field latency_ci)" "$(wl_field accepted)" "$status" "$t" "$sel" "$swin" >> "$out/wormlab.tsv"
}

DF="vc_buf_size = 256; packet_size = 4; vc_allocator = separable_input_first; sw_allocator = separable_input_first; injection_process = bernoulli; injection_rate_uses_flits = 1;"
WLDF="--buf 256 --flits 4 --pipeline booksim --process bernoulli"
# the small networks' runs (agree-ff, agree-cmesh, agree-anynet): 4 VCs of 8 flits,
# 4-flit packets, channels of one cycle
SMALL="vc_buf_size = 8; packet_size = 4; vc_allocator = separable_input_first; sw_allocator = separable_input_first; injection_process = bernoulli; injection_rate_uses_flits = 1;"
WLSMALL="--buf 8 --flits 4 --pipeline booksim --process bernoulli --rel 0.01 --min-cycles 50000"
TREE=${TREE:-$(cd "$(dirname "$0")/.." && pwd)/experiments/dragonfly/tree32.anynet}

for c in $cases; do
	case $c in
	agree-df)
		for r in $RATES_DF 1.0; do for s in $SEEDS; do
			case " $SIDES " in *" booksim "*) booksim agree-df min uniform 2 "$r" "$s" "topology = dragonflynew; k = 2; n = 1; sample_period = 10000;" "$DF" ;; esac
			case " $SIDES " in *" wormlab "*) wormlab agree-df df-min uniform 2 "$r" "$s" --topology dragonfly:p=2 $WLDF --rel 0.01 --min-cycles 50000 ;; esac
		done; done ;;
	agree-df-cut)
		for s in $SEEDS; do
			booksim agree-df-cut min uniform 2 1.0 "$s" "topology = dragonflynew; k = 2; n = 1; sample_period = 10000;" "$DF"
		done ;;
	agree-ff)
		for r in $RATES_FF 1.0; do for s in $SEEDS; do
			case " $SIDES " in *" booksim "*) booksim agree-ff ran_min uniform 4 "$r" "$s" \
				"topology = flatfly; k = 4; n = 2; c = 4; x = 4; y = 4; xr = 2; yr = 2; use_noc_latency = 0; sample_period = 10000;" "$SMALL" ;; esac
			case " $SIDES " in *" wormlab "*) for sel in $SELECTS; do for swin in $SWINS; do wormlab agree-ff hx-dor uniform 4 "$r" "$s" --topology flatfly:k=4,n=3 $WLSMALL; done; done; sel=first swin=vc ;; esac
		done; done ;;
	agree-cmesh)
		for r in $RATES_CM 1.0; do for s in $SEEDS; do
			case " $SIDES " in *" booksim "*) booksim agree-cmesh dor_no_express uniform 4 "$r" "$s" \
				"topology = cmesh; k = 4; n = 2; c = 4; x = 4; y = 4; xr = 2; yr = 2; use_noc_latency = 0; sample_period = 10000;" "$SMALL" ;; esac
			case " $SIDES " in *" wormlab "*) for sel in $SELECTS; do for swin in $SWINS; do wormlab agree-cmesh dor uniform 4 "$r" "$s" --topology cmesh:4x4,c=4 $WLSMALL; done; done; sel=first swin=vc ;; esac
		done; done ;;
	agree-anynet)
		for r in $RATES_ANY 1.0; do for s in $SEEDS; do
			case " $SIDES " in *" booksim "*) booksim agree-anynet min uniform 4 "$r" "$s" \
				"topology = anynet; network_file = $TREE; sample_period = 10000;" "$SMALL" ;; esac
			case " $SIDES " in *" wormlab "*) for sel in $SELECTS; do for swin in $SWINS; do wormlab agree-anynet any-updown uniform 4 "$r" "$s" --topology "anynet:$TREE" $WLSMALL; done; done; sel=first swin=vc ;; esac
		done; done ;;
	ugal-groupmid)
		for s in $BS_STUDY_SEEDS; do
			(export BS_GROUPMID=1; booksim ugal-groupmid ugal bad_dragon 3 1.0 "$s" "topology = dragonflynew; k = 4; n = 1;" "$DF")
		done ;;
	study | study-x2)
		# study-x2: wormlab alone, two VCs a class (less head-of-line blocking)
		x=1
		[ "$c" = study-x2 ] && x=2
		for tr in uniform worstcase; do
			rates=$RATES_UR btr=uniform bsrates=$RATES_UR_BS
			[ "$tr" = worstcase ] && rates=$RATES_WC btr=bad_dragon bsrates=$RATES_WC_BS
			[ $x = 2 ] && rates=$RATES_X2
			case " $SIDES " in *" booksim "*) if [ $x = 1 ]; then
				for r in $bsrates; do for s in $BS_STUDY_SEEDS; do
					booksim study min "$btr" 2 "$r" "$s" "topology = dragonflynew; k = 4; n = 1;" "$DF"
					booksim study ugal "$btr" 3 "$r" "$s" "topology = dragonflynew; k = 4; n = 1;" "$DF"
				done; done
			fi ;; esac
			for r in $rates; do for s in $STUDY_SEEDS; do
				case " $SIDES " in *" wormlab "*)
					for rt in $WL_ROUTINGS; do
						v=3
						[ "$rt" = df-min ] && v=2
						[ "$rt" = df-par ] && v=4
						wormlab "$c" "$rt" "$tr" $((v * x)) "$r" "$s" --topology dragonfly:p=4 $WLDF --max-cycles 60000
					done ;;
				esac
			done; done
		done ;;
	csv)
		# results.csv: both sides' lines under one header, "-" as an empty cell
		# (wormlab plot reads it: docs/dragonfly.md)
		{
			echo "sim,case,routing,traffic,vcs,rate,seed,latency,latency_ci,accepted,status,cpu_s,select,switch_input,series"
			cat "$out"/booksim.tsv "$out"/wormlab.tsv 2>/dev/null | awk -F'\t' -v OFS=, '{for (i = 1; i <= NF; i++) if ($i == "-" || $i == "null") $i = ""; $15 = $1 ":" $3; print}'
		} > "$out/results.csv" ;;
	plots)
		# the study's figures from OUTDIR/results.csv (wormlab plot: a point is the
		# mean over its seeds, its error bar their 95% t-interval)
		# (study-x2 runs offered 1.0 alone: nothing to draw)
		k=study
		for tr in uniform worstcase; do
			grep -q "^[a-z]*,$k,[^,]*,$tr," "$out/results.csv" || continue
			sfx=$tr
			"$WORMLAB" plot "$out/results.csv" --x rate --xlabel "offered (flits/terminal/cycle)" --y latency --ylabel "latency (cycles)" \
				--series series --where case=$k --where traffic=$tr --show-saturated --title "$k, $tr: latency" -o "$out/latency-$sfx.svg"
			"$WORMLAB" plot "$out/results.csv" --x rate --xlabel "offered (flits/terminal/cycle)" --y accepted --ylabel "accepted (flits/terminal/cycle)" \
				--series series --where case=$k --where traffic=$tr --title "$k, $tr: accepted" -o "$out/accepted-$sfx.svg"
		done ;;
	*) echo "dragonfly-compare: unknown case $c (want agree-df, agree-df-cut, agree-ff, agree-cmesh, agree-anynet, ugal-groupmid, study, study-x2, csv, plots)" >&2; exit 2 ;;
	esac
done
