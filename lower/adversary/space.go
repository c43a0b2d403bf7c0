package adversary

// The search space: worms (an endpoint pair, a path, a length) on one fixed network,
// the terminals and routers that make new paths, the range of lengths and worm
// counts, and the measures held fixed (--keep).

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/wormlab/wormlab/model"
)

// Worm is one message of a candidate: its path (edge indices) from Src to Dst and
// its length L. Paths are never modified in place: moves build new slices, so
// candidates share the paths they do not change.
type Worm struct {
	Src, Dst int
	Path     []int
	L        int
}

// Set is a candidate: worms in message order (the order matters to order-based
// arbitration, e.g. greedy's). A Set is immutable once built.
type Set struct {
	Worms []Worm
}

// clone returns a copy of s whose worm slice may be changed (the paths are shared).
func (s *Set) clone() *Set {
	return &Set{Worms: slices.Clone(s.Worms)}
}

// with returns a copy of s whose worm i is w.
func (s *Set) with(i int, w Worm) *Set {
	t := s.clone()
	t.Worms[i] = w
	return t
}

// Keep holds measures of the start instance fixed during the search: a candidate
// whose message congestion c, dilation d or worm length differs is not admitted.
// Zero means free.
type Keep struct {
	C, D, L int
}

// String lists the kept measures, "c=3,d=7,L=7" ("" when none is kept).
func (k Keep) String() string {
	var parts []string
	for _, p := range []struct {
		name string
		v    int
	}{{"c", k.C}, {"d", k.D}, {"L", k.L}} {
		if p.v > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", p.name, p.v))
		}
	}
	return strings.Join(parts, ",")
}

// Space is what a search may build: worms on Net between Sources and Dests, routed
// by Routers, of MinL..MaxL flits, MinWorms..MaxWorms of them, with the Keep
// measures fixed.
type Space struct {
	// Name names the network in instance names and reports ("levelled:3x8x3", or
	// the start instance's name); Family and Size classify it for the corpus
	// ("levelled", "3x8x3").
	Name, Family, Size string
	Net                *model.Network
	// Params is written as the instances' "topology" field (nil: none).
	Params map[string]any
	// Sources and Dests are the terminals (node indices) new worms start and end at.
	Sources, Dests []int
	// Routers make paths; every move that routes draws one of them.
	Routers []Router
	// Lengths MinL..MaxL (1 <= MinL <= MaxL).
	MinL, MaxL int
	// Worm counts MinWorms..MaxWorms (1 <= MinWorms <= MaxWorms).
	MinWorms, MaxWorms int
	Keep               Keep
	// Slack is how many hops longer than a shortest path the simple-path router may
	// go (default 2).
	Slack int

	// Filled by Prepare, read-only afterwards (the chains share them):
	// dist[dst][u] is the hop distance from u to dst (-1: unreachable);
	// paths[dst][u] the number of shortest paths from u to dst.
	dist  map[int][]int
	paths map[int][]float64
}

// Prepare computes the distance tables the routers and moves read, for every
// destination: O(|Dests| (nodes + edges)) time and O(|Dests| nodes) memory. It
// must be called before the search (the engine does) and not concurrently.
func (sp *Space) Prepare() {
	if sp.dist != nil {
		return
	}
	n := len(sp.Net.Nodes)
	sp.dist = make(map[int][]int, len(sp.Dests))
	for _, t := range sp.Dests {
		if _, done := sp.dist[t]; done {
			continue
		}
		d := make([]int, n)
		for i := range d {
			d[i] = -1
		}
		d[t] = 0
		queue := []int{t}
		for q := 0; q < len(queue); q++ {
			v := queue[q]
			for _, e := range sp.Net.In(v) {
				if u := sp.Net.Edges[e].From; d[u] < 0 {
					d[u] = d[v] + 1
					queue = append(queue, u)
				}
			}
		}
		sp.dist[t] = d
	}
	// Shortest paths counted in increasing distance: a node's count is the sum
	// over the out-edges one hop closer of counts already known (floating point:
	// the counts grow exponentially with the distance).
	sp.paths = make(map[int][]float64, len(sp.Dests))
	for t, d := range sp.dist {
		order := make([]int, 0, n)
		for u := range d {
			if d[u] >= 0 {
				order = append(order, u)
			}
		}
		slices.SortFunc(order, func(a, b int) int { return d[a] - d[b] })
		c := make([]float64, n)
		for _, u := range order {
			if u == t {
				c[u] = 1
				continue
			}
			for _, e := range sp.Net.Out(u) {
				if v := sp.Net.Edges[e].To; d[v] == d[u]-1 {
					c[u] += c[v]
				}
			}
		}
		sp.paths[t] = c
	}
}

func (sp *Space) distTo(dst int) []int      { return sp.dist[dst] }
func (sp *Space) pathsTo(dst int) []float64 { return sp.paths[dst] }
func (sp *Space) slack() int {
	if sp.Slack <= 0 {
		return 2
	}
	return sp.Slack
}

