package model

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// generalOnly reads data with the fast readers off: encoding/json's reading of
// MODEL.md's format, which the fast readers must reproduce.
func generalOnly(data []byte) (*Instance, error) {
	fastReaders = false
	defer func() { fastReaders = true }()
	return ParseInstance(data)
}

// adversarialNames are node names that sit on the fast readers' edges: names
// of 7, 8 and 9 bytes (a word of nameAt, and one past it) and pairs of them
// alike in their first 7 bytes, non-ASCII ones, quotes, backslashes, slashes,
// numbers (with and without leading zeros, as on a network of numeric names),
// JSON words, the empty name, and bytes that are not UTF-8 (which encoding/json
// reads as U+FFFD, like the name "\ufffd" itself), and names that are the
// JSON spelling of others (`\u0061b` is how jsonText may write "ab").
var adversarialNames = []string{
	"a", "b", "ab", "abcdefg", "abcdefh", "abcdefgh", "abcdefgi", "abcdefghi", "abcdefghj",
	"abcdefg\u00e9", "\u00e9", "\u65e5\u672c", "x/y", `q"x`, `b\s`, "0", "1", "2", "10", "01", "-0",
	" a", "a ", "\u2028", "\x7f", "1234567", "12345678", "123456789", "null", "true", "\ufffd",
	`abcdef"`, "", "a\xff", "\xc3", "\xed\xa0\x80", "tab\there",
	`\u0061b`, `x\/y`, `a\"`,
}

