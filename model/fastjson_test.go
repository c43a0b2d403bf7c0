package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/wormlab/wormlab/internal/unionfind"
)

// nodesNet returns a network of the named nodes and no edges.
func nodesNet(names ...string) *Network {
	net := &Network{}
	for _, name := range names {
		net.AddNode(name)
	}
	return net
}

// TestFastMessageAgreesWithDecoder (MODEL.md, interchange formats: one message
// object has one reading) checks that the fast reader of message objects
// either declines or reads exactly what the general decoder reads, on message texts
// that mix the common shape with everything the fast reader must decline (extra
// fields, escapes, nulls, fractions, repeated keys, both path forms, bad hops).
func TestFastMessageAgreesWithDecoder(t *testing.T) {
	net := nodesNet("a", "b", "c", "d")
	net.AddLink(0, 1)
	net.AddLink(1, 2)
	net.AddEdge(2, 3)
	net.AddEdge(2, 3) // parallel: a hop c->d by name is ambiguous
	in := &Instance{Net: net, Flits: 2}
	// The common shapes the fast reader exists for are accepted (else the property
	// below would hold with the fast reader declining everything).
	for _, text := range []string{`{"id": "m0", "path": ["a", "b", "c"]}`, `{"edges": [0, 2], "flits": 3, "id": "m1"}`} {
		var fast, slow Message
		require.True(t, parseMessageFast(in, []byte(text), &fast, &pathArena{}), "fast reader declined %s", text)
		require.NoError(t, parseMessage(in, 0, []byte(text), &slow))
		require.Equal(t, slow, fast, "message %s", text)
	}
	names := []string{"a", "b", "c", "d", "x", `a\u0062`, "b"}
	rapid.Check(t, func(t *rapid.T) {
		var parts []string
		if rapid.Bool().Draw(t, "has id") {
			id := rapid.SampledFrom([]string{`"m0"`, `"m\"1"`, `7`, `null`, `""`}).Draw(t, "id")
			parts = append(parts, `"id": `+id)
		}
		if rapid.Bool().Draw(t, "has path") {
			n := rapid.IntRange(0, 5).Draw(t, "path length")
			var ns []string
			for k := 0; k < n; k++ {
				ns = append(ns, `"`+rapid.SampledFrom(names).Draw(t, "node")+`"`)
			}
			parts = append(parts, `"path": [`+strings.Join(ns, ", ")+`]`)
		}
		if rapid.Bool().Draw(t, "has edges") {
			n := rapid.IntRange(0, 4).Draw(t, "edges length")
			var es []string
			for k := 0; k < n; k++ {
				es = append(es, rapid.SampledFrom([]string{"0", "1", "2", "3", "4", "5", "6", "-1", "1.5", "1e0"}).Draw(t, "edge"))
			}
			parts = append(parts, `"edges": [`+strings.Join(es, ",")+`]`)
		}
		if rapid.Bool().Draw(t, "has flits") {
			parts = append(parts, `"flits": `+rapid.SampledFrom([]string{"1", "3", "0", "-2", "2.0", "null"}).Draw(t, "flits"))
		}
		if rapid.Bool().Draw(t, "has extra") {
			parts = append(parts, `"note": {"x": [1, "]"]}`)
		}
		if len(parts) > 0 && rapid.Bool().Draw(t, "repeat a key") {
			parts = append(parts, parts[rapid.IntRange(0, len(parts)-1).Draw(t, "repeated")])
		}
		text := "{" + strings.Join(parts, ", ") + "}"
		if !json.Valid([]byte(text)) {
			t.Skip("not JSON")
		}
		var fast Message
		ok := parseMessageFast(in, []byte(text), &fast, &pathArena{})
		var slow Message
		err := parseMessage(in, 0, []byte(text), &slow)
		if !ok {
			return
		}
		require.NoError(t, err, "fast reader accepted %s", text)
		require.Equal(t, slow, fast, "message %s", text)
	})
}

