package offline

// The k-dimensional mesh order of Ranade, Schleimer and Wilkerson (seed 002,
// section 4.4). Every path runs at most one straight segment in each dimension. The
// paths fall into 2^k k! classes by the order in which they traverse the dimensions
// and the direction of each; within a class the paths are ordered
// reverse-lexicographically by the coordinates of their initial points (the last
// dimension traversed decides first), and the entrance set of a path is its first
// edge and every edge following a corner. Lemma 7: that order is k-entrant. The
// classes are coloured one after another in time.
//
// A path that skips a dimension belongs to every class that agrees with the
// dimensions it does traverse (MeshPlan picks one). Lemma 7's argument carries
// over: a skipped dimension is a segment of length 0, with no entrance edge.

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/model"
)

// MeshClass is a class of section 4.4: Dims lists the dimensions in the order the
// paths traverse them, Sign[j] is +1 or -1, the direction of dimension Dims[j].
type MeshClass struct {
	Dims []int
	Sign []int
}

// String names a class by its signed dimensions in order, e.g. "+1-0".
func (c MeshClass) String() string {
	var b strings.Builder
	for j, d := range c.Dims {
		if c.Sign[j] > 0 {
			b.WriteByte('+')
		} else {
			b.WriteByte('-')
		}
		b.WriteString(strconv.Itoa(d))
	}
	return b.String()
}

// MeshPath describes one message's path on a mesh: its class and the positions
// (0-based) on the path where its segments begin.
type MeshPath struct {
	Class  MeshClass
	Starts []int
}

// MeshCoords returns the network's coordinates and their dimension k, with an error
// when the network carries none or they disagree in length.
func MeshCoords(net *model.Network) ([][]int, int, error) {
	cs, ok, err := net.Coords()
	if err != nil {
		return nil, 0, err
	}
	if !ok {
		return nil, 0, fmt.Errorf("offline: mesh order: the network carries no \"coords\"")
	}
	k := -1
	for u, c := range cs {
		if k < 0 {
			k = len(c)
		} else if len(c) != k {
			return nil, 0, fmt.Errorf("offline: mesh order: node %q has %d coordinates, node %q has %d", net.Nodes[u], len(c), net.Nodes[0], k)
		}
	}
	if k <= 0 {
		return nil, 0, fmt.Errorf("offline: mesh order: the coordinates have no dimension")
	}
	return cs, k, nil
}

// SplitMeshPath finds the segments of message i's path. Every hop must change one
// coordinate by one; a path that runs two segments in the same dimension (or turns
// back) does not fit section 4.4, and the error names the message.
func SplitMeshPath(in *model.Instance, coords [][]int, k, i int) (MeshPath, error) {
	return splitMeshPath(model.PathsOf(in), coords, k, i)
}

func splitMeshPath(ps *model.Paths, coords [][]int, k, i int) (MeshPath, error) {
	net := ps.Net
	var mp MeshPath
	used := make([]bool, k)
	cur, curSign := -1, 0
	for pos, e := range ps.Path(i) {
		ed := net.Edges[e]
		a, b := coords[ed.From], coords[ed.To]
		dim, sign := -1, 0
		for j := range k {
			switch diff := b[j] - a[j]; {
			case diff == 0:
			case (diff == 1 || diff == -1) && dim < 0:
				dim, sign = j, diff
			default:
				return mp, fmt.Errorf("offline: mesh order: message %q: hop %s is not a unit step of the coordinates", ps.ID(i), net.EdgeName(int(e)))
			}
		}
		if dim < 0 {
			return mp, fmt.Errorf("offline: mesh order: message %q: hop %s does not change the coordinates", ps.ID(i), net.EdgeName(int(e)))
		}
		if dim == cur && sign == curSign {
			continue
		}
		if used[dim] {
			return mp, fmt.Errorf("offline: mesh order: message %q: two segments in dimension %d (the second begins at hop %s)", ps.ID(i), dim, net.EdgeName(int(e)))
		}
		used[dim] = true
		cur, curSign = dim, sign
		mp.Class.Dims = append(mp.Class.Dims, dim)
		mp.Class.Sign = append(mp.Class.Sign, sign)
		mp.Starts = append(mp.Starts, pos)
	}
	for j := range k {
		if !used[j] {
			mp.Class.Dims = append(mp.Class.Dims, j)
			mp.Class.Sign = append(mp.Class.Sign, 1)
		}
	}
	return mp, nil
}

