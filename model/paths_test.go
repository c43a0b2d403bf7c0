package model

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// requireSamePaths checks that two compact forms hold the same messages on
// networks of the same edges.
func requireSamePaths(t require.TestingT, want, got *Paths) {
	require.Equal(t, want.Net.Edges, got.Net.Edges)
	require.Equal(t, want.Len(), got.Len())
	for i := range want.Len() {
		require.Equal(t, want.ID(i), got.ID(i), "message %d", i)
		require.Equal(t, want.Path(i), got.Path(i), "message %d", i)
		require.Equal(t, want.L[i], got.L[i], "message %d", i)
	}
}

// ReadPaths reads every text as ReadInstance does: the messages of the instance
// ReadInstance reads (PathsOf), or ReadInstance's error, word for word. The texts
// are instanceText's: both path forms, fields in any order, the odd shapes the
// fast reader leaves to encoding/json, damaged texts.
func TestReadPathsAgreesWithReadInstance(t *testing.T) {
	read := 0
	rapid.Check(t, func(t *rapid.T) {
		text, _, _ := instanceText(t)
		in, err := ReadInstance(strings.NewReader(text))
		ps, perr := ReadPaths(strings.NewReader(text))
		if err != nil {
			require.EqualError(t, perr, err.Error())
			return
		}
		require.NoError(t, perr)
		requireSamePaths(t, PathsOf(in), ps)
		read++
	})
	require.Positive(t, read, "no text was an instance")
}

// Paths.valid is Instance.Validate without the reasons: on instances broken in
// each way MODEL.md forbids (an empty or repeated id, a length below 1, an empty
// path, a hop that does not continue the walk, an edge used twice, an edge out of
// range), the two agree.
func TestPathsValidAgreesWithValidate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		net := &Network{}
		for _, name := range []string{"a", "b", "c", "d"} {
			net.AddNode(name)
		}
		net.AddLink(0, 1)
		net.AddLink(1, 2)
		net.AddLink(2, 3)
		net.AddEdge(1, 2) // parallel to edge 2
		in := &Instance{Net: net, Flits: 1}
		for i := range rapid.IntRange(0, 4).Draw(t, "messages") {
			m := Message{ID: fmt.Sprintf("m%d", i), L: rapid.IntRange(0, 2).Draw(t, "L")}
			m.ID = rapid.SampledFrom([]string{m.ID, m.ID, "", "m0"}).Draw(t, "id")
			for range rapid.IntRange(0, 3).Draw(t, "hops") {
				m.Path = append(m.Path, rapid.IntRange(0, len(net.Edges)).Draw(t, "edge"))
			}
			in.Messages = append(in.Messages, m)
		}
		want := in.Validate() == nil
		// An edge out of range cannot be written as int32 faithfully in general,
		// but here every drawn index is small: PathsOf keeps it.
		require.Equal(t, want, PathsOf(in).valid(), "Validate says %v", in.Validate())
	})
}

// Lemma (appendStarts counts): the entry of a message of d hops started at s
// lists s+1 .. s+d as strconv writes them, across every carry (9 -> 10, 99 -> 100)
// and for negative starts; it is appendTimes of the same Times.
func TestAppendStartsCounts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.SampledFrom([]int{0, 8, 9, 98, 99, 995, -3, 12345}).Draw(t, "start") + rapid.IntRange(0, 3).Draw(t, "shift")
		d := rapid.IntRange(0, 20).Draw(t, "d")
		tm := Times{ID: "m<1>", Cross: []int{}}
		for k := range d {
			tm.Cross = append(tm.Cross, s+k+1)
		}
		if d > 0 {
			tm.Start = &s
		}
		require.Equal(t, string(appendTimes(nil, &tm)), string(appendStarts(nil, "m<1>", s, d)))
	})
}

// Lemma (Jackson's rule ignores the order of equal releases, solve's doc): the
// counting sort by release gives jobs sorted by release, holding the same jobs,
// and Jackson's value is the same whatever the order of the ties, so the same as
// after the comparison sort it replaces; on job lists above and below the
// counting sort's threshold with releases spread narrowly and widely, positive,
// negative (JacksonBound takes any) and at the ends of int, where the span
// hi-lo overflows (it once sized the counts from the wrapped span: a panic).
func TestJacksonCountingSort(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 200).Draw(t, "jobs")
		spread := rapid.SampledFrom([]int{1, 5, 40, 1000}).Draw(t, "spread")
		base := rapid.SampledFrom([]int{1, -20, math.MinInt64 / 2, math.MaxInt64 - 1000}).Draw(t, "base")
		extreme := rapid.IntRange(0, 3).Draw(t, "extreme") == 0
		jobs := make([]jacksonJob, n)
		for i := range jobs {
			jobs[i] = jacksonJob{r: base + rapid.IntRange(0, spread).Draw(t, "r"), rem: rapid.IntRange(1, 4).Draw(t, "rem"), q: rapid.IntRange(0, 30).Draw(t, "q")}
			if extreme && i%2 == 0 {
				jobs[i].r = rapid.SampledFrom([]int{math.MinInt64, math.MaxInt64}).Draw(t, "extreme r")
			}
		}
		var jb jackson
		got := slices.Clone(jobs)
		jb.sortByRelease(got)
		require.True(t, slices.IsSortedFunc(got, func(a, b jacksonJob) int { return cmp.Compare(a.r, b.r) }))
		key := func(x, y jacksonJob) int {
			return cmp.Or(cmp.Compare(x.r, y.r), cmp.Compare(x.rem, y.rem), cmp.Compare(x.q, y.q))
		}
		a, b := slices.Clone(jobs), slices.Clone(got)
		slices.SortFunc(a, key)
		slices.SortFunc(b, key)
		require.Equal(t, a, b, "the same jobs")
		if extreme || (base != 1 && base != -20) {
			return // the rule's slots would overflow an int
		}
		// The same jobs with the ties among equal releases in another order: the
		// value does not change.
		other := slices.Clone(got)
		for lo := 0; lo < len(other); {
			hi := lo
			for hi < len(other) && other[hi].r == other[lo].r {
				hi++
			}
			perm := rapid.Permutation(other[lo:hi]).Draw(t, "ties")
			copy(other[lo:hi], perm)
			lo = hi
		}
		require.Equal(t, jb.run(slices.Clone(got)), jb.run(other))
	})
}
