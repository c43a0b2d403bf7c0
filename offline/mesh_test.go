package offline

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/instances"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
	"pgregory.net/rapid"
)

// meshPath builds a message on a mesh from a walk of node names.
func meshPath(t *testing.T, net *model.Network, id string, names ...string) model.Message {
	p, err := net.PathFromNodes(names)
	require.NoError(t, err)
	return model.Message{ID: id, Path: p, L: 1}
}

func TestMeshRejectsTwoSegmentsInOneDimension(t *testing.T) {
	top, err := instances.Mesh(3, 3)
	require.NoError(t, err)
	in := &model.Instance{Net: top.Net, Flits: 1, Messages: []model.Message{
		meshPath(t, top.Net, "fine", "0,0", "1,0", "1,1"),
		meshPath(t, top.Net, "zigzag", "0,0", "1,0", "1,1", "2,1"),
	}}
	_, err = Color(in, Options{Order: OrderMesh})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `message "zigzag"`)
	assert.Contains(t, err.Error(), "two segments in dimension 0")

	in.Messages[1] = meshPath(t, top.Net, "back", "0,0", "1,0", "0,0")
	_, err = Color(in, Options{Order: OrderMesh})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `message "back"`)

	// auto falls back to the generic order and says so.
	res, err := Color(in, Options{})
	require.NoError(t, err)
	assert.Equal(t, OrderAny, res.Order)
}

func TestMeshRejectsWrapLinks(t *testing.T) {
	top, err := instances.Torus(4, 4)
	require.NoError(t, err)
	in := &model.Instance{Net: top.Net, Flits: 1, Messages: []model.Message{
		meshPath(t, top.Net, "wrap", "0,3", "0,0"),
	}}
	_, err = Color(in, Options{Order: OrderMesh})
	require.ErrorContains(t, err, `message "wrap": hop 0,3->0,0 is not a unit step`)
}

// Section 4.4: classes by order and orientation of the dimensions; on its own a
// path skipping a dimension gets the class listing the skipped dimensions last,
// positive, but MeshPlan puts it in a fitting class that already has paths; the
// entrance edges are the first edge of each segment.
func TestMeshClassesAndEntrances(t *testing.T) {
	top, err := instances.Mesh(3, 3, 3)
	require.NoError(t, err)
	net := top.Net
	in := &model.Instance{Net: net, Flits: 1, Messages: []model.Message{
		meshPath(t, net, "a", "2,0,0", "1,0,0", "1,0,1", "1,0,2"), // -0 +2, skips 1
		meshPath(t, net, "b", "0,1,0", "0,1,1"),                   // +2 only
		meshPath(t, net, "c", "1,1,1", "1,0,1", "2,0,1"),          // -1 +0
	}}
	coords, k, err := MeshCoords(net)
	require.NoError(t, err)
	require.Equal(t, 3, k)
	want := []string{"-0+2+1", "+2+0+1", "-1+0+2"}
	for i, name := range want {
		mp, err := SplitMeshPath(in, coords, k, i)
		require.NoError(t, err)
		assert.Equal(t, name, mp.Class.String())
	}
	plan, err := MeshPlan(in)
	require.NoError(t, err)
	// b traverses only +2, which class -0+2+1 (a's) lists: it joins a there.
	assert.Equal(t, [][]int{{0, 1}, {2}}, plan.Parts)
	assert.Equal(t, []string{"-0+2+1", "-1+0+2"}, plan.Names)
	assert.Equal(t, []int{in.Messages[0].Path[0], in.Messages[0].Path[1]}, plan.Entrance(0))
	assert.Equal(t, []int{in.Messages[1].Path[0]}, plan.Entrance(1))
	assert.Equal(t, 48, MeshClasses(3))
	assert.Equal(t, 8, MeshClasses(2))
}

// The reverse-lexicographic order of section 4.4: in class +0+1 (row first, then
// column) the path whose initial point has the smaller last coordinate comes first.
func TestMeshReverseLexicographic(t *testing.T) {
	top, err := instances.Mesh(4, 4)
	require.NoError(t, err)
	net := top.Net
	in := &model.Instance{Net: net, Flits: 1, Messages: []model.Message{
		meshPath(t, net, "third", "0,2", "1,2", "1,3"),
		meshPath(t, net, "second", "2,1", "3,1", "3,2"),
		meshPath(t, net, "first", "1,1", "2,1", "2,2"),
	}}
	plan, err := MeshPlan(in)
	require.NoError(t, err)
	require.Len(t, plan.Parts, 1)
	assert.Equal(t, []int{2, 1, 0}, plan.Parts[0])
}

