package sim

// The dragonfly's adversarial traffic (Kim, Dally, Scott and Abts, ISCA 2008,
// section 4.1: "worst-case" traffic, each terminal of group i sending to a terminal
// drawn at random in group i+1; BookSim2's bad_dragon, src/traffic.cpp) and random
// permutations by group (every terminal of group G sends to a terminal drawn at
// random in group pi(G), pi one permutation of the groups drawn from the seed). With
// minimal routing, all of a group's traffic then crosses the one global channel
// (trunk) to the group it targets.

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormlab/wormlab/topology"
)

// GroupMap sends every terminal of group G to a terminal drawn uniformly in group
// To[G]; Per is the terminals per group.
type GroupMap struct {
	Per int
	To  []int
}

var _ Pattern = GroupMap{}

func (m GroupMap) Dest(src int, r *rand.Rand) int {
	return m.To[src/m.Per]*m.Per + r.IntN(m.Per)
}

func dragonflyOf(name string, net topology.Network) (*topology.Dragonfly, error) {
	d, ok := net.(*topology.Dragonfly)
	if !ok {
		return nil, fmt.Errorf("traffic %s needs a dragonfly, not %s", name, net)
	}
	return d, nil
}

func init() {
	RegisterPattern("worstcase", func(p PatternParams) (Pattern, error) {
		d, err := dragonflyOf("worstcase", p.Net)
		if err != nil {
			return nil, err
		}
		m := GroupMap{Per: d.A() * d.P(), To: make([]int, d.G())}
		for G := range m.To {
			m.To[G] = (G + 1) % d.G()
		}
		return m, nil
	})
	RegisterPattern("groupperm", func(p PatternParams) (Pattern, error) {
		d, err := dragonflyOf("groupperm", p.Net)
		if err != nil {
			return nil, err
		}
		r := rand.New(rand.NewPCG(p.Seed, 0x67726f7570))
		return GroupMap{Per: d.A() * d.P(), To: r.Perm(d.G())}, nil
	})
}