// jsonBody writes s as the body of a JSON string: its bytes as they are, only
// '"', '\' and control characters escaped (invalid UTF-8 kept).
func jsonBody(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escapedFirst writes name as the body of a JSON string whose first character
// is a \u escape; ok is false when it has no such spelling.
func escapedFirst(name string) (body string, ok bool) {
	r, size := utf8.DecodeRuneInString(name)
	if size == 0 || r == utf8.RuneError || r >= 0x10000 {
		return "", false
	}
	return fmt.Sprintf(`\u%04X`, r) + jsonBody(name[size:]), true
}

// jsonText writes a name as a JSON string in one of the spellings a document
// may use: jsonBody's, the first character as a \u escape, every '/' as "\/", or
// Go's quoting (whose \x escapes are not JSON).
func jsonText(t *rapid.T, name, label string) string {
	switch rapid.IntRange(0, 9).Draw(t, label) {
	case 0, 3, 4:
		if body, ok := escapedFirst(name); ok {
			return `"` + body + `"`
		}
	case 1:
		return `"` + strings.ReplaceAll(jsonBody(name), "/", `\/`) + `"`
	case 2:
		return fmt.Sprintf("%q", name)
	}
	return `"` + jsonBody(name) + `"`
}

// drawWalk draws a walk from a random one of n nodes along random out-edges of
// m edges (edge e from ends(e) to ends(e)), of 1 to 4 hops, fewer where it finds
// no out-edge: its nodes and its edges.
func drawWalk(t *rapid.T, n, m int, ends func(e int) (from, to int)) (walk, hops []int) {
	at := rapid.IntRange(0, n-1).Draw(t, "walk start")
	walk, hops = []int{at}, []int{}
	for range rapid.IntRange(1, 4).Draw(t, "walk length") {
		var out []int
		for e := range m {
			if from, _ := ends(e); from == at {
				out = append(out, e)
			}
		}
		if len(out) == 0 {
			break
		}
		e := rapid.SampledFrom(out).Draw(t, "hop")
		_, at = ends(e)
		hops, walk = append(hops, e), append(walk, at)
	}
	return walk, hops
}

// rare draws true about once in n+1 (rapid draws the ends of a range more often
// than the rest).
func rare(t *rapid.T, n int, label string) bool {
	return rapid.IntRange(0, n).Draw(t, label) == n/2
}

// oneOf draws from common, or now and then from odd.
func oneOf(t *rapid.T, common, odd []string, label string) string {
	if rare(t, 5, label+" odd") {
		return rapid.SampledFrom(odd).Draw(t, label)
	}
	return rapid.SampledFrom(common).Draw(t, label)
}

// adversarialText draws an instance text meant to break the fast readers: a
// network of adversarialNames (or of numeric names, in order or two swapped),
// with repeated nodes, edges naming unknown nodes, parallel edges and loops,
// keys in any order, unknown fields with nested objects (one holding its own
// "nodes"), null in place of lists; messages walking it by names (spelled in any
// of jsonText's ways, with a name the network lacks now and then) or by edge
// indices in odd number forms; white space anywhere; and now and then a byte
// order mark, a repeated top-level key, or the text cut short (a file ending
// mid-name).
func adversarialText(t *rapid.T) []byte {
	ws := func(label string) string {
		return rapid.SampledFrom([]string{"", "", " ", "\n", "\t", "\r\n ", "  \n\t"}).Draw(t, label)
	}
	var names []string
	if rare(t, 2, "numeric") {
		for u := range rapid.IntRange(0, 11).Draw(t, "nodes") {
			names = append(names, fmt.Sprint(u))
		}
		if len(names) > 1 && rare(t, 5, "swap") {
			names[0], names[1] = names[1], names[0]
		}
	} else {
		perm := rapid.Permutation(adversarialNames).Draw(t, "names")
		names = perm[:rapid.IntRange(0, 7).Draw(t, "nodes")]
		if len(names) > 0 && rare(t, 9, "repeat node") {
			names = append(names, names[0])
		}
		// A node named as jsonText may spell another: a reader that took the
		// spelling's bytes for the name would find the wrong node.
		if len(names) > 0 && rare(t, 2, "twin") {
			if body, ok := escapedFirst(names[len(names)-1]); ok {
				names = append(names, body)
			}
		}
	}
	type edge struct{ from, to int }
	var edges []edge
	if len(names) > 0 {
		for range rapid.IntRange(0, 12).Draw(t, "edges") {
			edges = append(edges, edge{rapid.IntRange(0, len(names)-1).Draw(t, "from"), rapid.IntRange(0, len(names)-1).Draw(t, "to")})
		}
	}
	var nodesText, edgesText []string
	for i, n := range names {
		nodesText = append(nodesText, jsonText(t, n, fmt.Sprintf("node %d", i)))
	}
	for i, e := range edges {
		to := jsonText(t, names[e.to], fmt.Sprintf("edge %d to", i))
		if rare(t, 29, "unknown end") {
			to = `"zz"`
		}
		edgesText = append(edgesText, "["+ws("e0")+jsonText(t, names[e.from], fmt.Sprintf("edge %d from", i))+","+ws("e1")+to+ws("e2")+"]")
	}
	var netFields []string
	if len(edges) == 0 || !rare(t, 9, "no nodes") {
		netFields = append(netFields, `"nodes":`+ws("n")+"["+strings.Join(nodesText, ","+ws("ns"))+"]")
	}
	if !rare(t, 19, "no edges") {
		netFields = append(netFields, `"edges":`+ws("e")+"["+strings.Join(edgesText, ","+ws("es"))+"]")
	}
	for _, f := range []string{`"coords": {"x": [1, {"y": "]}"}], "nodes": null}`, `"nodes": null`, `"ed\u0067es": []`,
		`"nodes": []`, `"edges": [[]]`, `"kind": {"nodes": ["a"], "edges": [["a", "a"]]}`} {
		if rare(t, 11, "net field") {
			netFields = append(netFields, f)
		}
	}
	netFields = rapid.Permutation(netFields).Draw(t, "net keys")
	net := "{" + ws("nw") + strings.Join(netFields, ","+ws("nsep")) + ws("nend") + "}"
	if rare(t, 29, "null network") {
		net = "null"
	}
	var msgs []string
	for i := range rapid.IntRange(0, 6).Draw(t, "messages") {
		id := oneOf(t, []string{fmt.Sprintf("m%d", i), "\u00e9" + fmt.Sprint(i), fmt.Sprintf("abcdefg%d", i)}, []string{"m0", "", "m\xff"}, "id")
		parts := []string{`"id":` + ws("iw") + jsonText(t, id, "id text")}
		var walk, hops []int
		if len(names) > 0 && len(edges) > 0 {
			walk, hops = drawWalk(t, len(names), len(edges), func(e int) (int, int) { return edges[e].from, edges[e].to })
		}
		if rapid.Bool().Draw(t, "by edges") {
			var es []string
			for _, e := range hops {
				es = append(es, fmt.Sprint(e))
			}
			if rare(t, 9, "odd edge") {
				es = append(es, rapid.SampledFrom([]string{"-1", "1.0", "01", "-0", "1e0", "99999999999999999999", "4294967296", "null"}).Draw(t, "odd edge value"))
			}
			parts = append(parts, `"edges":`+ws("ew")+"["+strings.Join(es, ","+ws("hs"))+"]")
		} else {
			var ns []string
			for k, v := range walk {
				ns = append(ns, jsonText(t, names[v], fmt.Sprintf("hop %d", k)))
			}
			if rare(t, 9, "odd name") {
				ns = append(ns, rapid.SampledFrom([]string{`"zz"`, `1`, `null`, `"abcdefgX"`, `"00"`, `"abcdefghiX"`}).Draw(t, "odd name value"))
			}
			parts = append(parts, `"path":`+ws("pw")+"["+strings.Join(ns, ","+ws("ps"))+"]")
		}
		if rare(t, 3, "own flits") {
			parts = append(parts, `"flits":`+ws("fw")+oneOf(t, []string{"1", "2", "3"}, []string{"0", "-0", "1.0", "null", "01"}, "flits value"))
		}
		if rare(t, 9, "message extra") {
			parts = append(parts, `"note": {"a": [1, "\"}"], "path": null}`)
		}
		if rare(t, 19, "repeat key") {
			parts = append(parts, parts[0])
		}
		parts = rapid.Permutation(parts).Draw(t, "message keys")
		msgs = append(msgs, "{"+ws("ow")+strings.Join(parts, ","+ws("ks"))+ws("oe")+"}")
	}
	top := []string{`"network":` + ws("tn") + net, `"messages":` + ws("tm") + "[" + strings.Join(msgs, ","+ws("ms")) + "]"}
	if rapid.Bool().Draw(t, "has flits") {
		top = append(top, `"flits": `+oneOf(t, []string{"1", "2", "3"}, []string{"0", "2.0", "null"}, "flits"))
	}
	if rare(t, 3, "has name") {
		top = append(top, `"name": `+jsonText(t, rapid.SampledFrom([]string{"inst", "\u00e9", `a"b`, "x\xff"}).Draw(t, "name"), "name text"))
	}
	if rare(t, 4, "top extra") {
		top = append(top, `"extra": {"nested": {"deep": [[], {}], "network": null}}`)
	}
	if rare(t, 29, "repeat top") {
		top = append(top, top[0])
	}
	top = rapid.Permutation(top).Draw(t, "top keys")
	text := ws("lead") + "{" + strings.Join(top, ","+ws("ts")) + "}" + ws("trail")
	switch {
	case rare(t, 29, "bom"):
		text = "\xef\xbb\xbf" + text
	case rare(t, 14, "cut short"):
		text = text[:rapid.IntRange(0, len(text)).Draw(t, "cut")]
	}
	// No spare capacity: a read past the end panics instead of finding bytes.
	return []byte(text)[:len(text):len(text)]
}

// requireReadersAgree checks the lemma of TestFastReadersAreGeneral on one text
// and reports whether it is an instance. ReadPaths reads it twice: on one core,
// and with every message list read on two (splitMin 0: the second half from a
// guessed message, the guess checked).
func requireReadersAgree(t require.TestingT, data []byte) (valid bool) {
	want, werr := generalOnly(data)
	got, err := ParseInstance(data)
	ps, perr := ReadPaths(bytes.NewReader(data))
	defer func(n int) { splitMin = n }(splitMin)
	splitMin = 0
	ps2, perr2 := ReadPaths(bytes.NewReader(data))
	if perr == nil {
		require.NoError(t, perr2, "ReadPaths on two cores of %q", data)
		requireSamePaths(t, ps, ps2)
	} else {
		require.EqualError(t, perr2, perr.Error(), "ReadPaths on two cores of %q", data)
	}
	if werr != nil {
		require.EqualError(t, err, werr.Error(), "%q", data)
		require.EqualError(t, perr, werr.Error(), "ReadPaths of %q", data)
		require.NotContains(t, werr.Error(), "\n")
		return false
	}
	require.NoError(t, err, "%q", data)
	require.NoError(t, perr, "ReadPaths of %q", data)
	require.Equal(t, want.Name, got.Name, "%q", data)
	require.Equal(t, want.Flits, got.Flits, "%q", data)
	require.Equal(t, want.Extra, got.Extra, "%q", data)
	require.Equal(t, want.Net.Nodes, got.Net.Nodes, "%q", data)
	require.Equal(t, want.Net.Edges, got.Net.Edges, "%q", data)
	require.Equal(t, want.Net.Extra, got.Net.Extra, "%q", data)
	require.Equal(t, want.Messages, got.Messages, "%q", data)
	for u, name := range want.Net.Nodes {
		i, ok := got.Net.Node(name)
		require.True(t, ok && i == u, "node %q of %q", name, data)
	}
	wp := PathsOf(want)
	require.Equal(t, wp.Net.Nodes, ps.Net.Nodes, "%q", data)
	requireSamePaths(t, wp, ps)
	return true
}

// Lemma (the fast readers are the general reader restricted to their inputs):
// for every text, ParseInstance (parseFast, parseNetworkFast, parseMessageFast,
// nameAt's word reading, the numeric-names shortcut) gives the instance
// encoding/json's reading gives, field for field, or refuses it with the same
// one-line error; and ReadPaths gives that instance's messages (PathsOf) or the
// same error. The texts are adversarialText's; the fast reader must read some of
// them itself, and the general reading must accept some.
func TestFastReadersAreGeneral(t *testing.T) {
	fast, valid := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		data := adversarialText(t)
		if !requireReadersAgree(t, data) {
			return
		}
		valid++
		if _, ok := parseInstanceFast(data); ok {
			fast++
		}
	})
	require.Positive(t, valid, "no text was an instance")
	require.Positive(t, fast, "the fast reader read no text")
}