// Packing the mesh order's keys keeps the order: sortByFrame, which sorts packed
// words when the coordinates (less their smallest) and the indices fit in 64 bits
// together, gives the reverse-lexicographic order of the frame with ties by
// index, as sortByFrameCompared does field by field. Coordinates are drawn small
// (so that they pack), negative, and near 2^31 and 2^62 (so that they do not).
func TestSortByFramePackedIsCompared(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(1, 4).Draw(t, "k")
		n := rapid.IntRange(0, 40).Draw(t, "n")
		scale := rapid.SampledFrom([]int{1, 3, 1 << 15, 1 << 31, 1 << 62}).Draw(t, "scale")
		frame := make([]int, n*k)
		for j := range frame {
			frame[j] = rapid.IntRange(-2, 2).Draw(t, "v") * (scale / 2)
		}
		part := rapid.Permutation(seq(n)).Draw(t, "part")
		part = part[:rapid.IntRange(0, n).Draw(t, "len")]
		want := slices.Clone(part)
		sortByFrameCompared(want, frame, k)
		sortByFrame(part, frame, k)
		require.Equal(t, want, part)
	})
}

// The radix sort of sortWords is a sort: on keys of any width up to 64 bits
// (an odd and an even number of 8-bit passes, and a width that is not a multiple
// of 8), enough of them to take the radix passes or too few, with repeats, it
// gives the keys in the order slices.Sort gives.
func TestSortWordsSorts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		width := rapid.SampledFrom([]int{1, 8, 13, 24, 30, 64}).Draw(t, "width")
		n := rapid.SampledFrom([]int{0, 5, 1 << 10, 3000}).Draw(t, "n")
		seed := rapid.Uint64().Draw(t, "seed")
		keys := make([]uint64, n)
		for j := range keys {
			seed = seed*6364136223846793005 + 1442695040888963407
			keys[j] = seed >> (64 - uint(width))
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		sortWords(keys, width)
		require.Equal(t, want, keys)
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// Lemma (a class's code names it): two classes of k dimensions (each
// dimension once, in any order, with any signs) have the same code exactly
// when they have the same name, for k from 1 to 6; 64 dimensions do not fit.
func TestMeshClassCode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(1, 6).Draw(t, "k")
		draw := func(label string) MeshClass {
			c := MeshClass{Dims: make([]int, k)}
			for j := range c.Dims {
				c.Dims[j] = j
			}
			c.Dims = rapid.Permutation(c.Dims).Draw(t, label+" dims")
			for range k {
				c.Sign = append(c.Sign, rapid.SampledFrom([]int{-1, 1}).Draw(t, label+" sign"))
			}
			return c
		}
		a, b := draw("a"), draw("b")
		ca, oka := a.code()
		cb, okb := b.code()
		require.True(t, oka && okb)
		require.Equal(t, a.String() == b.String(), ca == cb, "%s %d, %s %d", a, ca, b, cb)
	})
	big := MeshClass{}
	for d := range 64 {
		big.Dims, big.Sign = append(big.Dims, d), append(big.Sign, 1)
	}
	_, ok := big.code()
	require.False(t, ok, "64 dimensions in 64 bits")
}

// Lemma (the classes sorted apart are the classes sorted in turn): each mesh
// class is sorted by its own messages' frames, which no other class reads or
// writes, and each sort is a function of its class alone, so the mesh plan
// is the same whether meshPlan sorts the classes one after another or on
// several goroutines (sortApartMin; two processors at least).
func TestMeshClassesSortedApartAsInTurn(t *testing.T) {
	if old := runtime.GOMAXPROCS(0); old < 2 {
		runtime.GOMAXPROCS(2)
		defer runtime.GOMAXPROCS(old)
	}
	defer func(n int) { sortApartMin = n }(sortApartMin)
	apartDraws := 0 // draws of two classes or more: sorted on two goroutines
	rapid.Check(t, func(t *rapid.T) {
		in := meshInstance(t, rapid.IntRange(1, 3).Draw(t, "k"))
		ps := model.PathsOf(in)
		sortApartMin = math.MaxInt
		inTurn, err := meshPlan(ps)
		require.NoError(t, err)
		sortApartMin = 0
		apart, err := meshPlan(ps)
		require.NoError(t, err)
		require.Equal(t, inTurn.Parts, apart.Parts)
		require.Equal(t, inTurn.Names, apart.Names)
		starts, _, err := apart.colourOn(ps, apart.scan(ps, true), 2)
		require.NoError(t, err)
		require.NoError(t, verify.Schedule(in, model.FromStarts(in, starts)), "the plan sorted apart, coloured, must be a legal bufferless schedule")
		if len(apart.Parts) > 1 {
			apartDraws++
		}
	})
	require.Positive(t, apartDraws, "no draw of two classes or more")
}
