package sim

import (
	"fmt"

	"github.com/wormlab/wormlab/topology"
)

// terminalCount is the number of terminals of the network (several per router on a
// concentrated one).
func terminalCount(p PatternParams) int { return topology.TerminalsOf(p.Net).Len() }

func errOddBits(name string, b int) error {
	return fmt.Errorf("traffic %s: 2^%d terminals, want an even power of two", name, b)
}