// Lemma (a wrong guess of where a message begins costs time only): texts whose
// ids and names hold what splitPoint takes for the start of a message ("}, {"),
// read with every list on two cores, give the messages read on one; where the
// guess is right, the two halves are joined.
func TestReadPathsSplitGuesses(t *testing.T) {
	twoProcs(t)
	defer func(n int) { splitMin = n }(splitMin)
	splitMin = 0
	joins := splitJoins.Load()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "messages")
		var msgs []string
		for i := range n {
			id := rapid.SampledFrom([]string{"m", "}, {", "} ,  {", "}{", `\u007d, {`}).Draw(t, "id")
			to := rapid.SampledFrom([]string{"b", "}, {"}).Draw(t, "to")
			msgs = append(msgs, fmt.Sprintf(`{"id": "%s%d", "path": ["a", "%s"]}`, id, i, to))
		}
		text := `{"network": {"edges": [["a", "}, {"], ["}, {", "a"], ["a", "b"]]}, "messages": [` + strings.Join(msgs, ", ") + `], "x": [{}, {}]}`
		requireReadersAgree(t, []byte(text))
	})
	require.Greater(t, splitJoins.Load(), joins, "no list was read on two cores")
}

// Lemma (a split reading keeps the hops in the array sized for the text): on
// texts of node paths, whose hops byteCounts.hops bounds, ReadPaths's hops, read on
// two cores, are in that array (its capacity is the bound) whether the second
// half is joined or dropped (its messages escaped: not of the common shape, so
// the other goroutine gives up and the reading from the start reads them).
func TestReadPathsSplitKeepsHopsArray(t *testing.T) {
	twoProcs(t)
	defer func(n int) { splitMin = n }(splitMin)
	splitMin = 0
	for _, escaped := range []bool{false, true} {
		var msgs []string
		for i := range 200 {
			id := fmt.Sprintf("m%d", i)
			if escaped && i >= 50 {
				id = fmt.Sprintf(`m\u0030%d`, i)
			}
			msgs = append(msgs, fmt.Sprintf(`{"id": "%s", "path": ["a", "b", "c", "d"]}`, id))
		}
		text := []byte(`{"network": {"edges": [["a", "b"], ["b", "c"], ["c", "d"]]}, "messages": [` + strings.Join(msgs, ", ") + `]}`)
		joins := splitJoins.Load()
		requireReadersAgree(t, text)
		ps, err := ReadPaths(bytes.NewReader(text))
		require.NoError(t, err)
		require.Equal(t, !escaped, splitJoins.Load() > joins, "escaped %v: joined", escaped)
		require.Len(t, ps.Hops, 600)
		require.Equal(t, countBytes(text).hops(), cap(ps.Hops), "escaped %v: the hops array sized for the text", escaped)
	}
}

