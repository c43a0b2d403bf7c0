package fattree

import "context"

// Univ is UNIV as wormlab reads seed 000, section B.2: Leighton, Maggs and Rao's
// store-and-forward routing for levelled networks reduced to its rule at a switch,
// every packet drawing a priority from [1, R] and a node serving its inputs in
// priority order (lowest first, ties in the scan's order). The full algorithm's
// ghost packets and end-of-stream tokens, which hold a packet until no packet of a
// lower priority can still arrive, are not simulated here: univ-ghost
// (algo_univ_ghost.go) is the full algorithm (docs/fattree-study.md).
type Univ struct{}

var _ Algorithm = Univ{}

func init() { registerAlgorithm("univ", Univ{}) }

func (Univ) Route(ctx context.Context, run *Run) (Outcome, error) {
	return storeForward(ctx, run, univPackets(run), run.Flits, nil)
}

// univPackets is UNIV's packets, UnivGhost's too: each with a priority drawn from
// [1, R] (R = run.Delay, or the processors when run.Delay <= 1), in pair order.
func univPackets(run *Run) []sfPacket {
	r := run.Delay
	if r <= 1 {
		r = run.FT.Processors()
	}
	ps := make([]sfPacket, len(run.Pairs))
	for i, p := range run.Pairs {
		ps[i] = sfPacket{src: p.Src, dst: p.Dst, up: run.Up[i], rank: int32(1 + run.R.IntN(r))}
	}
	return ps
}
