package fattree

import "context"

// Split is SPLIT (seed 000, section B.2): every flit of a packet is an independent
// packet of 1+a flits (a the addressing overhead), routed as in STORE, each with
// its own path choices and initial delay.
type Split struct{}

var _ Algorithm = Split{}

func init() { registerAlgorithm("split", Split{}) }

func (Split) Route(ctx context.Context, run *Run) (Outcome, error) {
	ps := make([]sfPacket, 0, len(run.Pairs)*run.Flits)
	for i, p := range run.Pairs {
		for f := range run.Flits {
			up := run.Up[i]
			if f > 0 {
				up = run.R.Uint32()
			}
			ps = append(ps, sfPacket{src: p.Src, dst: p.Dst, up: up, release: delay(run)})
		}
	}
	out, err := storeForward(ctx, run, ps, 1+run.Overhead, nil)
	out.Congestion /= run.Flits
	return out, err
}
