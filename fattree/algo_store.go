package fattree

import "context"

// Store is STORE (seed 000, section B.2): greedy store-and-forward with queues of
// one packet, each packet waiting an initial delay drawn from [0, R-1] packet-steps.
type Store struct{}

var _ Algorithm = Store{}

func init() { registerAlgorithm("store", Store{}) }

func (Store) Route(ctx context.Context, run *Run) (Outcome, error) {
	ps := make([]sfPacket, len(run.Pairs))
	for i, p := range run.Pairs {
		ps[i] = sfPacket{src: p.Src, dst: p.Dst, up: run.Up[i], release: delay(run)}
	}
	return storeForward(ctx, run, ps, run.Flits, nil)
}

func delay(run *Run) int64 {
	if run.Delay <= 1 {
		return 0
	}
	return int64(run.R.IntN(run.Delay))
}
