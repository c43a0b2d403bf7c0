package fattree

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/topology"
)

// Leighton, Maggs and Rao's invariant: with ghosts, every link carries its packets
// in increasing key order, on every pattern, for ghosts of one packet-step and of
// one flit, with one-packet and deeper queues; every packet is delivered; and
// without the gate (UNIV's rank rule alone) the order breaks somewhere, so the
// check can fail.
func TestUnivGhostLinkOrder(t *testing.T) {
	for _, pat := range []string{"random", "complement", "many-to-1"} {
		for _, tc := range []struct{ hops, q int }{{1, 1}, {16, 1}, {1, 3}} {
			pt, err := LookupPattern(pat)
			require.NoError(t, err)
			ft, err := topology.NewFatTree(64)
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(7, 1))
			pairs := pt.Pairs(64, r)
			up := make([]uint32, len(pairs))
			for i := range up {
				up[i] = r.Uint32()
			}
			path, _ := LookupPath("rp")
			scan, _ := LookupScan("rr")
			run := &Run{FT: ft, Pairs: pairs, Flits: 4, Queue: 2, StoreQueue: tc.q, GhostHops: tc.hops, Path: path, Scan: scan, Up: up, R: r}
			ps := make([]sfPacket, len(pairs))
			want := 0
			for i, p := range pairs {
				ps[i] = sfPacket{src: p.Src, dst: p.Dst, up: up[i], rank: int32(1 + r.IntN(8))}
				if p.Src != p.Dst {
					want++
				}
			}
			last := map[[2]int]uint64{}
			sent, delivered := 0, 0
			g := &ghosts{hops: tc.hops, onSend: func(v, port int, k uint64) {
				l := [2]int{v, port}
				require.GreaterOrEqual(t, k, last[l], "%s: link %v carries key %x after %x", pat, l, k, last[l])
				last[l] = k
				sent++
				if w, _ := ft.Link(v, port); ft.Level(w) == 0 && int(k&0xffffffff) < len(ps) && ps[k&0xffffffff].dst == w {
					delivered++
				}
			}}
			out, err := storeForward(context.Background(), run, ps, run.Flits, g)
			require.NoError(t, err)
			require.Equal(t, want, delivered)
			require.Positive(t, out.MaxLatency)
			require.Greater(t, sent, want)
		}
	}
	// the rank rule alone (no gate): some link sees a smaller key after a larger
	ft, _ := topology.NewFatTree(64)
	r := rand.New(rand.NewPCG(7, 1))
	pt, _ := LookupPattern("random")
	pairs := pt.Pairs(64, r)
	up := make([]uint32, len(pairs))
	ps := make([]sfPacket, len(pairs))
	for i, p := range pairs {
		up[i] = r.Uint32()
		ps[i] = sfPacket{src: p.Src, dst: p.Dst, up: up[i], rank: int32(1 + r.IntN(8))}
	}
	path, _ := LookupPath("rp")
	scan, _ := LookupScan("rr")
	run := &Run{FT: ft, Pairs: pairs, Flits: 4, Path: path, Scan: scan, Up: up, R: r}
	out := false
	last := map[[2]int]uint64{}
	g := &ghosts{noGate: true, onSend: func(v, port int, k uint64) {
		l := [2]int{v, port}
		out = out || k < last[l]
		last[l] = k
	}}
	_, err := storeForward(context.Background(), run, ps, 4, g)
	require.NoError(t, err)
	require.True(t, out, "without the gate the order must break somewhere")
}
