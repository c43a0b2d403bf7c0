package instances

// One-bend routing on two-dimensional meshes and tori: seed 002 (Ranade,
// Schleimer, Wilkerson), section 2.4: the row-first or the column-first path, each
// with probability 1/2.

import "math/rand/v2"

// OneBendRouting takes the row-first or the column-first shortest path with
// probability 1/2 each (k <= 2 dimensions).
type OneBendRouting struct{ g *meshGrid }

var _ Routing = OneBendRouting{}

func (OneBendRouting) Name() string { return OneBend }

func (o OneBendRouting) Path(src, dst int, r *rand.Rand) ([]int, error) {
	hops, dir := o.g.offsets(src, dst, false, r)
	order := o.g.dims()
	if r.IntN(2) == 1 {
		for a, b := 0, len(order)-1; a < b; a, b = a+1, b-1 {
			order[a], order[b] = order[b], order[a]
		}
	}
	return o.g.walk(src, hops, dir, order), nil
}
