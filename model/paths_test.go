package model

import (
	"bytes"
	"cmp"
	"encoding/json"
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

// requireReadPathsAgrees checks that ReadPaths reads text as ReadInstance does:
// the messages of the instance ReadInstance reads (PathsOf), or ReadInstance's
// error, word for word. It reports whether text is an instance.
func requireReadPathsAgrees(t require.TestingT, text []byte) (read bool) {
	in, err := ReadInstance(bytes.NewReader(text))
	ps, perr := ReadPaths(bytes.NewReader(text))
	if err != nil {
		require.EqualError(t, perr, err.Error())
		return false
	}
	require.NoError(t, perr)
	requireSamePaths(t, PathsOf(in), ps)
	return true
}

// ReadPaths reads every text as ReadInstance does (requireReadPathsAgrees). The
// texts are instanceText's: both path forms, fields in any order, the odd shapes
// the fast reader leaves to encoding/json, damaged texts.
func TestReadPathsAgreesWithReadInstance(t *testing.T) {
	read := 0
	rapid.Check(t, func(t *rapid.T) {
		text, _, _ := instanceText(t)
		if requireReadPathsAgrees(t, []byte(text)) {
			read++
		}
	})
	require.Positive(t, read, "no text was an instance")
}

// Paths.valid is Instance.Validate without the reasons: on instances broken in
// each way MODEL.md forbids (an empty or repeated id, a length below 1, an empty
// path, a hop that does not continue the walk, an edge used twice, an edge out of
// range), the two agree.
func TestPathsValidAgreesWithValidate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		net := nodesNet("a", "b", "c", "d")
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
		require.Equal(t, want, PathsOf(in).valid(false), "Validate says %v", in.Validate())
	})
}

// Lemma (appendStarts counts): the entry of a message of d hops started at s
// lists s+1 .. s+d as strconv writes them, across every carry (9 -> 10, 99 -> 100)
// and for negative starts, from small starts to starts of nine digits; it is
// appendTimes of the same Times.
func TestAppendStartsCounts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.SampledFrom([]int{0, 8, 9, 98, 99, 995, -3, 12345, 999_990, 9_999_990, 99_999_990, 123_456_789}).Draw(t, "start") + rapid.IntRange(0, 3).Draw(t, "shift")
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

// trickyNames are node names the hop index (nameKey: the first 7 bytes and the
// length up to 255) must tell apart: names sharing 7 bytes, 7 against 8 bytes,
// names longer than 255 bytes differing only at their end, multi-byte UTF-8,
// quotes and backslashes (escaped in any text), a name that is a prefix of
// another.
var trickyNames = []string{
	"r", "router-", "router-1", "router-10", "router-11", "router-1é",
	"abcdefg", "abcdefgh", "abcdefgi", "abcdefg\u00e9",
	strings.Repeat("x", 300) + "1", strings.Repeat("x", 300) + "2", strings.Repeat("x", 255),
	"é", "\u2603", `a"b`, `a\b`,
}