// TestSplitArray (MODEL.md, interchange formats: the JSON of an instance is read as
// encoding/json reads it) checks the element splitter against encoding/json on
// arrays of nested values.
func TestSplitArray(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		vals := rapid.SliceOfN(rapid.SampledFrom([]string{
			`1`, `-2.5e3`, `"a,b]"`, `"q\"}"`, `{"x": [1, {"y": "]"}]}`, `[]`, `[[], {}]`, `null`, `true`,
		}), 0, 6).Draw(t, "values")
		text := " [ " + strings.Join(vals, " ,\n") + " ] "
		got, ok := splitArray([]byte(text))
		require.True(t, ok, text)
		var want []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(text), &want))
		require.Len(t, got, len(want))
		for i := range want {
			require.JSONEq(t, string(want[i]), string(got[i]), fmt.Sprint("element ", i))
		}
	})
}

// TestFastTimesAgreesWithDecoder (MODEL.md, interchange formats: a schedule entry's
// id, cross and start have one reading) checks that the fast reader of schedule entries
// either declines or reads exactly what ParseSchedule's general path reads.
func TestFastTimesAgreesWithDecoder(t *testing.T) {
	// The common shape is accepted (else the property below would hold with the
	// fast reader declining everything).
	var common Times
	require.True(t, parseTimesFast([]byte(`{"id": "m0", "start": 4, "cross": [5, 6]}`), &common))
	start := 4
	require.Equal(t, Times{ID: "m0", Start: &start, Cross: []int{5, 6}}, common)
	rapid.Check(t, func(t *rapid.T) {
		var parts []string
		if rapid.Bool().Draw(t, "has id") {
			parts = append(parts, `"id": `+rapid.SampledFrom([]string{`"m0"`, `"m\"1"`, `7`, `null`}).Draw(t, "id"))
		}
		if rapid.Bool().Draw(t, "has start") {
			parts = append(parts, `"start": `+rapid.SampledFrom([]string{"0", "4", "-1", "2.5", "null", `"3"`}).Draw(t, "start"))
		}
		if rapid.Bool().Draw(t, "has cross") {
			n := rapid.IntRange(0, 4).Draw(t, "cross length")
			var cs []string
			for k := 0; k < n; k++ {
				cs = append(cs, rapid.SampledFrom([]string{"1", "2", "9", "0", "-3", "1e1", "1.0", "null"}).Draw(t, "time"))
			}
			parts = append(parts, `"cross": [`+strings.Join(cs, ", ")+`]`)
		}
		if rapid.Bool().Draw(t, "has extra") {
			parts = append(parts, `"waited": [1, "}"]`)
		}
		if len(parts) > 0 && rapid.Bool().Draw(t, "repeat a key") {
			parts = append(parts, parts[rapid.IntRange(0, len(parts)-1).Draw(t, "repeated")])
		}
		entry := "{" + strings.Join(parts, ", ") + "}"
		if !json.Valid([]byte(entry)) {
			t.Skip("not JSON")
		}
		var fast Times
		if !parseTimesFast([]byte(entry), &fast) {
			return
		}
		// The general path, reached through an entry the fast reader declines: the
		// same entry with an extra field, which is then dropped.
		slowText := `{"model": "wormhole", "makespan": 1, "messages": [` + entry[:len(entry)-1] + `, "zz": 0}]}`
		if entry == "{}" {
			slowText = `{"model": "wormhole", "makespan": 1, "messages": [{"zz": 0}]}`
		}
		s, err := ParseSchedule([]byte(slowText))
		require.NoError(t, err, "fast reader accepted %s", entry)
		slow := s.Messages[0]
		delete(slow.Extra, "zz")
		if len(slow.Extra) == 0 {
			slow.Extra = nil
		}
		require.Equal(t, slow, fast, "entry %s", entry)
	})
}

