package sim

import (
	"fmt"

	"github.com/wormlab/wormlab/topology"
)

func terminalsOf(p PatternParams) []int { return topology.Terminals(p.Net) }

func errOddBits(name string, b int) error {
	return fmt.Errorf("traffic %s: 2^%d terminals, want an even power of two", name, b)
}