// jsonName writes a name as a JSON string: plainly (escaping only what JSON
// requires) or every character as \u escapes.
func jsonName(t *rapid.T, name, label string) (text string, plain bool) {
	q, _ := json.Marshal(name)
	if rapid.IntRange(0, 4).Draw(t, label) > 0 {
		return string(q), !strings.Contains(string(q), `\`)
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range name {
		if r > 0xffff {
			b.WriteString(string(q[1 : len(q)-1]))
			break
		}
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	b.WriteByte('"')
	return b.String(), false
}

// trickyInstanceText draws the text of an instance on a random network of
// trickyNames (parallel edges and loops allowed; names written plainly or
// escaped), messages walking it by names or by edge indices (some huge, some past
// int32, one that wraps to a valid int32 index), lengths in odd number forms,
// ids repeated, empty, escaped or non-ASCII, the messages before or after the
// network, odd white space. plain says the fast reader should read it itself.
func trickyInstanceText(t *rapid.T) (text string, plain bool) {
	plain = true
	ws := func(label string) string {
		return rapid.SampledFrom([]string{"", " ", "\n\t", "\r\n  "}).Draw(t, label)
	}
	perm := rapid.Permutation(trickyNames).Draw(t, "names")
	names := perm[:rapid.IntRange(1, 8).Draw(t, "nodes")]
	type edge struct{ from, to int }
	var edges []edge
	for range rapid.IntRange(0, 14).Draw(t, "edges") {
		edges = append(edges, edge{rapid.IntRange(0, len(names)-1).Draw(t, "from"), rapid.IntRange(0, len(names)-1).Draw(t, "to")})
	}
	var nodesText, edgesText []string
	for i, n := range names {
		q, _ := jsonName(t, n, fmt.Sprintf("node %d", i))
		nodesText = append(nodesText, q)
	}
	for i, e := range edges {
		a, _ := jsonName(t, names[e.from], fmt.Sprintf("edge %d from", i))
		b, _ := jsonName(t, names[e.to], fmt.Sprintf("edge %d to", i))
		edgesText = append(edgesText, "["+a+","+ws("ews")+b+"]")
	}
	fields := []string{`"network":` + ws("nws") + `{"nodes": [` + strings.Join(nodesText, ","+ws("nsep")) +
		`], "edges": [` + strings.Join(edgesText, ","+ws("esep")) + `]}`}
	if rapid.Bool().Draw(t, "has flits") {
		fields = append(fields, `"flits": `+rapid.SampledFrom([]string{"1", "3", "4611686018427387904"}).Draw(t, "flits"))
	}
	var msgs []string
	for i := range rapid.IntRange(0, 6).Draw(t, "messages") {
		id := rapid.SampledFrom([]string{fmt.Sprintf("m%d", i), fmt.Sprintf("m%d", i), "m0", "", "é" + fmt.Sprint(i), fmt.Sprintf("m\"%d", i)}).Draw(t, "id")
		idText, idPlain := jsonName(t, id, "id text")
		plain = plain && idPlain
		parts := []string{`"id":` + ws("iws") + idText}
		walk, hops := drawWalk(t, len(names), len(edges), func(e int) (int, int) { return edges[e].from, edges[e].to })
		if rapid.Bool().Draw(t, "by edges") {
			var es []string
			for _, e := range hops {
				es = append(es, fmt.Sprint(e))
			}
			if rapid.IntRange(0, 4).Draw(t, "odd edges") == 0 {
				plain = false
				es = append(es, rapid.SampledFrom([]string{"-1", "2147483648", "4294967296", "4294967297",
					"9223372036854775807", "9223372036854775808", "1.0", "01", "-0", "1e0"}).Draw(t, "odd edge"))
			}
			parts = append(parts, `"edges": [`+strings.Join(es, ","+ws("hsep"))+`]`)
		} else {
			var ns []string
			for k, v := range walk {
				q, p := jsonName(t, names[v], fmt.Sprintf("hop %d", k))
				plain = plain && p
				ns = append(ns, q)
			}
			if rapid.IntRange(0, 2).Draw(t, "odd node") == 0 {
				plain = false
				// A name the network may lack (a prefix, an extension, the last
				// byte changed) in place of the walk's last node.
				n := names[walk[len(walk)-1]]
				odd := rapid.SampledFrom([]string{n[:len(n)/2], n + "0", n[:len(n)-1] + "3"}).Draw(t, "odd name")
				q, _ := json.Marshal(odd)
				if len(ns) > 1 {
					ns[len(ns)-1] = string(q)
				} else {
					ns = append(ns, string(q))
				}
			}
			parts = append(parts, `"path": [`+strings.Join(ns, ","+ws("psep"))+`]`)
		}
		if rapid.Bool().Draw(t, "own flits") {
			fl := rapid.SampledFrom([]string{"1", "2", "4611686018427387904", "0", "01", "1.0", "1e0", "-0", "9223372036854775807", "9223372036854775808"}).Draw(t, "own flits value")
			if fl != "1" && fl != "2" && fl != "4611686018427387904" {
				plain = false
			}
			parts = append(parts, `"flits":`+ws("fws")+fl)
		}
		if rapid.IntRange(0, 5).Draw(t, "repeat key") == 0 {
			plain = false
			parts = append(parts, parts[len(parts)-1])
		}
		parts = rapid.Permutation(parts).Draw(t, "message keys")
		msgs = append(msgs, "{"+ws("ows")+strings.Join(parts, ","+ws("ksep"))+ws("cws")+"}")
	}
	fields = append(fields, `"messages": [`+strings.Join(msgs, ","+ws("msep"))+`]`)
	fields = rapid.Permutation(fields).Draw(t, "top keys")
	return ws("lead") + "{" + strings.Join(fields, ","+ws("tsep")) + "}" + ws("trail"), plain
}

// ReadPaths reads every trickyInstanceText as ReadInstance does (its messages, or
// its error word for word), and the fast reader agrees with encoding/json's path
// or declines (requireFastAgrees); a plain text that ReadInstance accepts is the
// fast reader's own (the hop index finds every hop of a plain path of names).
func TestReadPathsAgreesOnTrickyNetworks(t *testing.T) {
	read, fast := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		text, plain := trickyInstanceText(t)
		ok := requireFastAgrees(t, []byte(text))
		if !requireReadPathsAgrees(t, []byte(text)) {
			require.False(t, ok, "the fast reader accepted what ReadInstance refuses: %s", text)
			return
		}
		require.True(t, ok || !plain, "the fast reader declined the plain valid text %s", text)
		read++
		if ok {
			fast++
		}
	})
	require.Positive(t, read, "no text was an instance")
	require.Positive(t, fast, "the fast reader read no text")
}

// A network whose names are the nodes' indices in decimal ("0", "1", ...) lets
// the fast reader take a path's first node from its digits (namePath)
// instead of a lookup; that is only a shortcut when the digits name a node
// exactly, so every other first name ("01", "-0", a number past the nodes, a
// digit that is not ASCII, a name that only looks like a number) reads as
// ReadInstance reads it (requireReadPathsAgrees), on networks where the names
// are in index order (numeric) and where two are swapped (not numeric), with
// their edges, with an edge twice (a path over it is ambiguous) or with none,
// and with the numeric networks' edges found by the nodes' parents (treeIndex:
// the networks are lines), by their ends (pairTable) or among their tails'
// out-edges (without the table, as on a network too large for it).
// And the shortcut is taken: the fast reader's scanner, given the network's hop
// index as parseFast gives it, reads a walk of a network of numeric names whole
// through its nodes (kept, where the loop of other names keeps none), and takes
// no message of the others through it (so the test fails with the shortcut
// disabled, which the agreement alone cannot see).
func TestReadPathsNumericNames(t *testing.T) {
	read, short := 0, 0
	defer func(n int) { pairTableNodes = n }(pairTableNodes)
	defer func(b bool) { treeIndexes = b }(treeIndexes)
	rapid.Check(t, func(t *rapid.T) {
		pairTableNodes = 1 << pairNodeBits
		treeIndexes = rapid.Bool().Draw(t, "tree index")
		if rapid.Bool().Draw(t, "no pair table") {
			pairTableNodes = 0
		}
		// Two nodes at least, and walks of two nodes at least: a path of one
		// node is refused (TestOneNodePathNamesTheNode), and rapid's small
		// draws made most texts hold one, so that under -short (20 texts)
		// some runs read no instance.
		n := rapid.IntRange(2, 12).Draw(t, "nodes")
		names := make([]string, n)
		for u := range names {
			names[u] = fmt.Sprint(u)
		}
		swapped := n > 1 && rapid.Bool().Draw(t, "swap")
		if swapped {
			names[0], names[n-1] = names[n-1], names[0]
		}
		net := &Network{Nodes: names}
		var edges []string
		for u := range n - 1 {
			edges = append(edges, fmt.Sprintf("[%q,%q]", names[u], names[u+1]), fmt.Sprintf("[%q,%q]", names[u+1], names[u]))
			net.Edges = append(net.Edges, Edge{u, u + 1}, Edge{u + 1, u})
		}
		twice := len(edges) > 0 && rapid.IntRange(0, 3).Draw(t, "edge twice") == 0
		if twice {
			j := rapid.IntRange(0, len(edges)-1).Draw(t, "twice")
			edges = append(edges, edges[j])
			net.Edges = append(net.Edges, net.Edges[j])
		}
		if rapid.IntRange(0, 5).Draw(t, "edges dropped") == 0 {
			edges = nil // every path of two nodes or more names a missing hop
			net.Edges = nil
		}
		hop := newHopIndex(net)
		require.Equal(t, !swapped, hop.numeric, "names %v", names)
		var msgs []string
		for i := range rapid.IntRange(1, 5).Draw(t, "messages") {
			from := rapid.IntRange(0, n-1).Draw(t, "from")
			to := rapid.IntRange(0, n-2).Draw(t, "to")
			if to >= from {
				to++
			}
			var walk []string
			for u := from; ; u += cmp.Compare(to, from) {
				walk = append(walk, fmt.Sprintf("%q", names[u]))
				if u == to {
					break
				}
			}
			first := walk[0]
			if rapid.IntRange(0, 3).Draw(t, "odd first name") == 0 {
				walk[0] = rapid.SampledFrom([]string{`"0` + walk[0][1:], `"-0"`, `"-1"`,
					fmt.Sprintf("%q", fmt.Sprint(n)), fmt.Sprintf("%q", fmt.Sprint(n+10)), `"١"`, `"1.0"`, `""`,
					`"1234567890"`, `"99999999999999999999"`, `"\u0031"`}).Draw(t, "first name")
			}
			// Names written as wormlab gen writes them (numericNames reads
			// those by the word), or with spaces (namePath's loop).
			sep := rapid.SampledFrom([]string{",", ", "}).Draw(t, "separator")
			msg := fmt.Sprintf(`{"id": "m%d", "path": [%s]}`, i, strings.Join(walk, sep))
			msgs = append(msgs, msg)
			// a walk of the network's own names, with no edge twice, the
			// shortcut reads whole
			p := fastScanner{data: []byte(msg), hop: hop}
			_, _, _, ok := p.rawMessage(&Instance{Net: net})
			if !swapped {
				if walk[0] == first && len(walk) > 1 && net.Edges != nil && !twice {
					require.True(t, ok, "the numeric-names shortcut declined %s", msg)
					require.Len(t, p.nodes, len(walk), "the numeric-names shortcut read %s", msg)
					short++
				}
			} else {
				require.Empty(t, p.nodes, "the numeric-names shortcut read %s on names %v", msg, names)
			}
		}
		text := fmt.Sprintf(`{"network": {"nodes": [%s], "edges": [%s]}, "messages": [%s]}`,
			`"`+strings.Join(names, `","`)+`"`, strings.Join(edges, ", "), strings.Join(msgs, ", "))
		if requireReadPathsAgrees(t, []byte(text)) {
			read++
		}
	})
	require.Positive(t, read, "no text was an instance")
	require.Positive(t, short, "no path took the numeric-names shortcut")
}

