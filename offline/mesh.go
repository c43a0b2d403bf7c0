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
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strconv"

	"github.com/wormlab/wormlab/model"
)

// MeshClass is a class of section 4.4: Dims lists the dimensions in the order the
// paths traverse them, Sign[j] is +1 or -1, the direction of dimension Dims[j].
type MeshClass struct {
	Dims []int
	Sign []int
}

// String names a class by its signed dimensions in order, e.g. "+1-0".
func (c MeshClass) String() string { return string(c.appendName(nil)) }

// appendName appends the class's name (String) to b.
func (c MeshClass) appendName(b []byte) []byte {
	for j, d := range c.Dims {
		if c.Sign[j] > 0 {
			b = append(b, '+')
		} else {
			b = append(b, '-')
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	return b
}

// code returns the class as a number, one digit of base 2k a dimension (twice
// the dimension, plus 1 for a + sign), in order; ok is false when that does not
// fit in 64 bits. Two classes of one k have the same code exactly when they are
// the same: MeshPlan interns the classes of 10^6 paths by it, where building
// and hashing each one's name took a twelfth of the order.
func (c MeshClass) code() (code uint64, ok bool) {
	base := uint64(2 * len(c.Dims))
	for j, d := range c.Dims {
		if code > (math.MaxUint64-base+1)/base {
			return 0, false
		}
		digit := uint64(2 * d)
		if c.Sign[j] > 0 {
			digit++
		}
		code = code*base + digit
	}
	return code, true
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
	var mp MeshPath
	err := splitMeshPathInto(ps, coords, nil, k, i, &mp, make([]bool, k))
	return mp, err
}

// The step of an edge of a mesh (meshStep): 2 dim + 1 for a unit step up in
// dimension dim, 2 dim for one down, or one of these for an edge that is not a
// unit step.
const (
	stepNotUnit int32 = -1 // it changes a coordinate by more than one, or two coordinates
	stepNone    int32 = -2 // it changes no coordinate
)

// meshStep returns edge e's step.
func meshStep(net *model.Network, coords [][]int, k int, e int) int32 {
	ed := net.Edges[e]
	a, b := coords[ed.From], coords[ed.To]
	step := stepNone
	for j := range k {
		switch diff := b[j] - a[j]; {
		case diff == 0:
		case diff == 1 && step == stepNone:
			step = int32(2*j + 1)
		case diff == -1 && step == stepNone:
			step = int32(2 * j)
		default:
			return stepNotUnit
		}
	}
	return step
}

// meshSteps returns every edge's step (meshStep), so that splitting 10^6 paths
// reads one small array a hop instead of two nodes' coordinates.
func meshSteps(net *model.Network, coords [][]int, k int) []int32 {
	steps := make([]int32, len(net.Edges))
	for e := range steps {
		steps[e] = meshStep(net, coords, k, e)
	}
	return steps
}

// splitMeshPathInto is splitMeshPath reusing mp's slices and used (k entries),
// with the edges' steps from steps (meshSteps; nil to compute them).
func splitMeshPathInto(ps *model.Paths, coords [][]int, steps []int32, k, i int, mp *MeshPath, used []bool) error {
	net := ps.Net
	mp.Class.Dims, mp.Class.Sign, mp.Starts = mp.Class.Dims[:0], mp.Class.Sign[:0], mp.Starts[:0]
	clear(used)
	cur, curSign := -1, 0
	for pos, e := range ps.Path(i) {
		var step int32
		if steps != nil {
			step = steps[e]
		} else {
			step = meshStep(net, coords, k, int(e))
		}
		switch step {
		case stepNotUnit:
			return fmt.Errorf("offline: mesh order: message %q: hop %s is not a unit step of the coordinates", ps.ID(i), net.EdgeName(int(e)))
		case stepNone:
			return fmt.Errorf("offline: mesh order: message %q: hop %s does not change the coordinates", ps.ID(i), net.EdgeName(int(e)))
		}
		dim, sign := int(step>>1), int(step&1)*2-1
		if dim == cur && sign == curSign {
			continue
		}
		if used[dim] {
			return fmt.Errorf("offline: mesh order: message %q: two segments in dimension %d (the second begins at hop %s)", ps.ID(i), dim, net.EdgeName(int(e)))
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
	return nil
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
	plan := newPlan(ps, "mesh", k)
	steps := meshSteps(ps.Net, coords, k)
	// Each message keeps its own class (SplitMeshPath's, interned: a few classes
	// for 10^6 paths) and its number of segments, not a MeshPath of three slices.
	var (
		classes []MeshClass
		names   []string
		ids     = map[string]int32{} // the classes by name, where code does not fit
		codes   = map[uint64]int32{} // and by code
		own     = make([]int32, ps.Len())
		segs    = make([]int32, ps.Len())
		mp      MeshPath
		used    = make([]bool, k)
		key     []byte
	)
	for i := range own {
		if err := splitMeshPathInto(ps, coords, steps, k, i, &mp, used); err != nil {
			return nil, err
		}
		for _, pos := range mp.Starts {
			plan.pos = append(plan.pos, int32(pos))
		}
		plan.addEntrance()
		code, coded := mp.Class.code()
		id, ok := codes[code]
		if !coded {
			key = mp.Class.appendName(key[:0])
			id, ok = ids[string(key)]
		}
		if !ok {
			id = int32(len(classes))
			key = mp.Class.appendName(key[:0])
			if coded {
				codes[code] = id
			} else {
				ids[string(key)] = id
			}
			classes = append(classes, MeshClass{Dims: slices.Clone(mp.Class.Dims), Sign: slices.Clone(mp.Class.Sign)})
			names = append(names, string(key))
		}
		own[i], segs[i] = id, int32(len(mp.Starts))
	}
	members := make([][]int, len(classes))
	var created []int32 // classes in order of creation, for deterministic ties
	join := func(i int, c int32) {
		if members[c] == nil {
			created = append(created, c)
			members[c] = []int{}
		}
		members[c] = append(members[c], i)
	}
	for i, c := range own {
		if segs[i] == int32(k) {
			join(i, c)
		}
	}
	slices.SortFunc(created, func(a, b int32) int { return cmp.Compare(names[a], names[b]) })
	for i, c := range own {
		if segs[i] == int32(k) {
			continue
		}
		best := int32(-1)
		for _, cand := range created {
			if fits(classes[c], int(segs[i]), classes[cand]) && (best < 0 || len(members[cand]) > len(members[best])) {
				best = cand
			}
		}
		if best < 0 {
			join(i, c)
		} else {
			members[best] = append(members[best], i)
		}
	}
	slices.SortFunc(created, func(a, b int32) int {
		ca, cb := classes[a], classes[b]
		if c := slices.Compare(ca.Dims, cb.Dims); c != 0 {
			return c
		}
		return slices.Compare(cb.Sign, ca.Sign) // + before -
	})
	frame := make([]int, k*ps.Len()) // initial points in their class's frame
	sortClass := func(id int32) {
		part, c := members[id], classes[id]
		for _, i := range part {
			init := coords[ps.Net.Edges[ps.Path(i)[0]].From]
			for j, d := range c.Dims {
				frame[i*k+j] = c.Sign[j] * init[d]
			}
		}
		sortByFrame(part, frame, k)
	}
	// The classes are sorted apart, on up to GOMAXPROCS goroutines where the
	// messages are many (each writes and reads only its own messages'
	// frames): at 10^6 mesh paths the sorts took a third of the plan, on the
	// goroutine that waits for it, while the second core had done its work.
	if workers := min(runtime.GOMAXPROCS(0), len(created)); workers > 1 && ps.Len() >= sortApartMin {
		shareOut(workers, len(created), func() func(int) {
			return func(t int) { sortClass(created[t]) }
		})
	} else {
		for _, id := range created {
			sortClass(id)
		}
	}
	for _, id := range created {
		plan.Parts = append(plan.Parts, members[id])
		plan.Names = append(plan.Names, names[id])
	}
	return plan, nil
}

// sortApartMin is the least number of messages whose mesh classes are
// sorted on several goroutines (a variable so that a test can take the
// goroutines on a small instance).
var sortApartMin = 1 << 16

// sortByFrame sorts a class's messages reverse-lexicographically by their initial
// points in the class's frame (message i's at frame[i*k : i*k+k], the last
// coordinate first), then by index. When the coordinates, less their smallest,
// and the indices fit in one word together, the keys are packed (the last
// coordinate in the highest bits, the index in the lowest) and sorted as machine
// words, else compared field by field (sortByFrameCompared).
func sortByFrame(part, frame []int, k int) {
	if len(part) == 0 {
		return
	}
	lo, hi, top := frame[part[0]*k], frame[part[0]*k], 0
	for _, i := range part {
		for _, v := range frame[i*k : i*k+k] {
			lo, hi = min(lo, v), max(hi, v)
		}
		top = max(top, i)
	}
	cb, ib := bits.Len(uint(hi-lo)), bits.Len(uint(top))
	if hi-lo < 0 || k*cb+ib > 64 {
		sortByFrameCompared(part, frame, k)
		return
	}
	keys := make([]uint64, len(part))
	for r, i := range part {
		key := uint64(0)
		for j := k - 1; j >= 0; j-- {
			key = key<<cb | uint64(frame[i*k+j]-lo)
		}
		keys[r] = key<<ib | uint64(i)
	}
	sortWords(keys, k*cb+ib)
	mask := uint64(1)<<ib - 1
	for r, key := range keys {
		part[r] = int(key & mask)
	}
}

// sortWords sorts keys, words below 2^width, by a radix sort of 8-bit digits
// (one pass over the keys a digit), or by comparison when they are few: the mesh
// order's keys of 10^6 paths take four passes where the comparison sort took a
// fifth of the mesh order.
func sortWords(keys []uint64, width int) {
	if len(keys) < 1<<10 {
		slices.Sort(keys)
		return
	}
	buf := make([]uint64, len(keys))
	src, dst := keys, buf
	for shift := 0; shift < width; shift += 8 {
		var at [257]int
		for _, w := range src {
			at[(w>>uint(shift))&0xff+1]++
		}
		for d := 1; d < len(at); d++ {
			at[d] += at[d-1]
		}
		for _, w := range src {
			d := (w >> uint(shift)) & 0xff
			dst[at[d]] = w
			at[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] { // an odd number of passes
		copy(keys, src)
	}
}

// sortByFrameCompared is sortByFrame comparing the keys field by field.
func sortByFrameCompared(part, frame []int, k int) {
	slices.SortFunc(part, func(a, b int) int {
		for j := k - 1; j >= 0; j-- {
			if c := cmp.Compare(frame[a*k+j], frame[b*k+j]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	})
}

// fits reports whether a path's segments (the first segs entries of its class own)
// appear in class c in the same order with the same signs.
func fits(own MeshClass, segs int, c MeshClass) bool {
	j := 0
	for s := range segs {
		for j < len(c.Dims) && c.Dims[j] != own.Dims[s] {
			j++
		}
		if j == len(c.Dims) || c.Sign[j] != own.Sign[s] {
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