// nameAt reads a string as rawStr does and keys it as nameKey does, the short
// ones a word at a time: on any bytes after an opening quote (drawn from the
// characters the word tests tell apart: quotes, backslashes, control characters,
// bytes above 0x7f, among plain ones, with 0 to 12 bytes after the string's
// start so that the word reaches past the end of data or not), both accept the
// same strings, end them at the same byte and give the same key.
func TestNameAtIsRawStr(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := []byte{'"'}
		for range rapid.IntRange(0, 12).Draw(t, "bytes") {
			data = append(data, rapid.SampledFrom([]byte{'a', '7', ',', ' ', '"', '\\', 0x1f, 0x00, 0x7f, 0x80, 0xc3, 0xa9, 0xff, 0x20, 0x21}).Draw(t, "byte"))
		}
		end, key, ok := nameAt(data, 1)
		p := fastScanner{data: data}
		b, want := p.rawStr()
		if ok != want {
			t.Fatalf("%q: nameAt ok %v, rawStr ok %v", data, ok, want)
		}
		if ok && (end != p.i || key != nameKey(b)) {
			t.Fatalf("%q: nameAt ends at %d with key %x, rawStr at %d with key %x", data, end, key, p.i, nameKey(b))
		}
	})
}

// pairTable.edge finds the edge from u to v by its ends: on any multigraph
// (self-loops and parallel edges included), for every pair of nodes, it reports
// no edge, the one edge, or several (2), as a count over the edges says.
func TestPairTableCountsEdges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 9).Draw(t, "nodes")
		net := &Network{}
		for u := range n {
			net.AddNode(fmt.Sprint(u))
		}
		for range rapid.IntRange(0, 30).Draw(t, "edges") {
			net.AddEdge(rapid.IntRange(0, n-1).Draw(t, "from"), rapid.IntRange(0, n-1).Draw(t, "to"))
		}
		pt := newPairTable(net)
		for u := range n {
			for v := range n {
				want, count := 0, 0
				for e, ed := range net.Edges {
					if ed.From == u && ed.To == v {
						want = e
						count++
					}
				}
				e, got := pt.edge(int32(u), int32(v))
				if got != min(count, 2) || (count == 1 && int(e) != want) {
					t.Fatalf("%d -> %d: edge %d count %d, want edge %d count %d", u, v, e, got, want, count)
				}
			}
		}
	})
}

// parseNetworkFast reads a network object as the general reading does whenever it
// reads one: on network texts of both orders of keys, with and without "nodes",
// with other fields, repeated keys, names repeated, unknown, escaped or null,
// edges of one to three names and damaged endings, an accepted text gives the
// network parseNetworkGeneral gives (its nodes, edges, fields and lookups), and
// a text the general reading refuses is never accepted.
func TestParseNetworkFastIsGeneral(t *testing.T) {
	fast := 0
	rapid.Check(t, func(t *rapid.T) {
		name := func(label string) string {
			if rapid.IntRange(0, 3).Draw(t, label+" odd") > 0 {
				return rapid.SampledFrom([]string{`"a"`, `"b"`, `"0,1"`}).Draw(t, label)
			}
			return rapid.SampledFrom([]string{`"c"`, `"10"`, `"a\u0062"`, `"é"`, `null`, `""`}).Draw(t, label)
		}
		var nodes, edges []string
		for range rapid.IntRange(0, 4).Draw(t, "nodes") {
			nodes = append(nodes, name("node"))
		}
		for range rapid.IntRange(0, 5).Draw(t, "edges") {
			var ends []string
			for range rapid.SampledFrom([]int{2, 2, 2, 1, 3}).Draw(t, "ends") {
				ends = append(ends, name("end"))
			}
			edges = append(edges, "["+strings.Join(ends, ", ")+"]")
		}
		fields := []string{`"edges": [` + strings.Join(edges, ",") + `]`}
		if rapid.IntRange(0, 4).Draw(t, "no nodes") > 0 {
			fields = append(fields, `"nodes": [`+strings.Join(nodes, ", ")+`]`)
		}
		for _, f := range []string{`"coords": [[0, 1], [2, 3]]`, `"nodes": []`, `"edges": null`, `"kind": "x"`, `"kind": "y"`} {
			if rapid.IntRange(0, 4).Draw(t, "field") == 0 {
				fields = append(fields, f)
			}
		}
		if rapid.Bool().Draw(t, "swap") {
			fields[0], fields[len(fields)-1] = fields[len(fields)-1], fields[0]
		}
		text := "{" + strings.Join(fields, ", ") + "}"
		if rapid.IntRange(0, 9).Draw(t, "damaged") == 0 {
			text = text[:rapid.IntRange(0, len(text)).Draw(t, "cut")]
		}
		got, ok := parseNetworkFast([]byte(text))
		want, err := parseNetworkGeneral([]byte(text))
		if !ok {
			return
		}
		fast++
		require.NoError(t, err, "the fast reading accepted %s", text)
		require.Equal(t, want, got, "%s", text)
	})
	require.Positive(t, fast, "the fast reading read no network")
}

