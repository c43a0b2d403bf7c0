package fattree

import "context"

// UnivGhost is UNIV as Leighton, Maggs and Rao define it (seed 000's reference [15],
// Leighton, Maggs, Ranade and Rao, "Randomized routing and sorting on
// fixed-connection networks", J. Algorithms 17, 1994, section 2): every packet draws
// a priority from [1, R] (ties broken by packet number), every link carries its
// packets in priority order, and a node holds a packet until no packet of a
// smaller priority can still arrive for its output: ghost packets, advertised on
// every link at every packet-step, carry that knowledge forward, and end-of-stream
// tokens close a link (ghosts in store.go). One packet-step per link for packets
// and ghosts alike, or run.GhostHops links a packet-step for a ghost (a ghost is one
// flit: GhostHops = L); queues of run.StoreQueue packets, as STORE's.
type UnivGhost struct{}

var _ Algorithm = UnivGhost{}

func init() { registerAlgorithm("univ-ghost", UnivGhost{}) }

func (UnivGhost) Route(ctx context.Context, run *Run) (Outcome, error) {
	return storeForward(ctx, run, univPackets(run), run.Flits, &ghosts{hops: run.GhostHops})
}
