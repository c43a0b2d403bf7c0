package sim

// Hot-spot traffic of seed 003 (Boppana and Chalasani): a fraction of the packets
// goes to one or more hot nodes, the rest uniformly.

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/topology"
)

// Hotspot sends a packet to one of Hot (uniformly among them) with probability
// Fraction, else to a terminal drawn uniformly.
type Hotspot struct {
	T        int
	Hot      []int
	Fraction float64
}

var _ Pattern = Hotspot{}

func init() {
	RegisterPattern("hotspot", func(p PatternParams) (Pattern, error) {
		t := topology.TerminalsOf(p.Net).Len()
		h := Hotspot{T: t, Hot: p.Hot, Fraction: p.HotFraction}
		if len(h.Hot) == 0 {
			h.Hot = []int{0}
		}
		if h.Fraction == 0 {
			h.Fraction = 0.1
		}
		if !(h.Fraction >= 0 && h.Fraction <= 1) {
			return nil, &ConfigError{"hot-fraction", fmt.Sprintf("traffic hotspot: fraction %g outside [0, 1]", h.Fraction)}
		}
		for _, x := range h.Hot {
			if x < 0 || x >= t {
				return nil, &ConfigError{"hot", fmt.Sprintf("traffic hotspot: hot terminal %d outside 0..%d", x, t-1)}
			}
		}
		return h, nil
	}, ParamHot, ParamHotFraction)
}

func (h Hotspot) Dest(_ int, r *rand.Rand) int {
	if r.Float64() < h.Fraction {
		return h.Hot[r.IntN(len(h.Hot))]
	}
	return r.IntN(h.T)
}
