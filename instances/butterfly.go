package instances

// The N-input butterfly (seed 002, sections 2.4 and 3): levels 0 .. log N of N rows;
// node (r, l) has a straight edge to (r, l+1) and a cross edge to (r xor 2^l, l+1).
// Correcting bit l at level l gives each input-output pair exactly one path, of
// log N edges. With bit l at level l, the first j levels split into N/2^j small
// butterflies of 2^j inputs each, the structure the lower bound of section 3 uses.

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/wormlab/wormlab/model"
)

// Butterfly returns the n-input butterfly, n = 2^k >= 2. Node (r, l) is named "r,l"
// (row, then level) and has index l*n + r; "levels" gives l. Sources are the inputs
// (level 0), destinations the outputs (level k), both indexed by row.
func Butterfly(n int) (*Topology, error) {
	if n < 2 || n&(n-1) != 0 || n > maxNodes {
		return nil, specErr("size", "butterfly of %d inputs: want a power of 2 from 2 to %d", n, maxNodes)
	}
	k := bits.TrailingZeros(uint(n))
	if (k+1)*n > maxNodes {
		return nil, specErr("size", "more than %d nodes", maxNodes)
	}
	net := &model.Network{}
	levels := make([]int, 0, (k+1)*n)
	for l := 0; l <= k; l++ {
		for r := range n {
			net.AddNode(fmt.Sprintf("%d,%d", r, l))
			levels = append(levels, l)
		}
	}
	// straight[l*n+r] and cross[l*n+r] are the edges leaving (r, l).
	straight := make([]int, k*n)
	cross := make([]int, k*n)
	for l := range k {
		for r := range n {
			straight[l*n+r] = net.AddEdge(l*n+r, (l+1)*n+r)
			cross[l*n+r] = net.AddEdge(l*n+r, (l+1)*n+(r^(1<<l)))
		}
	}
	net.SetExtra("levels", levels)
	t := &Topology{
		Net:     net,
		Params:  map[string]any{"kind": "butterfly", "inputs": n},
		Sources: make([]int, n),
		Dests:   make([]int, n),
	}
	for r := range n {
		t.Sources[r] = r
		t.Dests[r] = k*n + r
	}
	route := func(src, dst int, _ *rand.Rand) ([]int, error) {
		r, l := src%n, src/n
		r2, l2 := dst%n, dst/n
		// Levels l .. l2-1 can change bits l .. l2-1 of the row and no other.
		window := (1<<l2 - 1) &^ (1<<l - 1)
		if l2 <= l || (r^r2)&^window != 0 {
			return nil, fmt.Errorf("butterfly: no path from %s to %s", net.Nodes[src], net.Nodes[dst])
		}
		path := make([]int, 0, l2-l)
		for ; l < l2; l++ {
			if (r^r2)&(1<<l) != 0 {
				path = append(path, cross[l*n+r])
				r ^= 1 << l
			} else {
				path = append(path, straight[l*n+r])
			}
		}
		return path, nil
	}
	t.setRoutes(funcRouting{Unique, route})
	return t, nil
}
