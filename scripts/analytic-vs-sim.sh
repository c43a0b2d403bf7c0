#!/usr/bin/env bash
# analytic-vs-sim.sh: seed 004's model (wormlab model, package analytic) and
# wormlab's simulator (wormlab sim) at every rate of the paper's Tables 1 and 2,
# beside the paper's simulation and model columns, and the plots of docs/.
#
# The simulator runs the paper's set-up: 2-D k x k torus, 4 virtual channels,
# routing duato (minimal fully adaptive on VCs 2-3, dimension-order dateline
# escape on VCs 0-1, the deadlock avoidance of the paper's citations), selection
# "first" (duato lists the X direction before Y, so a head takes a free X channel
# first and a Y channel when X is busy, as section 2 describes), 12-flit
# messages, Poisson generation, uniform destinations, the ideal pipeline (one
# cycle per flit per link), rate in messages per node per cycle (--msg-rate).
#
#   scripts/analytic-vs-sim.sh            the tables' rates (a few minutes)
#   WORMLAB_LONG=1 scripts/analytic-vs-sim.sh   also the beyond-the-paper grid
#
# Output: docs/analytic/tables.jsonl (one row per table entry), curves.jsonl (long
# format for the plots), docs/analytic-torus-KxK.svg; with WORMLAB_LONG=1
# docs/analytic/beyond.jsonl, docs/analytic-beyond-error.svg and
# docs/analytic/saturation.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
WL=${WL:-/tmp/wormlab-analytic}
go build -o "$WL" ./cmd/wormlab
OUT=docs/analytic
mkdir -p "$OUT"
SIMFLAGS=(--routing duato --vcs 4 --select first --process poisson --pipeline ideal
  --traffic uniform --seed 1 --min-cycles 20000 --max-cycles 300000 --rel 0.01)

# sim K L RATE: one JSON object with k, flits, rate, sim, sim_ci, sim_saturated.
# A run that ends in a deadlock (exit 1: wormlab sim found no flit moving) is
# recorded as such: see docs/analytic-model.md, duato deadlocks deep in saturation.
sim() {
  local js rc=0
  js=$("$WL" sim --topology "torus:$1x$1" --flits "$2" --msg-rate "$3" "${SIMFLAGS[@]}" --json 2>/dev/null) || rc=$?
  if [ "$rc" = 1 ]; then
    jq -c -n --argjson k "$1" --argjson l "$2" --argjson r "$3" \
      '{k:$k, flits:$l, rate:$r, sim:null, sim_ci:null, sim_saturated:true, sim_reason:"deadlock", accepted:null}'
    return
  fi
  [ "$rc" = 0 ] || return "$rc"
  jq -c --argjson k "$1" --argjson l "$2" --argjson r "$3" \
    '{k:$k, flits:$l, rate:$r, sim:.latency, sim_ci:.latency_ci, sim_saturated:.saturated, sim_reason:(.reason // null), accepted:.accepted}' <<<"$js"
}
# model K L RATE: latency or null.
model() {
  "$WL" model --k "$1" --flits "$2" --msg-rate "$3" --json | jq -c '{model:.latency, model_saturated:.saturated, model_reason:(.reason // null)}'
}

: >"$OUT/tables.jsonl.tmp"
"$WL" model --tables --json | while read -r row; do
  k=$(jq -r .k <<<"$row"); r=$(jq -r .rate <<<"$row")
  s=$(sim "$k" 12 "$r")
  jq -c -n --argjson a "$row" --argjson b "$s" '$a + $b' >>"$OUT/tables.jsonl.tmp"
  echo "k=$k rate=$r $(jq -c '{sim,sim_ci}' <<<"$s")" >&2
done
# Past the tables: where the two saturate.
for kr in "16 0.008" "16 0.009" "16 0.010" "12 0.010" "12 0.011" "12 0.012"; do
  set -- $kr
  jq -c -n --argjson a "$(sim "$1" 12 "$2")" --argjson b "$(model "$1" 12 "$2")" '$a + $b + {paper_sim:null, paper_model:null}' >>"$OUT/tables.jsonl.tmp"
