package instances

// Random shortest paths on meshes and tori: a monotone shortest path drawn
// uniformly (the random routing of seed 002's mesh analysis and of the simulations
// of seed 000, section B.2).

import "math/rand/v2"

// RandomShortestGrid draws a monotone shortest path uniformly at random, breaking
// the tie of an even torus ring at random.
type RandomShortestGrid struct{ g *meshGrid }

var _ Routing = RandomShortestGrid{}

func (RandomShortestGrid) Name() string { return RandomShortest }

func (s RandomShortestGrid) Path(src, dst int, r *rand.Rand) ([]int, error) {
	g := s.g
	hops, dir := g.offsets(src, dst, true, r)
	total := 0
	for _, h := range hops {
		total += h
	}
	path := make([]int, 0, total)
	u := src
	// Choosing dimension i with probability (hops left in i) / (hops left) makes
	// every monotone shortest path equally likely: the number of such paths
	// through each choice is proportional to that ratio.
	for left := total; left > 0; left-- {
		x := r.IntN(left)
		i := 0
		for x >= hops[i] {
			x -= hops[i]
			i++
		}
		hops[i]--
		e := g.step[u*2*g.k+2*i+dir[i]]
		path = append(path, e)
		u = g.t.Net.Edges[e].To
	}
	return path, nil
}
