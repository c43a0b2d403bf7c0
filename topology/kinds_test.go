package topology

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// The network kinds of issue 25, each read from its spec, written back to the same
// spec, with links that lead back (all but the butterfly are bidirected), no input
// port entered twice, and a terminal map that uses every injection and ejection port
// exactly once.
var bidirected = []string{
	"dragonfly:a=4,p=2,h=2,g=9", "dragonfly:a=4,p=2,h=2,g=9,arrangement=palmtree",
	"dragonfly:a=4,p=1,h=2,g=5", "dragonfly:a=3,p=1,h=1,g=2,local=1,global=1",
	"hyperx:4x3,t=2", "hyperx:3x3,k=2,t=1", "hyperx:2x3x2,k=1x2x3,t=1", "flatfly:k=4,n=3",
	"flatfly:k=2,n=4,c=3", "cmesh:4x4,c=4", "cmesh:3x2,c=1",
	"file:testdata/ring4.json", "anynet:testdata/tree.anynet",
}

func TestKindsRoundTripAndLinks(t *testing.T) {
	for _, spec := range append(append([]string{}, bidirected...), "fly:k=2,n=3", "fly:k=3,n=2", "fly:k=4,n=1") {
		n, err := Parse(spec)
		require.NoError(t, err, spec)
		require.Equal(t, spec, n.String())
		used := map[[2]int]bool{}
		for v := range n.Nodes() {
			for p := range n.Ports(v) {
				w, q := n.Link(v, p)
				if w < 0 {
					_, mesh := n.(*Grid)
					require.True(t, mesh, "%s: %d port %d has no link", spec, v, p)
					continue
				}
				require.False(t, used[[2]int{w, q}], "%s: input %d of %d entered twice", spec, q, w)
				require.Less(t, q, n.InPorts(w), spec)
				used[[2]int{w, q}] = true
			}
		}
		if _, mesh := n.(*Grid); !mesh {
			in := 0
			for v := range n.Nodes() {
				in += n.InPorts(v)
			}
			require.Equal(t, len(used), in, "%s: every input port is fed", spec)
		}
		m := TerminalsOf(n)
		inj, ej := map[[2]int32]bool{}, map[[2]int32]bool{}
		for tt := range m.Len() {
			require.False(t, inj[[2]int32{m.In[tt], m.InPort[tt]}], spec)
			require.False(t, ej[[2]int32{m.Out[tt], m.OutPort[tt]}], spec)
			inj[[2]int32{m.In[tt], m.InPort[tt]}] = true
			ej[[2]int32{m.Out[tt], m.OutPort[tt]}] = true
			require.Less(t, m.InPort[tt], m.Injectors[m.In[tt]], spec)
			require.Less(t, m.OutPort[tt], m.Ejectors[m.Out[tt]], spec)
			require.True(t, n.Terminal(int(m.In[tt])) && n.Terminal(int(m.Out[tt])), spec)
			require.Equal(t, tt, m.Local(int(m.Out[tt]), int(m.OutPort[tt])), spec)
		}
	}
	for _, spec := range bidirected {
		n, _ := Parse(spec)
		for v := range n.Nodes() {
			for p := range n.Ports(v) {
				w, q := n.Link(v, p)
				if w < 0 {
					continue
				}
				back, bq := n.Link(w, q)
				require.Equal(t, v, back, "%s: %d port %d -> %d port %d does not lead back", spec, v, p, w, q)
				require.Equal(t, p, bq, spec)
			}
		}
	}
}

// Kim et al. 2008, section 3.1: the routers of a group are fully connected and,
// with g = a*h + 1, every two groups are joined by exactly one global channel (a
// trunk of a*h/(g-1) otherwise); Toward names one of them from either side.
func TestDragonflyGroupsFullyConnected(t *testing.T) {
	for _, spec := range []string{"dragonfly:a=4,p=2,h=2", "dragonfly:a=4,p=2,h=2,arrangement=palmtree", "dragonfly:a=4,p=1,h=2,g=5", "dragonfly:a=6,p=3,h=3", "dragonfly:a=6,p=3,h=3,arrangement=palmtree"} {
		n, err := Parse(spec)
		require.NoError(t, err)
		d := n.(*Dragonfly)
		between := map[[2]int]int{}
		for r := range d.Nodes() {
			G := d.Group(r)
			seen := map[int]bool{}
			for p := range d.Ports(r) {
				w, _ := d.Link(r, p)
				if d.Global(p) {
					require.NotEqual(t, G, d.Group(w), spec)
					between[[2]int{G, d.Group(w)}]++
					require.Equal(t, 100, Latency(d, r, p))
				} else {
					require.Equal(t, G, d.Group(w), spec)
					require.Equal(t, p, d.LocalPort(d.Index(r), d.Index(w)))
					seen[w] = true
					require.Equal(t, 10, Latency(d, r, p))
				}
			}
			require.Len(t, seen, d.A()-1, spec)
		}
		for G := range d.G() {
			for T := range d.G() {
				if G == T {
					continue
				}
				require.Equal(t, d.Trunk(), between[[2]int{G, T}], "%s: %d -> %d", spec, G, T)
				for m := range d.Trunk() {
					r, p := d.Toward(G, T, m)
					w, _ := d.Link(r, p)
					require.Equal(t, G, d.Group(r))
					require.Equal(t, T, d.Group(w), "%s: Toward(%d, %d, %d)", spec, G, T, m)
				}
			}
		}
	}
}

