package fattree

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/wormlab/wormlab/sim"
)

// PathSelection chooses the up link of a packet that must climb (seed 000, section
// B.2; there is one choice per level, none going down).
type PathSelection interface {
	// Up returns the up link (0 or 1) a packet at the head of an input queue takes
	// in this step, or -1 to wait: fixed is the link drawn for this level at the
	// source, free[k] whether link k and the queue at its end are free.
	Up(fixed int, free [2]bool, r *rand.Rand) int
	// Worm says how WORM routes on the simulator: along fixed paths (true), or with
	// routing.UpDown offering both up links and sel taking one of the free ones.
	Worm() (fixed bool, sel sim.Selector)
}

var paths = map[string]PathSelection{}

func registerPath(name string, p PathSelection) {
	if _, dup := paths[name]; dup {
		panic("fattree: path selection registered twice: " + name)
	}
	paths[name] = p
}

// LookupPath returns the named path selection.
func LookupPath(name string) (PathSelection, error) {
	p, ok := paths[name]
	if !ok {
		return nil, fmt.Errorf("unknown path selection %q (want one of %s)", name, strings.Join(PathNames(), ", "))
	}
	return p, nil
}

// PathNames lists the path selections.
func PathNames() []string { return keys(paths) }