// Check reports a space the search cannot use, naming the field.
func (sp *Space) Check() error {
	switch {
	case sp.Net == nil:
		return fmt.Errorf("adversary: no network")
	case len(sp.Sources) == 0 || len(sp.Dests) == 0:
		return fmt.Errorf("adversary: network %s has no terminals", sp.Name)
	case len(sp.Routers) == 0:
		return fmt.Errorf("adversary: no router")
	case sp.MinL < 1 || sp.MaxL < sp.MinL:
		return fmt.Errorf("flits: %d:%d is not a range of lengths from 1 up", sp.MinL, sp.MaxL)
	case sp.MinWorms < 1 || sp.MaxWorms < sp.MinWorms:
		return fmt.Errorf("messages: %d..%d is not a range of worm counts from 1 up", sp.MinWorms, sp.MaxWorms)
	case sp.Keep.L > 0 && (sp.Keep.L < sp.MinL || sp.Keep.L > sp.MaxL):
		return fmt.Errorf("keep: L = %d is outside the lengths %d:%d", sp.Keep.L, sp.MinL, sp.MaxL)
	}
	return nil
}

// Instance returns the candidate as an instance named name on the space's network,
// messages "m0", "m1", ..., with the space's topology parameters.
func (sp *Space) Instance(name string, s *Set) *model.Instance {
	flits := 0
	if len(s.Worms) > 0 {
		flits = s.Worms[0].L
	}
	in := &model.Instance{Name: name, Net: sp.Net, Flits: flits, Messages: make([]model.Message, len(s.Worms))}
	if sp.Params != nil {
		in.SetExtra("topology", sp.Params)
	}
	for i, w := range s.Worms {
		in.Messages[i] = model.Message{ID: fmt.Sprintf("m%d", i), Path: w.Path, L: w.L}
	}
	return in
}

// FromInstance returns the instance's messages as a Set on the space (the
// instance's network must be the space's).
func FromInstance(in *model.Instance) *Set {
	s := &Set{Worms: make([]Worm, len(in.Messages))}
	for i, m := range in.Messages {
		s.Worms[i] = Worm{Src: in.Net.Edges[m.Path[0]].From, Dst: in.Net.Edges[m.Path[len(m.Path)-1]].To,
			Path: m.Path, L: m.L}
	}
	return s
}

// loads returns c_e for every edge.
func (sp *Space) loads(s *Set) []int {
	load := make([]int, len(sp.Net.Edges))
	for _, w := range s.Worms {
		for _, e := range w.Path {
			load[e]++
		}
	}
	return load
}

// Measures of a candidate that Keep can hold fixed.
func measures(sp *Space, s *Set) (c, d int) {
	load := sp.loads(s)
	for _, v := range load {
		c = max(c, v)
	}
	for _, w := range s.Worms {
		d = max(d, len(w.Path))
	}
	return c, d
}

// Admit reports whether a candidate lies in the space: its worm count and lengths
// in range and the kept measures unchanged.
func (sp *Space) Admit(s *Set) bool {
	if len(s.Worms) < sp.MinWorms || len(s.Worms) > sp.MaxWorms {
		return false
	}
	for _, w := range s.Worms {
		if w.L < sp.MinL || w.L > sp.MaxL || (sp.Keep.L > 0 && w.L != sp.Keep.L) {
			return false
		}
	}
	if sp.Keep.C > 0 || sp.Keep.D > 0 {
		c, d := measures(sp, s)
		if (sp.Keep.C > 0 && c != sp.Keep.C) || (sp.Keep.D > 0 && d != sp.Keep.D) {
			return false
		}
	}
	return true
}

// length draws a worm length: the kept L, or uniform in MinL..MaxL.
func (sp *Space) length(r *rand.Rand) int {
	if sp.Keep.L > 0 {
		return sp.Keep.L
	}
	return sp.MinL + r.IntN(sp.MaxL-sp.MinL+1)
}

// route draws a path from src to dst with a router drawn at random.
func (sp *Space) route(src, dst int, r *rand.Rand) ([]int, bool) {
	if src == dst {
		return nil, false
	}
	return sp.Routers[r.IntN(len(sp.Routers))].Route(sp, src, dst, r)
}

// randomWorm draws endpoints, a path and a length (100 tries).
func (sp *Space) randomWorm(r *rand.Rand) (Worm, bool) {
	for range 100 {
		s := sp.Sources[r.IntN(len(sp.Sources))]
		d := sp.Dests[r.IntN(len(sp.Dests))]
		if p, ok := sp.route(s, d, r); ok {
			return Worm{s, d, p, sp.length(r)}, true
		}
	}
	return Worm{}, false
}

// RandomSet draws n random worms. It fails when no two terminals are joined by a
// path.
func (sp *Space) RandomSet(n int, r *rand.Rand) (*Set, error) {
	s := &Set{Worms: make([]Worm, 0, n)}
	for len(s.Worms) < n {
		w, ok := sp.randomWorm(r)
		if !ok {
			return nil, fmt.Errorf("network %s: no two terminals are joined by a path", sp.Name)
		}
		s.Worms = append(s.Worms, w)
	}
	return s, nil
}

// newRand is a PCG source seeded by seed, the one way the package seeds.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x616476657273)) }