done
mv "$OUT/tables.jsonl.tmp" "$OUT/tables.jsonl"

jq -c '
  ({k, rate, curve:"paper simulation", latency:.paper_sim, ci:0} | select(.latency != null)),
  ({k, rate, curve:"wormlab simulation", latency:.sim, ci:.sim_ci} | select(.latency != null)),
  ({k, rate, curve:"paper model", latency:.paper_model, ci:0} | select(.latency != null)),
  ({k, rate, curve:"wormlab model", latency:.model, ci:0} | select(.latency != null))
' "$OUT/tables.jsonl" >"$OUT/curves.jsonl"
for k in 4 8 12 16; do
  "$WL" plot "$OUT/curves.jsonl" --where "k=$k" --x rate --y latency --series curve --err ci \
    --xlabel "generation rate (messages/node/cycle)" --ylabel "mean latency (cycles)" \
    --title "${k}x${k} torus, 12-flit messages: seed 004 and wormlab" -o "docs/analytic-torus-${k}x${k}.svg"
done

[ "${WORMLAB_LONG:-}" = 1 ] || exit 0

# Beyond the paper: relative error (model - sim)/sim against load, the load as a
# fraction of the model's saturation rate. Grid: GRID_K x GRID_L.
GRID_K=${GRID_K:-"4 8 16 32"}
GRID_L=${GRID_L:-"4 16 64"}
: >"$OUT/beyond.jsonl.tmp"; : >"$OUT/saturation.jsonl.tmp"
for k in $GRID_K; do
  for l in $GRID_L; do
    # the model's saturation rate: first failing rate on a grid of 1/200 of the zero-load bound
    msat=$(for i in $(seq 1 400); do echo "$i"; done | while read -r i; do
      r=$(awk -v i="$i" -v k="$k" -v l="$l" 'BEGIN{printf "%.6g", i*4/(k*l)/200}')
      if [ "$("$WL" model --k "$k" --flits "$l" --msg-rate "$r" --json | jq -r .saturated)" = true ]; then echo "$r"; break; fi
    done)
    ssat=null
    for f in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 0.95 1.0 1.1 1.25 1.5 2 3 4 6; do
      r=$(awk -v f="$f" -v m="$msat" 'BEGIN{printf "%.6g", f*m}')
      s=$(sim "$k" "$l" "$r"); m=$(model "$k" "$l" "$r")
      jq -c -n --argjson a "$s" --argjson b "$m" --argjson f "$f" --arg kl "k=$k L=$l" \
        '$a + $b + {load:$f, series:$kl, err_pct:(if ($a.sim != null and $b.model != null) then 100*($b.model-$a.sim)/$a.sim else null end)}' >>"$OUT/beyond.jsonl.tmp"
      if [ "$(jq -r .sim_saturated <<<"$s")" = true ] && [ "$ssat" = null ]; then ssat=$r; fi
      if [ "$ssat" != null ] && [ "$(jq -r .model_saturated <<<"$m")" = true ]; then break; fi
      echo "beyond k=$k L=$l f=$f $(jq -c '{sim}' <<<"$s") $(jq -c '{model}' <<<"$m")" >&2
    done
    echo "{\"k\":$k,\"flits\":$l,\"model_saturation\":$msat,\"sim_saturation\":$ssat}" >>"$OUT/saturation.jsonl.tmp"
  done
done
mv "$OUT/beyond.jsonl.tmp" "$OUT/beyond.jsonl"; mv "$OUT/saturation.jsonl.tmp" "$OUT/saturation.jsonl"
jq -c 'select(.err_pct != null)' "$OUT/beyond.jsonl" >"$OUT/beyond-err.jsonl"
"$WL" plot "$OUT/beyond-err.jsonl" --x load --y err_pct --series series --legend bottom-left \
  --xlabel "rate / the model's saturation rate" --ylabel "(model - simulation) / simulation (%)" \
  --title "seed 004's model against wormlab's simulator beyond the paper" -o docs/analytic-beyond-error.svg
