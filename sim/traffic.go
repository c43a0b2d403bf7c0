package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/wormlab/wormlab/topology"
)

// Pattern is a traffic pattern: the destination of a packet from terminal src.
// Terminals are numbered 0 .. T-1 as topology.TerminalsOf numbers them: on tori and
// meshes terminal i is node i, on a fat-tree processor i, on a concentrated network
// router r's c terminals are r*c .. r*c+c-1. The patterns on terminal numbers
// (uniform, hotspot, randperm and the bit permutations) apply to every network as
// they are; those on grid coordinates (tornado, neighbor, local) move a concentrated
// mesh's routers and keep each terminal's place at its router (lift); those on
// groups (worstcase, groupperm) need a dragonfly.
type Pattern interface {
	Dest(src int, r *rand.Rand) int
}

// PatternParams are what pattern constructors may use.
type PatternParams struct {
	Net topology.Network
	// Hot lists the hot terminals of hotspot (default: terminal 0), HotFraction the
	// share of packets sent to them (default 0.1).
	Hot         []int
	HotFraction float64
	// Radius bounds local's destinations (grid distance, default 1).
	Radius int
	// Seed draws randperm's permutation.
	Seed uint64
}

// PatternMaker builds a pattern for a network; it returns an error naming what
// does not fit (a size that is not a power of two, a network that is not a grid).
type PatternMaker func(PatternParams) (Pattern, error)

var patterns = map[string]PatternMaker{}

// A PatternParam is a field of PatternParams that only some patterns read, named
// as wormlab sim's flag that sets it.
type PatternParam string

const (
	ParamHot         PatternParam = "hot"          // PatternParams.Hot
	ParamHotFraction PatternParam = "hot-fraction" // PatternParams.HotFraction
	ParamRadius      PatternParam = "radius"       // PatternParams.Radius
)

// patternReads holds the PatternParams fields each pattern reads (beyond the
// network and the seed).
var patternReads = map[string][]PatternParam{}

// RegisterPattern adds a traffic pattern to the registry (from init), with the
// fields of PatternParams it reads beyond Net and Seed, so that a caller can refuse
// a parameter the pattern would ignore (TestPatternReadsWhatItDeclares checks the
// list).
func RegisterPattern(name string, m PatternMaker, reads ...PatternParam) {
	if _, dup := patterns[name]; dup {
		panic("sim: pattern registered twice: " + name)
	}
	patterns[name] = m
	patternReads[name] = reads
}

// PatternReads reports whether the named pattern reads param (false for a name
// not registered).
func PatternReads(name string, param PatternParam) bool {
	return slices.Contains(patternReads[name], param)
}

// PatternsReading lists the registered patterns that read param.
func PatternsReading(param PatternParam) []string {
	var out []string
	for _, n := range PatternNames() {
		if PatternReads(n, param) {
			out = append(out, n)
		}
	}
	return out
}

// PatternNames lists the registered traffic patterns.
func PatternNames() []string { return names(patterns) }

// NewPattern builds the named pattern.
func NewPattern(name string, p PatternParams) (Pattern, error) {
	m, ok := patterns[name]
	if !ok {
		return nil, fmt.Errorf("unknown traffic %q (want one of %s)", name, strings.Join(PatternNames(), ", "))
	}
	return m(p)
}

// log2 of n when n is a power of two >= 2, else an error for the pattern.
func bitsOf(name string, n int) (int, error) {
	b := 0
	for 1<<b < n {
		b++
	}
	if n < 2 || 1<<b != n {
		return 0, fmt.Errorf("traffic %s: %d terminals is not a power of two", name, n)
	}
	return b, nil
}

func gridOf(name string, net topology.Network) (*topology.Grid, error) {
	g, ok := net.(*topology.Grid)
	if !ok {
		return nil, fmt.Errorf("traffic %s needs a torus or mesh, not %s", name, net)
	}
	return g, nil
}

// lifted is a pattern over a concentrated grid's routers applied to its terminals:
// terminal t, the (t mod c)-th of router t/c, sends to the (t mod c)-th terminal of
// the router the pattern picks for router t/c.
type lifted struct {
	c int
	p Pattern
}

func (l lifted) Dest(src int, r *rand.Rand) int { return l.p.Dest(src/l.c, r)*l.c + src%l.c }

// lift applies a pattern over g's routers to its terminals (itself when every router
// has one terminal).
func lift(g *topology.Grid, p Pattern) Pattern {
	if c := g.Concentration(); c > 1 {
		return lifted{c, p}
	}
	return p
}
