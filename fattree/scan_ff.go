package fattree

import (
	"math/rand/v2"
	"sort"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// FarthestFirst is FF (seed 000, section B.2): RR's order, except that packets
// heading for the farthest destinations go first on up links and packets from the
// farthest sources on down links. On a shortest up-down path both distances are
// the level of the least common ancestor, so one key serves both: the higher that
// level, the earlier the packet.
type FarthestFirst struct{}

var _ Scan = FarthestFirst{}

func init() { registerScan("ff", FarthestFirst{}) }

func (FarthestFirst) Order(c []cand, r *rand.Rand) {
	if len(c) > 1 {
		rotate(c, r.IntN(len(c)))
		sort.SliceStable(c, func(i, j int) bool { return c[i].far > c[j].far })
	}
}

func (FarthestFirst) Arbitration(ft *topology.FatTree) sim.Arbitration { return farthest{ft: ft} }

// farthest grants the requester whose path's least common ancestor is highest
// (hops done plus hops to go is twice that level on a shortest path), ties to the
// first at or after a random start (fixed: to the first).
type farthest struct {
	ft    *topology.FatTree
	fixed bool
}

var _ sim.Arbitration = farthest{}

func (f farthest) NewArbiter(n int, r *rand.Rand) sim.Arbiter {
	return &farthestArb{f.ft, n, r, f.fixed}
}

type farthestArb struct {
	ft    *topology.FatTree
	n     int
	r     *rand.Rand
	fixed bool
}

// pathLen is the length of the packet's shortest up-down path: hops done plus the
// hops from at to dst.
func (a *farthestArb) pathLen(q sim.Request) int {
	at, dst := int(q.At), int(q.Dst)
	l := a.ft.Level(at)
	togo := l
	if !a.ft.Ancestor(at, dst) {
		p := at // a processor below at
		if l > 0 {
			p = a.ft.Addr(at) >> (l - 1) << (2 * l)
		}
		m := a.ft.LCALevel(p, dst)
		togo = 2*m - l
	}
	return int(q.Hops) + togo
}

func (a *farthestArb) Pick(reqs []sim.Request) int {
	s := int32(0)
	if !a.fixed {
		s = int32(a.r.IntN(a.n))
	}
	best, bestKey, bestRot := 0, -1, false
	for i, q := range reqs {
		k := a.pathLen(q)
		rot := q.ID >= s // requesters at or after the start come first among equals
		if k > bestKey || (k == bestKey && rot && !bestRot) {
			best, bestKey, bestRot = i, k, rot
		}
	}
	return best
}

func (*farthestArb) Granted(int32) {}
