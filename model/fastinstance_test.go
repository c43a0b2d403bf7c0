package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// requireFastAgrees checks MODEL.md's "one document, one reading" for the two
// instance readers: when parseInstanceFast accepts a text, encoding/json's path
// accepts it too and reads the same instance, field for field.
func requireFastAgrees(t require.TestingT, data []byte) (accepted bool) {
	// No spare capacity: a read past the end panics instead of finding bytes.
	data = bytes.Clone(data)[:len(data):len(data)]
	fast, ok := parseInstanceFast(data)
	slow, err := parseInstanceGeneral(data)
	// The compact reader is the same reader with another sink: it accepts the
	// same texts and holds the same messages.
	var sink pathsSink
	_, compact := parseFast(data, &sink)
	require.Equal(t, ok, compact, "the compact reader accepted %v, the instance reader %v: %q", compact, ok, data)
	if !ok {
		return false
	}
	requireSamePaths(t, PathsOf(fast), &sink.p)
	require.NoError(t, err, "fast reader accepted %q", data)
	require.Equal(t, slow, fast, "instance %q", data)
	// The general path shares the message reader with the fast one: check the
	// messages against encoding/json's own reading of the text too.
	var doc struct {
		Name     string
		Flits    *int
		Messages []map[string]any
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	require.Equal(t, doc.Name, fast.Name)
	flits := 1
	if doc.Flits != nil {
		flits = *doc.Flits
	}
	require.Len(t, fast.Messages, len(doc.Messages))
	for i, dm := range doc.Messages {
		m := fast.Messages[i]
		require.Equal(t, dm["id"], m.ID, "message %d", i)
		l := flits
		if v, ok := dm["flits"]; ok {
			l = int(v.(float64))
		}
		require.Equal(t, l, m.L, "message %q", m.ID)
		if names, ok := dm["path"]; ok {
			var want []any
			for _, n := range fast.Net.NodesOf(m.Path) {
				want = append(want, n)
			}
			require.Equal(t, names, want, "message %q", m.ID)
		} else {
			var want []any
			for _, e := range m.Path {
				want = append(want, float64(e))
			}
			require.Equal(t, dm["edges"], want, "message %q", m.ID)
		}
	}
	return true
}

// instanceText draws the text of an instance: the top-level fields in any order
// (the messages before the network, "flits" after them), extra fields at the top
// and in messages, both path forms, and, now and then, something the fast reader
// must decline or leave to encoding/json (escapes, invalid UTF-8, leading zeros,
// repeated keys, unknown nodes, trailing bytes, broken brackets). topRepeat says
// a top-level key is repeated, the one thing of a valid instance the fast reader
// leaves to encoding/json's path as a whole.
func instanceText(t *rapid.T) (text string, plain, topRepeat bool) {
	plain = true
	odd := func(label string) bool {
		if rapid.IntRange(0, 3).Draw(t, label) == 0 {
			plain = false
			return true
		}
		return false
	}
	nodes := []string{"a", "b", "c", "d"}
	net := `{"nodes": ["a", "b", "c", "d"], "edges": [["a", "b"], ["b", "c"], ["c", "d"], ["b", "a"], ["c", "d"]]}`
	var fields []string
	fields = append(fields, `"network": `+net)
	if rapid.Bool().Draw(t, "has name") {
		name := `"inst"`
		if odd("odd name") {
			name = rapid.SampledFrom([]string{`"in\u0073t"`, `7`, `null`, "\"\xff\""}).Draw(t, "name")
		}
		fields = append(fields, `"name": `+name)
	}
	if rapid.Bool().Draw(t, "has flits") {
		fl := rapid.SampledFrom([]string{"1", "2", "3"}).Draw(t, "flits")
		if odd("odd flits") {
			fl = rapid.SampledFrom([]string{"0", "02", "2.0", "null", "-1"}).Draw(t, "odd flits value")
		}
		fields = append(fields, `"flits": `+fl)
	}
	if rapid.Bool().Draw(t, "has extra") {
		fields = append(fields, `"topology": {"kind": "x", "list": [1, "]", {"y": null}]}`)
	}
	var msgs []string
	for i := range rapid.IntRange(0, 5).Draw(t, "messages") {
		var parts []string
		id := fmt.Sprintf(`"m%d"`, i)
		if odd(fmt.Sprintf("odd id %d", i)) {
			id = rapid.SampledFrom([]string{fmt.Sprintf(`"m\u00e9%d"`, i), fmt.Sprintf("\"m\xc3%d\"", i), fmt.Sprintf(`"é%d"`, i), `3`}).Draw(t, "id")
		}
		idKey := `"id": `
		if odd(fmt.Sprintf("odd id key %d", i)) {
			idKey = rapid.SampledFrom([]string{`"ID": `, `"i\u0064": `, "\t\"id\"\r\n:"}).Draw(t, "id key")
		}
		parts = append(parts, idKey+id)
		if rapid.Bool().Draw(t, fmt.Sprintf("edges %d", i)) {
			es := rapid.SampledFrom([]string{"0, 1", "1, 2", "0", "2, 4", "3, 0"}).Draw(t, "edge list")
			if odd(fmt.Sprintf("odd edges %d", i)) {
				es = rapid.SampledFrom([]string{"00, 1", "0, 1.0", "-0", "7", "0,", "", "1e0", "-1", "+1", "99999999999999999999", "1\t,\r\n2"}).Draw(t, "odd edge list")
			}
			parts = append(parts, `"edges": [`+es+`]`)
		} else {
			n := rapid.IntRange(2, 4).Draw(t, "path nodes")
			ns := make([]string, n)
			for k := range ns {
				ns[k] = `"` + nodes[min(k+rapid.IntRange(0, 1).Draw(t, "skip"), 3)] + `"`
			}
			if odd(fmt.Sprintf("odd path %d", i)) {
				ns[0] = rapid.SampledFrom([]string{`"x"`, `"\u0061"`, `1`}).Draw(t, "odd node")
			}
			parts = append(parts, `"path": [`+strings.Join(ns, ",  ")+`]`)
		}
		if rapid.Bool().Draw(t, fmt.Sprintf("own flits %d", i)) {
			parts = append(parts, `"flits": 2`)
		}
		if odd(fmt.Sprintf("message extra %d", i)) {
			parts = append(parts, `"note": [true, {"z": "}"}]`)
		}
		if odd(fmt.Sprintf("repeat %d", i)) {
			parts = append(parts, parts[0])
		}
		rapid.Permutation(parts).Draw(t, "message keys")
		msgs = append(msgs, "{"+strings.Join(parts, ", ")+"}")
	}
	fields = append(fields, `"messages": [`+strings.Join(msgs, ",\n ")+`]`)
	fields = rapid.Permutation(fields).Draw(t, "top keys")
	if odd("repeat top") {
		fields = append(fields, fields[0])
		topRepeat = true
	}
	text = "{\n" + strings.Join(fields, ",\n") + "\n}\n"
	if odd("damage") {
		switch rapid.IntRange(0, 3).Draw(t, "how") {
		case 0:
			text += "x"
		case 1:
			text = strings.Replace(text, "]", "}", 1)
		case 2:
			text = strings.Replace(text, ",", "", 1)
		default:
			text = text[:len(text)/2]
		}
	}
	return text, plain, topRepeat
}

// The fast instance reader reads every text the way encoding/json's path does, or
// declines it; it accepts every instance the general path accepts but one with a
// repeated top-level key (messages of another shape it hands to parseMessage),
// and so the texts of the common shape (plain, every path resolvable).
func TestFastInstanceAgreesWithDecoder(t *testing.T) {
	accepted := 0
	rapid.Check(t, func(t *rapid.T) {
		text, plain, topRepeat := instanceText(t)
		ok := requireFastAgrees(t, []byte(text))
		if ok {
			accepted++
		}
		if _, err := parseInstanceGeneral([]byte(text)); err == nil {
			require.True(t, ok || topRepeat, "fast reader declined the valid text %s", text)
			require.True(t, ok || !plain, "fast reader declined the plain text %s", text)
		}
	})
	require.Positive(t, accepted, "the fast reader accepted nothing")
}

// FuzzFastInstance: on any bytes the fast instance reader agrees with
// encoding/json's path or declines, and ReadPaths reads what ReadInstance reads
// (requireReadPathsAgrees).
func FuzzFastInstance(f *testing.F) {
	f.Add([]byte(`{"network": {"edges": [["a","b"],["b","c"]]}, "messages": [{"id": "m", "path": ["a","b","c"]}], "flits": 2}`))
	f.Add([]byte(`{"messages": [{"id": "m", "edges": [1, 0], "x": 1}], "name": "n", "network": {"nodes": ["a","b"], "edges": [["a","b"],["b","a"]]}}`))
	f.Add([]byte("{\"network\": {\"edges\": [[\"a\",\"b\"]]}, \"messages\": [{\"id\": \"\xff\", \"edges\": [0]}]}"))
	f.Add([]byte(`{"messages": [{"id": "m", "path": ["abcdefgh", "abcdefgi", "\u00e9"]}, {"id": "n", "edges": [4294967297]}], "network": {"edges": [["abcdefgh","abcdefgi"],["abcdefgi","é"],["abcdefgh","abcdefgh"]]}}`))
	f.Add([]byte(`{"network": {"nodes": ["router-1", "router-10", "router-11"], "edges": [["router-1","router-11"],["router-1","router-10"],["router-1","router-10"]]}, "flits": 4611686018427387904, "messages": [{"id": "m", "path": ["router-1", "router-11"]}, {"id": "m\"", "edges": [2], "flits": 2}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		requireFastAgrees(t, data)
		requireReadPathsAgrees(t, data)
	})
}

// A message of another shape in a list that comes before the network is read
// from the list, not from the same offsets of the whole text (where this text
// puts another message: the fast reader once read m1 as "evil").
func TestFastInstanceLateNetworkOtherShape(t *testing.T) {
	pre := `{"x": `
	evil := `{"id":"evil","edges":[0]}   `
	real := `{"id":"m\u0031","edges":[1]}`
	// real sits at offset len(pre) of the list, evil at that offset of the text.
	text := pre + evil + `, "messages": [` + strings.Repeat(" ", len(pre)-1) + real +
		`], "network": {"nodes": ["a","b","c"], "edges": [["a","b"],["b","c"]]}}`
	require.True(t, requireFastAgrees(t, []byte(text)), text)
	in, err := ParseInstance([]byte(text))
	require.NoError(t, err)
	require.Equal(t, "m1", in.Messages[0].ID)
	require.Equal(t, []int{1}, in.Messages[0].Path)
}

// Every prefix of an instance, cut anywhere (inside a string, an escape, a
// number, between keys), with the messages before or after the network: the fast
// reader declines it or agrees, and never reads past the end of the text (an
// unterminated string in a field it skips once took it past the end: a panic
// when the text had no spare capacity).
func TestFastInstancePrefixes(t *testing.T) {
	net := `"network": {"nodes": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"]]}`
	msgs := `"messages": [{"id": "m0", "path": ["a", "b", "c"]}, {"id": "m\u0031", "edges": [1], "flits": 3, "note": "x\"y"}]`
	for _, text := range []string{
		"{" + net + ", " + msgs + `, "flits": 2, "x": ["a\\", {"b": "\u00e9"}]}`,
		`{"name": "n", "x": "a\"b", ` + msgs + ", " + net + "}",
	} {
		accepted := 0
		for cut := range len(text) + 1 {
			if requireFastAgrees(t, []byte(text[:cut])) {
				accepted++
			}
		}
		require.Equal(t, 1, accepted, "only the whole text is an instance: %s", text)
	}
}

// The general path (here for a top-level key spelt with an escape, which the
// fast reader declines; a repeated key, which it also declines, is refused)
// takes the paths its fast message reader reads from one arena for the whole
// instance, as the fast path does: consecutive paths lie side by side in one array
// (an arena per message once held 2^16 hops for each: 10 GB for 20000 messages).
func TestGeneralPathSharesArena(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"n\u0061me": "a", "network": {"edges": [["a","b"],["b","c"]]}, "messages": [`)
	for i := range 100 {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"id": "m%d", "path": ["a", "b", "c"]}`, i)
	}
	b.WriteString("]}")
	_, ok := parseInstanceFast([]byte(b.String()))
	require.False(t, ok, "a key spelt with an escape is the general path's")
	in, err := ParseInstance([]byte(b.String()))
	require.NoError(t, err)
	require.Len(t, in.Messages, 100)
	for i := 1; i < len(in.Messages); i++ {
		prev, cur := in.Messages[i-1].Path, in.Messages[i].Path
		require.Equal(t, []int{0, 1}, cur)
		require.Equal(t, len(prev), cap(prev), "a path is capped at its length")
		require.Equal(t, unsafe.Add(unsafe.Pointer(unsafe.SliceData(prev)), len(prev)*int(unsafe.Sizeof(0))),
			unsafe.Pointer(unsafe.SliceData(cur)), "message %d's path is not beside message %d's", i, i-1)
	}
}

// The hop index tells names apart that share their first 7 bytes (of 8 bytes or
// more), differ in their 7th byte, or differ only in length, and declines a hop to a node that exists but is no neighbour: the
// fast reader agrees with encoding/json's path on each.
func TestFastInstanceLongNames(t *testing.T) {
	net := `"network": {"nodes": ["router-1", "router-10", "router-11", "router-", "r", "router-2", "rout-ab"], "edges": [["router-1", "router-10"], ["router-1", "router-11"], ["router-1", "router-"], ["router-11", "r"], ["router-11", "router-2"], ["router-2", "rout-ab"]]}`
	for _, c := range []struct {
		path string
		want []int
	}{
		{`["router-1", "router-11", "r"]`, []int{1, 3}},
		{`["router-1", "router-10"]`, []int{0}},
		{`["router-1", "router-"]`, []int{2}},
		{`["router-1", "r"]`, nil},
		{`["router-1", "router-12"]`, nil},
		// 8 bytes, the first 7 those of a neighbour: compared whole.
		{`["router-11", "router-2"]`, []int{4}},
		{`["router-11", "router-3"]`, nil},
		// 7 bytes: the key is the whole name.
		{`["router-2", "rout-ab"]`, []int{5}},
		{`["router-2", "rout-ac"]`, nil},
	} {
		text := "{" + net + `, "messages": [{"id": "m", "path": ` + c.path + "}]}"
		ok := requireFastAgrees(t, []byte(text))
		require.Equal(t, c.want != nil, ok, text)
		if ok {
			in, err := ParseInstance([]byte(text))
			require.NoError(t, err)
			require.Equal(t, c.want, in.Messages[0].Path, text)
		}
	}
}