// treeIndex.edge finds the edge from u to v by the nodes' parents on exactly the
// bidirected forests (no self-loop, at most one edge each way between two nodes,
// the links acyclic; some directions missing allowed): on random forests with
// each direction kept or dropped, and with extra random edges (self-loops,
// parallel edges, cycles) or not, newTreeIndex returns an index exactly when the
// network is such a forest (counted by a union-find over the links), and then,
// for every pair of nodes, the index reports no edge or the one edge, as a
// count over the edges says.
func TestTreeIndexCountsEdges(t *testing.T) {
	forests := 0
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "nodes")
		net := &Network{}
		for u := range n {
			net.AddNode(fmt.Sprint(u))
		}
		for v := 1; v < n; v++ {
			if rapid.IntRange(0, 5).Draw(t, "no parent") == 0 {
				continue
			}
			u := rapid.IntRange(0, v-1).Draw(t, "parent")
			if rapid.IntRange(0, 3).Draw(t, "down") > 0 {
				net.AddEdge(u, v)
			}
			if rapid.IntRange(0, 3).Draw(t, "up") > 0 {
				net.AddEdge(v, u)
			}
		}
		for range rapid.SampledFrom([]int{0, 0, 1, 2}).Draw(t, "extra edges") {
			net.AddEdge(rapid.IntRange(0, n-1).Draw(t, "from"), rapid.IntRange(0, n-1).Draw(t, "to"))
		}
		// The reference: no self-loop, no pair twice one way, no cycle of links.
		forest := true
		pairs := map[[2]int]bool{}
		links := unionfind.New(n)
		for _, ed := range net.Edges {
			if ed.From == ed.To || pairs[[2]int{ed.From, ed.To}] {
				forest = false
				break
			}
			pairs[[2]int{ed.From, ed.To}] = true
			if pairs[[2]int{ed.To, ed.From}] {
				continue // the link's other direction
			}
			if !links.Union(ed.From, ed.To) {
				forest = false
				break
			}
		}
		ti := newTreeIndex(net)
		require.Equal(t, forest, ti != nil, "edges %v", net.Edges)
		if ti == nil {
			return
		}
		forests++
		for u := range n {
			for v := range n {
				want, count := 0, 0
				for e, ed := range net.Edges {
					if ed.From == u && ed.To == v {
						want, count = e, count+1
					}
				}
				e, got := ti.edge(int32(u), int32(v))
				require.Equal(t, count, got, "%d -> %d in %v", u, v, net.Edges)
				if count == 1 {
					require.Equal(t, want, int(e), "%d -> %d in %v", u, v, net.Edges)
				}
			}
		}
	})
	require.Positive(t, forests, "no network was a forest")
}