// A path of no name or of one on a network of numeric names (namePath) is
// refused as ReadInstance refuses it (an empty path; a walk of one node has no
// hop), with its error and no panic.
func TestReadPathsNumericShortPaths(t *testing.T) {
	for _, path := range []string{`[]`, `["0"]`, `["1"]`, `["x"]`} {
		text := `{"network": {"nodes": ["0", "1"], "edges": [["0", "1"]]}, "messages": [{"id": "m", "path": ` + path + `}]}`
		require.False(t, requireReadPathsAgrees(t, []byte(text)), path)
	}
}

// Lemma (Paths.Measure is computed once, whoever asks first): first calls on
// two goroutines at once (cmd/wormlab's color: the colorer and the lower bound)
// give the instance's measures, in the same shared slices; go test -race finds
// no race between them.
func TestPathsMeasureOnceAcrossGoroutines(t *testing.T) {
	in, err := ParseInstance([]byte(`{"network": {"edges": [["a", "b"], ["b", "c"]]}, "flits": 2,
		"messages": [{"id": "x", "path": ["a", "b", "c"]}, {"id": "y", "path": ["b", "c"]}]}`))
	require.NoError(t, err)
	ps := PathsOf(in)
	other := make(chan Measures)
	go func() { other <- ps.Measure() }()
	ms := ps.Measure()
	ms2 := <-other
	require.Equal(t, in.Measure(), ms)
	require.Same(t, &ms.Load[0], &ms2.Load[0], "the measures computed once")
}

