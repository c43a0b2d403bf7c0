package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// refNumericNames is numericNames a byte at a time: `"`, 1 to 7 bytes '0'-'9'
// with no leading zero naming a node below n, `"`, then ',' and the next name,
// or ']'; nothing else, and not where a name's word would run past the data.
func refNumericNames(data []byte, i, n int) (end int, nodes []int32, ok bool) {
	for {
		if i+10 > len(data) || data[i] != '"' {
			return 0, nil, false
		}
		j := i + 1
		for j < len(data) && j-i-1 < 8 && data[j] != '"' {
			j++
		}
		name := data[i+1 : j]
		if j == len(data) || data[j] != '"' || len(name) == 0 || len(name) > 7 || (name[0] == '0' && len(name) > 1) {
			return 0, nil, false
		}
		v := 0
		for _, c := range name {
			if c < '0' || c > '9' {
				return 0, nil, false
			}
			v = v*10 + int(c-'0')
		}
		if v >= n {
			return 0, nil, false
		}
		nodes = append(nodes, int32(v))
		switch i = j + 1; data[i] {
		case ',':
			i++
		case ']':
			return i + 1, nodes, true
		default:
			return 0, nil, false
		}
	}
}

// Lemma (numericNames reads what it takes by the word as a byte at a time): on
// lists of names of 0 to 9 bytes, digits or digits with one byte changed (the
// bytes beside '0' and '9', the quote, a backslash, a space, a high byte),
// leading zeros, values around the number of nodes, separators with and
// without spaces, cut anywhere, numericNames and refNumericNames give the same
// answer, the same end and the same nodes.
func TestNumericNamesByteAtATime(t *testing.T) {
	read, declined := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 20_000_000).Draw(t, "nodes")
		var b strings.Builder
		b.WriteString("[")
		for k := range rapid.IntRange(1, 6).Draw(t, "names") {
			if k > 0 {
				b.WriteString(rapid.SampledFrom([]string{",", ",", ",", ",", ",", ", ", " ,", ";"}).Draw(t, "sep"))
			}
			v := rapid.OneOf(rapid.IntRange(0, 9), rapid.IntRange(0, n+1), rapid.IntRange(0, 999_999_999)).Draw(t, "value")
			name := []byte(fmt.Sprint(v))
			switch rapid.IntRange(0, 11).Draw(t, "odd") {
			case 9:
				name = append([]byte("0"), name...)
			case 10:
				name[rapid.IntRange(0, len(name)-1).Draw(t, "at")] = rapid.SampledFrom([]byte{'/', ':', '?', '@', 'p', '"', '\\', ' ', 0x80, 0xB0, 0x00, 0x1F}).Draw(t, "byte")
			case 11:
				name = name[:0]
			}
			b.WriteString(`"` + string(name) + `"`)
		}
		b.WriteString(rapid.SampledFrom([]string{"]", "]", "]", "]", " ]", "]}", ""}).Draw(t, "close"))
		b.WriteString(rapid.SampledFrom([]string{"}, {\"id\": \"m\"}", strings.Repeat(" ", 8), ""}).Draw(t, "after"))
		data := []byte(b.String())
		if rapid.IntRange(0, 4).Draw(t, "cut") == 0 {
			data = data[:rapid.IntRange(len(data)/2, len(data)).Draw(t, "cut at")]
		}
		wantEnd, want, wantOK := refNumericNames(data, 1, n)
		end, got, ok := numericNames(data, 1, nil, n)
		require.Equal(t, wantOK, ok, "%q", data)
		if ok {
			read++
			require.Equal(t, wantEnd, end, "%q", data)
			require.Equal(t, want, got, "%q", data)
		} else {
			declined++
		}
	})
	require.Positive(t, read)
	require.Positive(t, declined)
}

