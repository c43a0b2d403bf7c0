package fattree

import (
	"context"
	"math/bits"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// Worm is WORM (seed 000, section B.2): greedy wormhole routing with input queues
// of q flits, run on the cycle-level simulator (one virtual channel of q flits per
// link, the Ideal pipeline: a flit crosses a link in one flit-step, a freed slot is
// reusable in the next). A head takes an output link only when no other packet
// holds it; body flits follow their head. Initial delays are drawn from [0, R-1]
// units of L log2 N flit-steps.
type Worm struct{}

var _ Algorithm = Worm{}

func init() { registerAlgorithm("worm", Worm{}) }

func (Worm) Route(ctx context.Context, run *Run) (Outcome, error) {
	cfg, ps, err := wormConfig(run)
	if err != nil {
		return Outcome{}, err
	}
	ft := run.FT
	count := make([]int32, ft.Nodes()*6)
	cfg.Trace = func(e sim.Event) {
		if e.Kind == sim.Send && e.Flit == 0 && int(e.Port) < ft.Ports(int(e.Node)) {
			count[int(e.Node)*6+int(e.Port)]++
		}
	}
	res, err := sim.RunBatch(ctx, cfg, ps, sim.BatchOptions{})
	if err != nil {
		return Outcome{}, err
	}
	c := int32(0)
	for _, k := range count {
		c = max(c, k)
	}
	// Makespan is MODEL.md's count: d + L - 1 for a lone packet over d links.
	return Outcome{MaxLatency: res.Makespan, Congestion: int(c)}, nil
}

// wormConfig is the simulator's configuration and batch for a WORM run.
func wormConfig(run *Run) (sim.Config, []sim.Packet, error) {
	ft := run.FT
	fixed, sel := run.Path.Worm()
	cfg := sim.Config{Net: ft, VCs: 1, Buf: run.Queue, Pipeline: sim.Ideal(), Select: sel,
		Arbiter: run.Scan.Arbitration(ft), Seed: run.Seed}
	if !fixed {
		ud, err := routing.NewUpDown(ft, false)
		if err != nil {
			return cfg, nil, err
		}
		cfg.Routing = ud
	}
	unit := int64(run.Flits) * int64(bits.Len(uint(ft.Processors()))-1)
	var ps []sim.Packet
	for i, p := range run.Pairs {
		if p.Src == p.Dst {
			continue
		}
		pk := sim.Packet{Src: p.Src, Dst: p.Dst, Flits: run.Flits, Release: delay(run) * unit}
		if fixed {
			pk.Path = FixedPorts(ft, p.Src, p.Dst, run.Up[i])
		}
		ps = append(ps, pk)
	}
	return cfg, ps, nil
}

// FixedPorts is the output port at each node of the shortest path from src to dst
// whose up link at level l is bit l-1 of up.
func FixedPorts(ft *topology.FatTree, src, dst int, up uint32) []int {
	m := ft.LCALevel(src, dst)
	path := make([]int, 0, 2*m)
	v := src
	for v != dst {
		l := ft.Level(v)
		port := 0
		switch {
		case l == 0:
		case ft.Ancestor(v, dst):
			port = ft.DownPort(v, dst)
		default:
			port = topology.FatUp0 + int(up>>(l-1)&1)
		}
		path = append(path, port)
		v, _ = ft.Link(v, port)
	}
	return path
}