// The lemma of TestFastReadersAreGeneral on texts chosen by hand, each at an
// edge of a fast reader: a name spelled with an escape beside a node named by
// that spelling, in the first place of a path and after it, short (nameAt's
// word) and long; names of 7, 8 and 9 bytes alike in their first 7; a name
// ending the text's last word; escaped keys; a byte order mark; texts cut
// inside a name; numeric names with a leading zero, a sign, or past the nodes,
// in paths and in edges (parseNetworkFast reads the ends of a network of
// nodes "0" .. "n-1" as numbers).
func TestFastReadersAreGeneralCases(t *testing.T) {
	for _, text := range []string{
		`{"network": {"nodes": ["ab", "\\u0061b", "c"], "edges": [["c", "ab"], ["c", "\\u0061b"]]}, "messages": [{"id": "m", "path": ["c", "\u0061b"]}]}`,
		`{"network": {"nodes": ["ab", "\\u0061b", "c"], "edges": [["ab", "c"], ["\\u0061b", "c"]]}, "messages": [{"id": "m", "path": ["\u0061b", "c"]}]}`,
		`{"network": {"nodes": ["abcdefgh", "\\u0061bcdefgh", "c"], "edges": [["c", "abcdefgh"], ["c", "\\u0061bcdefgh"]]}, "messages": [{"id": "m", "path": ["c", "\u0061bcdefgh"]}]}`,
		`{"network": {"nodes": ["x/y", "x\\/y", "c"], "edges": [["c", "x/y"], ["c", "x\\/y"]]}, "messages": [{"id": "m", "path": ["c", "x\/y"]}]}`,
		`{"network": {"nodes": ["a\"", "a\\\"", "c"], "edges": [["c", "a\""], ["c", "a\\\""]]}, "messages": [{"id": "m", "path": ["c", "a\""]}, {"id": "n", "path": ["c", "a\\\""]}]}`,
		`{"network": {"nodes": ["abcdefg", "abcdefgh", "abcdefgi", "abcdefghi", "abcdefghj"], "edges": [["abcdefg", "abcdefgh"], ["abcdefgh", "abcdefgi"], ["abcdefgi", "abcdefghi"], ["abcdefghi", "abcdefghj"], ["abcdefghj", "abcdefg"]]}, "messages": [{"id": "m", "path": ["abcdefg", "abcdefgh", "abcdefgi", "abcdefghi", "abcdefghj", "abcdefg"]}]}`,
		`{"messages": [{"id": "m", "path": ["\u00e9", "abcdefg"]}], "network": {"edges": [["\u00e9", "abcdefg"]]}}`,
		"{\"messages\": [{\"id\": \"m\", \"path\": [\"\xff\", \"b\"]}], \"network\": {\"edges\": [[\"\xef\xbf\xbd\", \"b\"]]}}",
		"{\"messages\": [{\"id\": \"m\", \"path\": [\"\xff\", \"b\"]}], \"network\": {\"edges\": [[\"\xff\", \"b\"], [\"\xfe\", \"b\"]]}}",
		`{"network": {"edges": [["a", "b"]]}, "messages": [{"id": "m", "path": ["a", "b"]}]`,
		`{"network": {"edges": [["a", "b"]]}, "messages": [{"id": "m", "path": ["a", "b`,
		`{"network": {"edges": [["a", "b"]]}, "messages": [{"id": "m", "path": ["a", "abcdefgh`,
		`{"network": {"edges": [["a", "b"]]}, "mess\u0061ges": [{"id": "m", "path": ["a", "b"]}], "messages": []}`,
		"\xef\xbb\xbf{\"network\": {\"edges\": [[\"a\", \"b\"]]}, \"messages\": []}",
		`{"network": {"nodes": ["0", "1", "2"], "edges": [["0", "1"], ["1", "2"]]}, "messages": [{"id": "m", "path": ["0", "01", "2"]}]}`,
		`{"network": {"nodes": ["0", "1", "2"], "edges": [["0", "1"], ["1", "2"]]}, "messages": [{"id": "m", "path": ["0", "\u0031", "2"]}]}`,
		`{"network": {"nodes": ["0", "1", "2"], "edges": [["0", "1"], ["1", "2"]]}, "messages": [{"id": "m", "path": ["-0", "1"]}, {"id": "n", "path": ["1", "3"]}]}`,
		`{"network": {"nodes": ["0", "1", "2"], "edges": [["0", "1"], ["1", "2"], ["1", "2"]]}, "messages": [{"id": "m", "path": ["0", "1", "2"]}]}`,
		`{"network": {"nodes": ["0", "1"], "edges": [["0", "1"]], "extra": {"nodes": ["x"], "edges": null}}, "messages": [{"id": "m", "path": ["0", "1"]}], "flits": 2}`,
		`{"network": {"nodes": ["0", "1", "2"], "edges": [["2", "0"], ["1", "2"]]}, "messages": [{"id": "m", "path": ["1", "2", "0"]}]}`,
		`{"network": {"nodes": ["0", "1", "2"], "edges": [["0", "01"]]}, "messages": []}`,
		`{"network": {"nodes": ["0", "1", "2"], "edges": [["0", "3"]]}, "messages": []}`,
		`{"network": {"nodes": ["0", "1", "2"], "edges": [["-0", "1"]]}, "messages": []}`,
		`{"network": {"nodes": ["0", "1", "2"], "edges": [["0", "1000000000000000000000"]]}, "messages": []}`,
		`{"network": {"nodes": ["1", "0"], "edges": [["0", "1"]]}, "messages": [{"id": "m", "path": ["0", "1"]}]}`,
	} {
		requireReadersAgree(t, []byte(text)[:len(text):len(text)])
	}
}
