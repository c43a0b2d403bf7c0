package fattree

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// cand is one packet at the head of an input queue of a node in one step: in is
// the input's number (input ports, then the source queue), far the level of its
// least common ancestor (the farther its destination going up, or its source going
// down, the higher).
type cand struct {
	in  int
	pk  int32
	far int32
}

// Scan is the order in which a node scans its input queues (seed 000, section B.2).
type Scan interface {
	// Order puts one node's candidates of one step, given in input order, into the
	// order they are served.
	Order(c []cand, r *rand.Rand)
	// Arbitration is the same policy for the simulator's arbiters on ft.
	Arbitration(ft *topology.FatTree) sim.Arbitration
}

var scans = map[string]Scan{}

func registerScan(name string, s Scan) {
	if _, dup := scans[name]; dup {
		panic("fattree: scan registered twice: " + name)
	}
	scans[name] = s
}

// LookupScan returns the named input scan.
func LookupScan(name string) (Scan, error) {
	s, ok := scans[name]
	if !ok {
		return nil, fmt.Errorf("unknown scan %q (want one of %s)", name, strings.Join(ScanNames(), ", "))
	}
	return s, nil
}

// ScanNames lists the input scans.
func ScanNames() []string { return keys(scans) }

// rotate moves c[k:] before c[:k].
func rotate(c []cand, k int) {
	if k == 0 {
		return
	}
	tmp := append([]cand(nil), c[:k]...)
	copy(c, c[k:])
	copy(c[len(c)-k:], tmp)
}
