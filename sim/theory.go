package sim

// The theory model of MODEL.md as a special case of the router: one VC of one-flit
// buffers, the Ideal pipeline (a flit crosses a link in the cycle after it
// arrived), destinations consuming any number of flits at once (EjectAll), the
// pipelining rule (Latch: a flit may enter a buffer in the step its occupant
// leaves), one injection queue per first edge (InjectPerPort: a source holds its
// worms and starts worms on different edges together) and fixed paths.

import (
	"context"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/topology"
)

// TheoryConfig is the configuration of the theory model on in's network, with arb
// arbitrating among heads that want one edge: Fixed order picks the input edge of
// smallest index and the source last, package engine's "input" policy.
func TheoryConfig(in *model.Instance, arb Arbitration, seed uint64) (Config, []Packet) {
	net := topology.FromModel(in.Net)
	cfg := Config{Net: net, VCs: 1, Buf: 1, Pipeline: Ideal(), Arbiter: arb, Seed: seed,
		EjectAll: true, Latch: true, InjectPerPort: true}
	ps := make([]Packet, len(in.Messages))
	for i, m := range in.Messages {
		path := make([]int, len(m.Path))
		for k, ed := range m.Path {
			path[k] = net.PortOf(ed)
		}
		ps[i] = Packet{Src: in.Net.Edges[m.Path[0]].From, Dst: in.Net.Edges[m.Path[len(m.Path)-1]].To, Flits: m.L, Path: path}
	}
	return cfg, ps
}

// Theory routes in's worms, all released at time 0, in the theory model and returns
// the MODEL.md wormhole schedule: t_k is the cycle in which the head entered the
// buffer of e_k (cycle 0 is the release; the head of a worm that never waits crosses
// e_k in step k), the makespan the cycle of the last tail's delivery.
func Theory(ctx context.Context, in *model.Instance, arb Arbitration, seed uint64) (*model.Schedule, *BatchResult, error) {
	cfg, ps := TheoryConfig(in, arb, seed)
	return TheoryRun(ctx, in, cfg, ps)
}

// TheoryRun is Theory with the configuration and packets of TheoryConfig, which the
// caller may adjust (Rotate, Trace).
func TheoryRun(ctx context.Context, in *model.Instance, cfg Config, ps []Packet) (*model.Schedule, *BatchResult, error) {
	res, err := RunBatch(ctx, cfg, ps, BatchOptions{RecordHops: true})
	if err != nil {
		return nil, res, err
	}
	s := &model.Schedule{Model: model.Wormhole, Makespan: int(res.Makespan)}
	for i, m := range in.Messages {
		cross := make([]int, len(res.HeadArrivals[i]))
		for k, t := range res.HeadArrivals[i] {
			cross[k] = int(t)
		}
		s.Messages = append(s.Messages, model.Times{ID: m.ID, Cross: cross})
	}
	return s, res, nil
}