// MeshPlan builds the mesh order of section 4.4 from the network's "coords": one
// part per non-empty class (classes in a fixed order: by dimension order, then by
// signs), each in reverse-lexicographic order of the initial points seen in the
// class's frame (coordinate j of the frame is Sign[j] times coordinate Dims[j]), and
// the entrance edge of every segment. It fails, naming the message, on a path that
// does not fit.
//
// A path that skips dimensions fits every class that lists its segments' signed
// dimensions in its order; it joins the fitting class that already holds most paths
// (the paths traversing every dimension fix the classes first), and only when none
// fits the class of SplitMeshPath. Fewer classes mean a smaller bound, since the
// classes are laid one after another in time.
func MeshPlan(in *model.Instance) (*Plan, error) { return meshPlan(model.PathsOf(in)) }

func meshPlan(ps *model.Paths) (*Plan, error) {
	coords, k, err := MeshCoords(ps.Net)
	if err != nil {
		return nil, err
	}
	plan := &Plan{Order: "mesh", K: k, Entrance: make([][]int, ps.Len())}
	paths := make([]MeshPath, ps.Len())
	var arena []int // the entrance sets, k edges at most each
	for i := range paths {
		mp, err := splitMeshPath(ps, coords, k, i)
		if err != nil {
			return nil, err
		}
		paths[i] = mp
		p := ps.Path(i)
		if cap(arena)-len(arena) < len(mp.Starts) {
			arena = make([]int, 0, max(1<<14, len(mp.Starts)))
		}
		n := len(arena)
		for _, pos := range mp.Starts {
			arena = append(arena, int(p[pos]))
		}
		plan.Entrance[i] = arena[n:len(arena):len(arena)]
	}
	byClass := map[string][]int{}
	class := map[string]MeshClass{}
	var names []string // classes in order of creation, for deterministic ties
	join := func(i int, c MeshClass) {
		name := c.String()
		if _, ok := class[name]; !ok {
			class[name] = c
			names = append(names, name)
		}
		byClass[name] = append(byClass[name], i)
	}
	for i, mp := range paths {
		if len(mp.Starts) == k {
			join(i, mp.Class)
		}
	}
	slices.Sort(names)
	for i, mp := range paths {
		if len(mp.Starts) == k {
			continue
		}
		best := ""
		for _, name := range names {
			if fits(mp, class[name]) && (best == "" || len(byClass[name]) > len(byClass[best])) {
				best = name
			}
		}
		if best == "" {
			join(i, mp.Class)
		} else {
			byClass[best] = append(byClass[best], i)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		ca, cb := class[a], class[b]
		if c := slices.Compare(ca.Dims, cb.Dims); c != 0 {
			return c
		}
		return slices.Compare(cb.Sign, ca.Sign) // + before -
	})
	frame := make([]int, k*ps.Len()) // initial points in their class's frame
	for _, name := range names {
		part, c := byClass[name], class[name]
		for _, i := range part {
			init := coords[ps.Net.Edges[ps.Path(i)[0]].From]
			for j, d := range c.Dims {
				frame[i*k+j] = c.Sign[j] * init[d]
			}
		}
		slices.SortFunc(part, func(a, b int) int {
			for j := k - 1; j >= 0; j-- {
				if c := cmp.Compare(frame[a*k+j], frame[b*k+j]); c != 0 {
					return c
				}
			}
			return cmp.Compare(a, b)
		})
		plan.Parts = append(plan.Parts, part)
		plan.Names = append(plan.Names, name)
	}
	return plan, nil
}

// fits reports whether a path's segments (the first len(mp.Starts) entries of its
// class) appear in class c in the same order with the same signs.
func fits(mp MeshPath, c MeshClass) bool {
	j := 0
	for s := range mp.Starts {
		for j < len(c.Dims) && c.Dims[j] != mp.Class.Dims[s] {
			j++
		}
		if j == len(c.Dims) || c.Sign[j] != mp.Class.Sign[s] {
			return false
		}
	}
	return true
}

// MeshClasses returns 2^k k!, the number of classes of section 4.4.
func MeshClasses(k int) int {
	n := 1 << k
	for j := 2; j <= k; j++ {
		n *= j
	}
	return n
}
