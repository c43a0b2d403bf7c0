package topology

// The size of a network counted from its spec's parameters, before anything is
// built: a caller with a memory budget (wormlab sim, deadlock) refuses a spec
// whose routers could not fit without spending the memory and time of building
// them (issue 26: a 2048x2048 torus took 0.8 GB and seconds to build before the
// simulator's estimate refused it).

import (
	"fmt"
	"strings"

	"github.com/wormlab/wormlab/internal/satarith"
)

// Size is what a spec builds: its routers, their output and input ports to other
// routers in all (as Ports and InPorts count them: a mesh's unconnected boundary
// ports too), its terminals (TerminalMap.Len) and the routers terminals inject at
// and eject from (len(Sources), len(Sinks)).
type Size struct {
	Routers, Ports, InPorts, Terminals int64
	Sources, Sinks                     int64
}

// sizes counts a kind's networks from the spec's parameters, for the kinds whose
// size follows from them (not those read from a file: file, anynet).
var sizes = map[string]func(arg string) (Size, error){}

func registerSize(name string, size func(arg string) (Size, error)) { sizes[name] = size }

// SizeOf is the size of the network Parse(spec) builds, counted from the spec
// alone in O(dimensions); ok is false for a kind read from a file, a spec that
// does not parse, and one above the kind's own bounds (MaxNodes routers or
// terminals, a grid's MaxLinks: Parse refuses those, saying why, before it
// allocates).
func SizeOf(spec string) (Size, bool) {
	name, arg, _ := strings.Cut(spec, ":")
	size, ok := sizes[name]
	if !ok {
		return Size{}, false
	}
	sz, err := size(arg)
	return sz, err == nil
}

// errBounds is a size above a kind's bounds.
var errBounds = fmt.Errorf("above the bounds of its kind")

// bounded is sz, or errBounds when its routers or its terminals (those the kind
// bounds: every kind bounds its terminals, and all but the fat-tree, which bounds
// its processors, their routers) pass MaxNodes.
func bounded(sz Size, routers bool) (Size, error) {
	if sz.Terminals > MaxNodes || routers && sz.Routers > MaxNodes {
		return Size{}, errBounds
	}
	return sz, nil
}

// uniform is the size of routers routers of ports ports in and out each and
// terms terminals each.
func uniform(routers, ports, terms int64) Size {
	p := satarith.Mul(routers, ports)
	return Size{Routers: routers, Ports: p, InPorts: p, Terminals: satarith.Mul(routers, terms), Sources: routers, Sinks: routers}
}

// grid is the size of a grid of these sides and c terminals per router (NewGrid,
// NewCMesh).
func grid(sides []int, c int) (Size, error) {
	_, n, err := gridOf(sides)
	if err != nil {
		return Size{}, err
	}
	return bounded(uniform(int64(n), int64(2*len(sides)), int64(c)), true)
}

func init() {
	torus := func(arg string) (Size, error) {
		sides, err := parseSides(arg)
		if err != nil {
			return Size{}, err
		}
		return grid(sides, 1)
	}
	registerSize("torus", torus)
	registerSize("mesh", torus)
	registerSize("cmesh", func(arg string) (Size, error) {
		sides, c, err := parseCMesh(arg)
		if err != nil {
			return Size{}, err
		}
		return grid(sides, c)
	})
	// a fat-tree of n = 4^h processors: the n leaves (one port, a terminal each),
	// n/4^l / 2 switches of six ports at levels 1 .. h-1 and n / 4^h / 2 of four at
	// the root level (NewFatTree)
	fat := func(arg string) (Size, error) {
		n, err := atoi(arg)
		if err != nil {
			return Size{}, err
		}
		h, err := fatTreeHeight(n)
		if err != nil {
			return Size{}, err
		}
		sz := uniform(int64(n), 1, 1) // the leaves
		for l := 1; l <= h; l++ {
			ports := int64(6)
			if l == h {
				ports = 4
			}
			count := int64(n >> (l + 1))
			sz.Routers += count
			sz.Ports += count * ports
			sz.InPorts += count * ports
		}
		return bounded(sz, false)
	}
	registerSize("fattree", fat)
	registerSize("fat-tree", fat)
	registerSize("dragonfly", func(arg string) (Size, error) {
		d, err := parseDragonfly(arg)
		if err != nil {
			return Size{}, err
		}
		if _, err := dragonflyOf(d.a, d.p, d.h, d.g, d.arr, d.local, d.global); err != nil {
			return Size{}, err
		}
		return bounded(uniform(satarith.Mul(int64(d.a), int64(d.g)), int64(d.a-1+d.h), int64(d.p)), true)
	})
	// a k-ary n-fly: n stages of k^(n-1) switches, k ports out of every stage but
	// the last and into every stage but the first, k^n terminals
	registerSize("fly", func(arg string) (Size, error) {
		k, n, err := parseFly(arg)
		if err != nil {
			return Size{}, err
		}
		f, err := flyOf(k, n)
		if err != nil {
			return Size{}, err
		}
		per := int64(f.per)
		p := satarith.Mul(satarith.Mul(int64(n-1), per), int64(k))
		return bounded(Size{Routers: satarith.Mul(int64(n), per), Ports: p, InPorts: p, Terminals: satarith.Mul(per, int64(k)),
			Sources: per, Sinks: per}, true)
	})
	hyperx := func(sides, mult []int, t int) (Size, error) {
		_, n, ports, err := hyperxOf(sides, mult, t)
		if err != nil {
			return Size{}, err
		}
		return bounded(uniform(int64(n), int64(ports), int64(t)), true)
	}
	registerSize("hyperx", func(arg string) (Size, error) {
		sides, mult, t, err := parseHyperX(arg)
		if err != nil {
			return Size{}, err
		}
		return hyperx(sides, mult, t)
	})
	registerSize("flatfly", func(arg string) (Size, error) {
		k, n, c, err := parseFlatfly(arg)
		if err != nil {
			return Size{}, err
		}
		sides, mult := flatflySides(k, n)
		return hyperx(sides, mult, c)
	})
}