// Lemma (namePath reads a list by the word as its loop reads it): on networks
// of adversarialNames (7, 8 and 9 bytes, escapes, control characters, invalid
// UTF-8, numeric ones) and mesh-like ones with random edges (some twice), and
// walks over them written without spaces mostly, in jsonText's spellings now
// and then, with an unknown or odd name now and then,
// other separators and ends, and cuts, namePath gives the same answer, end,
// hops and nodes with the word readings (numericNames, keyedNames) on as with
// them off; and keyedNames reads some lists itself.
func TestNamePathByWordIsTheLoop(t *testing.T) {
	keyed := 0
	defer func(b bool) { wordNames = b }(wordNames)
	plain := []string{"0,0", "0,1", "1,0", "1,1", "12,31", "31,12", "a", "abcdefg"}
	rapid.Check(t, func(t *rapid.T) {
		var names []string
		for u := range rapid.IntRange(1, 7).Draw(t, "nodes") {
			pool := plain
			if rare(t, 2, fmt.Sprintf("adversarial %d", u)) {
				pool = adversarialNames
			}
			names = append(names, rapid.SampledFrom(pool).Draw(t, fmt.Sprintf("node %d", u)))
		}
		net := &Network{Nodes: names}
		for range rapid.IntRange(len(names), 3*len(names)).Draw(t, "edges") {
			net.Edges = append(net.Edges, Edge{rapid.IntRange(0, len(names)-1).Draw(t, "from"), rapid.IntRange(0, len(names)-1).Draw(t, "to")})
		}
		net.ensureIndex()
		hop := newHopIndex(net)
		walk, _ := drawWalk(t, len(names), len(net.Edges), func(e int) (int, int) { return net.Edges[e].From, net.Edges[e].To })
		var ns []string
		for k, v := range walk {
			if rare(t, 4, fmt.Sprintf("spelling %d", k)) {
				ns = append(ns, jsonText(t, names[v], fmt.Sprintf("hop %d", k)))
			} else {
				ns = append(ns, `"`+jsonBody(names[v])+`"`)
			}
		}
		if rare(t, 5, "odd name") {
			ns = append(ns, rapid.SampledFrom([]string{`"zz"`, `"abcdefgX"`, `""`, `"abcdefghiX"`, `1`}).Draw(t, "odd name value"))
		}
		odd := func(usual string, others []string, label string) string {
			if rare(t, 4, label) {
				return rapid.SampledFrom(others).Draw(t, label+" value")
			}
			return usual
		}
		text := "[" + strings.Join(ns, odd(",", []string{", ", " ,"}, "separator")) + odd("]", []string{" ]", "]}", ""}, "close") +
			odd(`}, {"id": "m"}`, []string{strings.Repeat(" ", 8), ""}, "after")
		data := []byte(text)[:len(text):len(text)]
		if rare(t, 5, "cut") {
			data = data[:rapid.IntRange(1, len(data)).Draw(t, "cut at")]
		}
		read := func(byWord bool) (ok bool, end int, hops []int, nodes []int32) {
			wordNames = byWord
			p := fastScanner{data: data, hop: hop}
			ok = p.namePath(net)
			return ok, p.i, p.hops, p.nodes
		}
		ok, end, hops, nodes := read(true)
		wantOK, wantEnd, wantHops, wantNodes := read(false)
		require.Equal(t, wantOK, ok, "%q on %q", data, names)
		if ok {
			require.Equal(t, wantEnd, end, "%q on %q", data, names)
			require.Equal(t, wantHops, hops, "%q on %q", data, names)
			require.Equal(t, wantNodes, nodes, "%q on %q", data, names)
		}
		p := fastScanner{data: data, hop: hop}
		if _, ok := p.keyedNames(net, 1); ok && !hop.numeric {
			keyed++
		}
	})
	if !testing.Short() { // 20 texts under -short: some runs have no list it reads
		require.Positive(t, keyed, "keyedNames read no list")
	}
	// Names spelled with an escape, beside nodes named by the spelling's
	// bytes, and a raw control character: the loop's reading, not the
	// bytes' (a word reading without badBytes takes the wrong nodes).
	twins := &Network{Nodes: []string{"ab", `\u0061b`, "c", "a\tb"}, Edges: []Edge{{0, 2}, {1, 2}, {2, 0}, {2, 1}, {3, 2}, {2, 3}}}
	twins.ensureIndex()
	for _, text := range []string{`["\u0061b","c"]        `, `["c","\u0061b"]        `, "[\"c\",\"a\tb\"]        ", "[\"a\tb\",\"c\"]        "} {
		var got [2]bool
		var hops [2][]int
		for k, byWord := range []bool{false, true} {
			wordNames = byWord
			p := fastScanner{data: []byte(text), hop: newHopIndex(twins)}
			got[k] = p.namePath(twins)
			hops[k] = p.hops
		}
		require.Equal(t, got[0], got[1], "%q", text)
		if got[0] {
			require.Equal(t, hops[0], hops[1], "%q", text)
		}
	}
	wordNames = true
	// And it reads a mesh's list as wormlab gen writes it.
	net := &Network{Nodes: []string{"0,0", "0,1", "1,0", "1,1"}, Edges: []Edge{{0, 1}, {1, 0}, {1, 3}, {3, 1}, {0, 2}, {2, 3}}}
	net.ensureIndex()
	data := []byte(`["0,0","0,1","1,1"]}, {"id": "m"}`)
	p := fastScanner{data: data, hop: newHopIndex(net)}
	end, ok := p.keyedNames(net, 1)
	require.True(t, ok)
	require.Equal(t, len(`["0,0","0,1","1,1"]`), end)
	require.Equal(t, []int{0, 2}, p.hops)
}