// Lemma (the ids checked on two cores): uniqueIDs, its ids hashed in two halves
// and parted by their hash's top bit between two tables (asked for from one
// message on, two processors at least), reports duplicate ids exactly when a
// map of the ids finds one, on ids drawn from a few short strings (so that
// most draws repeat one).
func TestUniqueIDsSplit(t *testing.T) {
	twoProcs(t)
	old := uniqueSplitMin
	uniqueSplitMin = 1
	defer func() { uniqueSplitMin = old }()
	repeated := 0
	rapid.Check(t, func(t *rapid.T) {
		ids := rapid.SliceOfN(rapid.StringMatching(`[ab]{1,4}`), 1, 40).Draw(t, "ids")
		p := &Paths{Off: []int{0}, idOff: []int{0}}
		seen, want := map[string]bool{}, true
		for _, id := range ids {
			p.ids = append(p.ids, id...)
			p.idOff = append(p.idOff, len(p.ids))
			p.L = append(p.L, 1)
			if seen[id] {
				want = false
			}
			seen[id] = true
		}
		if !want {
			repeated++
		}
		require.Equal(t, want, p.uniqueIDs(), "ids %q", ids)
	})
	require.Positive(t, repeated, "no draw repeated an id")
}

// Lemma (the halves' checks are the whole's): valid on two goroutines (each
// half of the messages checked with edge stamps of its own, the halves'
// flits added) says what the loop over every message says, on paths with
// each defect valid looks for now and then: a length below 1, lengths
// summing past MaxTotalFlits, an empty id, an empty path, an edge out of
// range or used twice by one path, a hop that does not follow the one before
// (checked unless the paths are known to be walks).
func TestValidSplitAsWhole(t *testing.T) {
	twoProcs(t)
	defer func(n int) { uniqueSplitMin = n }(uniqueSplitMin)
	net := &Network{Nodes: []string{"a", "b", "c", "d"}}
	net.Edges = []Edge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 2, To: 3}, {From: 1, To: 0}}
	seen := map[bool]int{}
	rapid.Check(t, func(t *rapid.T) {
		p := &Paths{Net: net, Off: []int{0}, idOff: []int{0}}
		for i := range rapid.IntRange(1, 12).Draw(t, "messages") {
			walk := rapid.SampledFrom([][]int32{{0}, {0, 1}, {0, 1, 2}, {1, 2}, {3, 0}, {0, 3}, {2}})
			path := walk.Draw(t, "path")
			if rapid.IntRange(0, 9).Draw(t, "bad path") == 0 {
				path = rapid.SliceOfN(rapid.Int32Range(-1, 4), 0, 3).Draw(t, "any path")
			}
			p.Hops = append(p.Hops, path...)
			p.Off = append(p.Off, len(p.Hops))
			l := rapid.IntRange(1, 3).Draw(t, "flits")
			if rapid.IntRange(0, 9).Draw(t, "bad flits") == 0 {
				l = rapid.SampledFrom([]int{0, -1, MaxTotalFlits / 2, MaxTotalFlits}).Draw(t, "odd flits")
			}
			p.L = append(p.L, l)
			if rapid.IntRange(0, 19).Draw(t, "empty id") > 0 {
				p.ids = append(p.ids, fmt.Sprint("m", i)...)
			}
			p.idOff = append(p.idOff, len(p.ids))
		}
		walks := rapid.Bool().Draw(t, "walks")
		uniqueSplitMin = math.MaxInt
		want := p.valid(walks)
		uniqueSplitMin = 1
		require.Equal(t, want, p.valid(walks))
		seen[want]++
	})
	require.Positive(t, seen[true], "no draw was valid")
	require.Positive(t, seen[false], "no draw was invalid")
}
