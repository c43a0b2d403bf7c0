package routing

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// globalQueues is a sim.Congestion that requires every queue read to be a
// global channel's (d.Global) of a router of d, and counts the reads.
type globalQueues struct {
	t     *testing.T
	d     *topology.Dragonfly
	what  string
	reads int
}

func (g *globalQueues) Queue(r, port int) int {
	g.reads++
	require.True(g.t, r >= 0 && r < g.d.Nodes() && port >= 0 && port < g.d.Ports(r) && g.d.Global(port),
		"%s: read the queue of port %d of router %d, not a global channel", g.what, port, r)
	return 0
}

// UGAL-G (df_ugal.go) compares the queues of the two routes' global channels. A
// packet between two routers of one group may take Valiant's route through
// another group (dfPaths.start), but its minimal route has no global channel:
// UGAL-G read the channel Toward its own group, an index that names no channel
// (router -1 on a dragonfly of h = 1: `wormlab sim --topology
// dragonfly:a=2,p=1,h=1 --routing df-ugal-g --flits 1` panicked with an index out
// of range; on larger ones a local port read as a global channel). Every queue
// UGAL-G reads is a global channel's, for every source and destination router and
// every state Starts lists, on dragonflies of one and several global channels a
// router and both arrangements; and a packet whose minimal route has no global
// channel takes it (no global queue is longer than none).
func TestUGALGlobalReadsGlobalChannels(t *testing.T) {
	for _, spec := range []string{"dragonfly:a=2,p=1,h=1", "dragonfly:a=4,p=2,h=2", "dragonfly:a=4,p=1,h=2,arrangement=palmtree", "dragonfly:a=4,p=1,h=1,g=3"} {
		net, err := topology.Parse(spec)
		require.NoError(t, err)
		alg, err := Lookup("df-ugal-g")
		require.NoError(t, err)
		rt, err := alg.New(net, 3)
		require.NoError(t, err)
		d := rt.(*DFUGAL).d
		q := &globalQueues{t: t, d: d}
		bound := rt.(sim.Sensing).Sense(q)
		n := net.Nodes()
		for src := range n {
			for dst := range n {
				if src == dst {
					continue
				}
				for _, h := range bound.(*DFUGAL).Starts(sim.Header{Src: int32(src), Dst: int32(dst), Port: -1, InPort: -1, VC: -1}, nil) {
					q.what = fmt.Sprintf("%s: %d -> %d, state %v", spec, src, dst, h.Aux)
					ch := bound.Route(src, &h, nil)
					require.Len(t, ch, 1, q.what)
					if d.Group(src) == d.Group(dst) {
						require.Equal(t, d.MinPort(src, dst, int(h.Aux[2])), ch[0].Port, "%s: not the minimal route", q.what)
					}
				}
			}
		}
		require.Positive(t, q.reads, spec)
	}
}
