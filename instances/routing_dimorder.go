package instances

// Dimension-order (e-cube) routing on meshes and tori: seed 003 (Dally, Seitz),
// the deadlock-free order of dimensions 0, 1, ..., k-1.

import "math/rand/v2"

// DimensionOrderRouting corrects the coordinates in dimension order 0, 1, ..., k-1,
// the shorter way round on a torus (the + way on a tie).
type DimensionOrderRouting struct{ g *meshGrid }

var _ Routing = DimensionOrderRouting{}

func (DimensionOrderRouting) Name() string { return DimensionOrder }

func (d DimensionOrderRouting) Path(src, dst int, r *rand.Rand) ([]int, error) {
	hops, dir := d.g.offsets(src, dst, false, r)
	return d.g.walk(src, hops, dir, d.g.dims()), nil
}
