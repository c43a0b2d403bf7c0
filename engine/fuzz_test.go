package engine

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

// fromBytes builds a small instance from fuzz bytes: the first bytes size the
// network and the worms, the rest drive a PCG source for the edges and walks.
func fromBytes(data []byte) *model.Instance {
	var seed [2]uint64
	for i, b := range data {
		seed[i/8%2] = seed[i/8%2]<<8 | uint64(b)
	}
	r := rand.New(rand.NewPCG(seed[0], seed[1]))
	net := &model.Network{}
	nodes := 2 + r.IntN(6)
	for v := 0; v < nodes; v++ {
		net.AddNode(string(rune('a' + v)))
	}
	for k := 1 + r.IntN(14); k > 0; k-- {
		a, b := r.IntN(nodes), r.IntN(nodes)
		if a == b {
			b = (a + 1) % nodes
		}
		net.AddEdge(a, b)
	}
	in := &model.Instance{Name: "fuzz", Net: net, Flits: 1}
	for i := 1 + r.IntN(8); i > 0; i-- {
		e := r.IntN(len(net.Edges))
		path, used := []int{e}, map[int]bool{e: true}
		for want := 1 + r.IntN(6); len(path) < want; {
			var opts []int
			for _, f := range net.Out(net.Edges[path[len(path)-1]].To) {
				if !used[f] {
					opts = append(opts, f)
				}
			}
			if len(opts) == 0 {
				break
			}
			f := opts[r.IntN(len(opts))]
			used[f] = true
			path = append(path, f)
		}
		in.Messages = append(in.Messages, model.Message{ID: "m" + string(rune('0'+len(in.Messages))), Path: path, L: 1 + r.IntN(5), AsEdges: true})
	}
	return in
}

// FuzzEngine runs the engine on instances drawn from the fuzz bytes, under the
// policy, release times and rotation the bytes choose, and checks every run: the
// schedule is legal (verify.Schedule, MODEL.md) and its makespan at least the lower
// bound, or the run ends in a *Deadlock, which needs a cycle in the channel
// dependency graph; store-and-forward runs pass CheckHops and verify.
func FuzzEngine(f *testing.F) {
	f.Add([]byte("wormlab"), uint8(0), uint8(0))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(3), uint8(7))
	f.Add([]byte("a ring that deadlocks"), uint8(5), uint8(255))
	f.Fuzz(func(t *testing.T, data []byte, pol, rel uint8) {
		in := fromBytes(data)
		require.NoError(t, in.Validate())
		names := Policies()
		cfg := Config{Arb: names[int(pol)%len(names)], Seed: uint64(rel), Rotate: rel&1 == 1}
		e, err := New(in, cfg)
		require.NoError(t, err)
		for i := range in.Messages {
			require.NoError(t, e.Release(i, (i*int(rel))%7))
		}
		err = e.Run(context.Background(), -1)
		if err != nil {
			var d *Deadlock
			require.True(t, errors.As(err, &d), "%v", err)
			require.NotNil(t, in.Dependencies().Cycle(), "deadlock without a dependency cycle")
		} else {
			s := e.Schedule()
			require.NoError(t, verify.Schedule(in, s))
			require.GreaterOrEqual(t, s.Makespan, in.LowerBound().Value)
		}
		sr, err := Store(context.Background(), in, nil, cfg)
		require.NoError(t, err)
		require.NoError(t, CheckHops(in, sr.Hops))
		require.NoError(t, verify.Schedule(in, storeSchedule(in, sr.Hops)))
	})
}