// The absolute arrangement is BookSim2's: in dragonfly.cpp, the router of group G
// holding the channel to group D is (grp_output / p) + G*a with grp_output = D when
// G > D, else D - 1, and its port (after BookSim's p terminal ports) is
// a - 1 + grp_output mod p, with a = 2p and h = p.
func TestDragonflyAbsoluteIsBookSims(t *testing.T) {
	for _, p := range []int{1, 2, 3, 4} {
		d, err := NewDragonfly(2*p, p, p, 2*p*p+1, "absolute", 10, 100)
		require.NoError(t, err)
		for G := range d.G() {
			for D := range d.G() {
				if G == D {
					continue
				}
				out := D - 1
				if G > D {
					out = D
				}
				r, port := d.Toward(G, D, 0)
				require.Equal(t, out/p+G*d.A(), r)
				require.Equal(t, d.A()-1+out%p, port)
			}
		}
	}
}

// Ahn et al. 2009, section 3: a HyperX link changes exactly one coordinate; every
// router reaches each other router of its line in dimension k by K_k parallel
// links; PortDim inverts PortTo.
func TestHyperXLines(t *testing.T) {
	for _, spec := range []string{"hyperx:4x3,t=2", "hyperx:3x3,k=2,t=1", "hyperx:2x3x2,k=1x2x3,t=1", "flatfly:k=4,n=3"} {
		n, err := Parse(spec)
		require.NoError(t, err)
		x := n.(*HyperX)
		for r := range x.Nodes() {
			count := map[int]int{}
			for p := range x.Ports(r) {
				w, _ := x.Link(r, p)
				k, c := x.PortDim(r, p)
				require.Equal(t, x.Move(r, k, c), w, spec)
				diff := 0
				for j := range x.Dims() {
					if x.Coord(r, j) != x.Coord(w, j) {
						diff++
					}
				}
				require.Equal(t, 1, diff, spec)
				count[w]++
				found := false
				for m := range x.Mult(k) {
					found = found || x.PortTo(r, k, c, m) == p
				}
				require.True(t, found, "%s: port %d is no copy of PortTo(%d, %d)", spec, p, k, c)
			}
			for w, c := range count {
				k, _ := x.PortDim(r, func() int {
					for p := range x.Ports(r) {
						if v, _ := x.Link(r, p); v == w {
							return p
						}
					}
					return -1
				}())
				require.Equal(t, x.Mult(k), c, spec)
			}
		}
	}
}

// Dally and Towles, section 4.1: destination-tag routing, the digits of the
// destination from the most significant, leads every source of a k-ary n-fly to
// the last-stage switch of every destination in n-1 hops.
func TestFlyDestinationTag(t *testing.T) {
	for _, kn := range [][2]int{{2, 1}, {2, 3}, {3, 2}, {2, 4}, {4, 3}} {
		f, err := NewFly(kn[0], kn[1])
		require.NoError(t, err)
		m := TerminalsOf(f)
		require.Equal(t, pow(kn[0], kn[1]), m.Len())
		for s := range m.Len() {
			for d := range m.Len() {
				r, dst := int(m.In[s]), int(m.Out[d])
				for f.Stage(r) < f.N()-1 {
					r, _ = f.Link(r, f.DestPort(r, dst))
				}
				require.Equal(t, dst, r, "%v: %d -> %d", kn, s, d)
			}
		}
	}
}

func pow(k, n int) int {
	p := 1
	for range n {
		p *= k
	}
	return p
}

func TestFileNetworks(t *testing.T) {
	n, err := Parse("file:testdata/ring4.json")
	require.NoError(t, err)
	require.Equal(t, 6, TerminalsOf(n).Len())
	require.Equal(t, 3, Latency(n, 1, 1), "b -> c")
	a, err := Parse("anynet:testdata/tree.anynet")
	require.NoError(t, err)
	m := TerminalsOf(a)
	require.Equal(t, []int32{0, 0, 1, 1, 2, 3}, m.In)
	require.Equal(t, []int32{0, 1, 0, 1, 0, 0}, m.InPort)
	// router 0's channels in order of router number: to 1 (latency 1), to 2 (5);
	// router 2 back to 0 has the default 1
	w, _ := a.Link(0, 1)
	require.Equal(t, 2, w)
	require.Equal(t, 5, Latency(a, 0, 1))
	require.Equal(t, 1, Latency(a, 2, 0))
}

// Bad input: one error naming what is wrong.
func TestNewKindsRefuse(t *testing.T) {
	for spec, want := range map[string]string{
		"dragonfly:a=2,p=1,h=1,g=4":                      "more than a*h",
		"dragonfly:a=4,p=2,h=2,g=4":                      "do not divide evenly",
		"dragonfly:a=4,p=2,h=2,g=5,arrangement=palmtree": "palmtree needs",
		"dragonfly:a=4,h=2":                              "p: missing",
		"dragonfly:p=2,arrangement=spiral":               "unknown \"spiral\"",
		"dragonfly:p=2,x=3":                              "x: unknown parameter",
		"hyperx:4x1,t=2":                                 "dimension 1 has size 1",
		"hyperx:4x4,k=1x1x1":                             "3 multiplicities for 2 dimensions",
		"hyperx:4x4,t=0":                                 "t: 0 is below 1",
		"flatfly:k=4":                                    "want flatfly:k=K,n=N",
		"fly:k=1,n=3":                                    "k: 1 is below 2",
		"cmesh:4x4,c=0":                                  "c: 0 is below 1",
		"file:testdata/dangling.json":                    "dangling link: no router \"z\"",
		"file:testdata/duplicate.json":                   "router \"a\" listed twice",
		"file:testdata/none.json":                        "no such file",
		"anynet:testdata/gap.anynet":                     "router 1 is missing",
	} {
		_, err := Parse(spec)
		require.Error(t, err, spec)
		require.Contains(t, err.Error(), want, spec)
		require.Contains(t, err.Error(), fmt.Sprintf("%q", spec), "the spec is named")
	}
}
