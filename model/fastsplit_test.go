package model

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// longText is a document whose message list is read on two cores at splitMin's
// own value: messages of the common shape, before and after a middle piece, as
// many as make the text from the list to the end at least splitMin bytes, the
// middle piece at the middle of that text (where splitPoint guesses).
type longText struct {
	head, tail string // the text before the list's first message and after its ']'
	msg        func(i int) string
	middle     string // between two messages of the list, with its commas
	last       bool   // the middle piece ends the list: no message after it
}

func (lt longText) text() []byte {
	var a, b bytes.Buffer
	n := 0
	for a.Len() < splitMin/2+1024 {
		if n > 0 {
			a.WriteString(", ")
		}
		a.WriteString(lt.msg(n))
		n++
	}
	for !lt.last && b.Len() < a.Len() {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(lt.msg(n))
		n++
	}
	return []byte(lt.head + a.String() + lt.middle + b.String() + lt.tail)
}

// requireLongReadersAgree checks on a long text what requireReadersAgree checks
// of ReadPaths, at splitMin's own value (two cores from 4 MB), with messages
// that do not print the text: the messages, or the one-line error, of
// encoding/json's reading. It reports whether the text is an instance.
func requireLongReadersAgree(t *testing.T, data []byte) (valid bool) {
	t.Helper()
	want, werr := generalOnly(data)
	ps, perr := ReadPaths(bytes.NewReader(data))
	if werr != nil {
		require.NotContains(t, werr.Error(), "\n")
		require.Error(t, perr)
		require.Equal(t, werr.Error(), perr.Error())
		return false
	}
	require.NoError(t, perr)
	requireSamePaths(t, PathsOf(want), ps)
	return true
}

// Lemma (a wrong guess of where a message begins costs time only, at the
// size where ReadPaths reads on two cores): documents of at least splitMin
// bytes (4 MB), read at splitMin's own value, give encoding/json's messages or
// its one-line error, whatever lies where splitPoint guesses: text that looks
// like a message start inside strings (`}, {`, `"path"`, escapes of them),
// fake messages nested in an unknown field of a message or of the document,
// one long message across the middle, white space and CRLF anywhere, fields in
// any order, a top-level "flits" after the list, the list before the network,
// and errors in the second half (a repeated id or key, an exponent, an edge
// out of range, a cut text, trailing garbage). The plain texts are joined:
// the two halves were read on two cores.
func TestReadPathsSplitLongTexts(t *testing.T) {
	twoProcs(t)
	if testing.Short() {
		t.Skip("4 MB texts through encoding/json")
	}
	net := `{"network": {"edges": [["a", "b"], ["b", "a"], ["b", "c"], ["c", "b"]]}, "messages": [`
	plain := func(i int) string { return fmt.Sprintf(`{"id": "m%d", "path": ["a", "b", "c"]}`, i) }
	many := func(piece func(i int) string, n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(", ")
			b.WriteString(piece(i))
		}
		return b.String() + ", "
	}
	fakes := func(n int) string { // message-shaped objects, without the commas around
		return strings.TrimSuffix(strings.TrimPrefix(many(func(i int) string {
			return fmt.Sprintf(`{"id": "fake%d", "path": ["c", "b"]}`, i)
		}, n), ", "), ", ")
	}
	// A line of 2^17 nodes with numeric names, and a message along all of it.
	var line, long strings.Builder
	line.WriteString(`{"network": {"edges": [`)
	long.WriteString(`{"id": "long", "path": [`)
	const lineNodes = 1 << 17
	for u := range lineNodes {
		if u > 1 {
			line.WriteString(", ")
		}
		if u > 0 {
			fmt.Fprintf(&line, `["%d", "%d"]`, u-1, u)
			long.WriteString(", ")
		}
		fmt.Fprintf(&long, `"%d"`, u)
	}
	line.WriteString(`]}, "messages": [`)
	long.WriteString(`]}`)
	cases := []struct {
		name  string
		lt    longText
		joins bool // the two halves are joined (at splitMin's own value)
	}{
		{name: "plain", lt: longText{head: net, tail: `]}`, msg: plain, middle: ", "}, joins: true},
		{name: "message starts in strings", lt: longText{head: net, tail: `]}`, msg: plain, middle: many(func(i int) string {
			ids := []string{`}, {`, `}, {\"id\": \"x\", \"path\": [\"a\", \"b\"]}, {`, `\u007d, \u007b`, `}, {\"`, `\"path\"`, `\"`, `},{\"id\": \"`}
			return fmt.Sprintf(`{"id": "%s%d", "path": ["a", "b"]}`, ids[i%len(ids)], i)
		}, 4000)}},
		{name: "fake messages in a message's unknown field", lt: longText{head: net, tail: `]}`, msg: plain,
			middle: `, {"id": "host", "x": [` + fakes(40000) + `], "path": ["c", "b"]}, `}},
		{name: "fake messages nested deeper", lt: longText{head: net, tail: `]}`, msg: plain,
			middle: `, {"id": "host", "path": ["c", "b"], "x": {"y": [[` + fakes(40000) + `]], "z": {}}}, `}},
		{name: "fake messages in the last message, the text cut after them", lt: longText{head: net, msg: plain, last: true,
			middle: `, {"id": "host", "path": ["c", "b"], "x": [` + fakes(120000) + `]}`}},
		{name: "fake messages after the list", lt: longText{head: net, msg: plain, middle: ", ",
			tail: `], "x": [` + fakes(120000) + `]}`}},
		{name: "one long message across the middle", lt: longText{head: line.String(), tail: `]}`, msg: func(i int) string {
			return fmt.Sprintf(`{"id": "m%d", "path": ["%d", "%d"]}`, i, i%(lineNodes-1), i%(lineNodes-1)+1)
		}, middle: ", " + long.String() + ", "}, joins: true},
		{name: "white space and CRLF", lt: longText{head: "\r\n" + strings.ReplaceAll(net, " ", "\r\n\t"), tail: "\r\n]\r\n}\r\n", msg: func(i int) string {
			return fmt.Sprintf("{\r\n\t\"path\"\r\n:\t[ \"a\" ,\r\n\"b\"\t]\r\n,\"id\" :\"m%d\"\r\n}\r\n \t", i)
		}, middle: " \r\n,\r\n\t "}, joins: true},
		{name: "fields in any order, flits and edges", lt: longText{head: net, tail: `]}`, msg: func(i int) string {
			switch i % 3 {
			case 0:
				return fmt.Sprintf(`{"flits": %d, "edges": [0, 2], "id": "m%d"}`, 1+i%5, i)
			case 1:
				return fmt.Sprintf(`{"path": ["c", "b", "a"], "id": "m%d", "flits": 2}`, i)
			}
			return fmt.Sprintf(`{"edges": [3], "id": "m%d"}`, i)
		}, middle: ", "}, joins: true},
		{name: "flits after the list", lt: longText{head: net, tail: `], "flits": 3}`, msg: plain, middle: ", "}, joins: true},
		{name: "the list before the network", lt: longText{head: `{"name": "n", "messages": [`,
			tail: `], "network": {"edges": [["a", "b"], ["b", "a"], ["b", "c"], ["c", "b"]]}}`, msg: plain, middle: ", "}, joins: true},
		{name: "unknown fields around the list", lt: longText{head: `{"x": {"a": [{}, {"b": [1e3, -0.5, "}, {"]}]}, ` + net[1:],
			tail: `], "y": [{"id": "q", "path": ["a", "b"]}, {}], "z": null}`, msg: plain, middle: ", "}, joins: true},
		{name: "a second message list", lt: longText{head: net, tail: `], "messages": []}`, msg: plain, middle: ", "}},
		{name: "a byte order mark", lt: longText{head: "\xef\xbb\xbf" + net, tail: `]}`, msg: plain, middle: ", "}},
		{name: "an id of the first half again in the second", lt: longText{head: net, tail: `, {"id": "m0", "path": ["a", "b"]}]}`, msg: plain, middle: ", "}},
		{name: "a repeated key in the second half", lt: longText{head: net, tail: `, {"id": "r", "id": "s", "path": ["a", "b"]}]}`, msg: plain, middle: ", "}},
		{name: "a repeated path in the second half", lt: longText{head: net, tail: `, {"id": "r", "path": ["a", "b"], "path": ["b", "c"]}]}`, msg: plain, middle: ", "}},
		{name: "an exponent in the second half", lt: longText{head: net, tail: `, {"id": "r", "path": ["a", "b"], "flits": 1e0}]}`, msg: plain, middle: ", "}},
		{name: "a fraction in the second half", lt: longText{head: net, tail: `, {"id": "r", "path": ["a", "b"], "flits": 2.0}]}`, msg: plain, middle: ", "}},
		{name: "an edge out of range in the second half", lt: longText{head: net, tail: `, {"id": "r", "edges": [4]}]}`, msg: plain, middle: ", "}},
		{name: "a walk that is no path in the second half", lt: longText{head: net, tail: `, {"id": "r", "path": ["a", "c"]}]}`, msg: plain, middle: ", "}},
		{name: "an unknown node in the second half", lt: longText{head: net, tail: `, {"id": "r", "path": ["a", "d"]}]}`, msg: plain, middle: ", "}},
		{name: "trailing garbage", lt: longText{head: net, tail: `]} x`, msg: plain, middle: ", "}},
		{name: "a second document", lt: longText{head: net, tail: `]} {}`, msg: plain, middle: ", "}},
		{name: "a trailing comma", lt: longText{head: net, tail: `, ]}`, msg: plain, middle: ", "}},
		{name: "no closing brace", lt: longText{head: net, tail: `]`, msg: plain, middle: ", "}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := c.lt.text()
			require.GreaterOrEqual(t, len(data), splitMin)
			joins := splitJoins.Load()
			valid := requireLongReadersAgree(t, data)
			if c.joins {
				require.True(t, valid, "the text is an instance")
				require.Greater(t, splitJoins.Load(), joins, "no reading at splitMin's own value joined two halves")
			}
		})
	}
	// Texts cut in the second half (their lists open: every cut an error).
	data := cases[0].lt.text()
	for _, cut := range []int{len(data) / 2, len(data)/2 + 17, len(data) - len(data)/4, len(data) - 3} {
		requireLongReadersAgree(t, data[:cut:cut])
	}
}

// ReadPaths may be called from several goroutines at once (wormlab sweep runs
// its points' color commands in one process, --workers at a time): readings on
// two cores at once share nothing. Run with -race (cca90bc's data race on the
// count of joins showed there, and in no test).
func TestReadPathsConcurrent(t *testing.T) {
	twoProcs(t)
	defer func(n int) { splitMin = n }(splitMin)
	splitMin = 0
	text := []byte(`{"network": {"edges": [["a", "b"], ["b", "c"]]}, "messages": [{"id": "m", "path": ["a", "b"]}, {"id": "n", "path": ["b", "c"]}, {"id": "o", "path": ["a", "b", "c"]}]}`)
	want, err := ReadPaths(bytes.NewReader(text))
	require.NoError(t, err)
	got := make([]*Paths, 4)
	var wg sync.WaitGroup
	for k := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ps, err := ReadPaths(bytes.NewReader(text)); err == nil {
				got[k] = ps
			}
		}()
	}
	wg.Wait()
	for _, ps := range got {
		require.NotNil(t, ps)
		requireSamePaths(t, want, ps)
	}
}

// twoProcs lets ReadPaths read a list's second half on another goroutine,
// which it does only with GOMAXPROCS at least 2, for the rest of the test: on
// one processor (go test -cpu 1, a machine of one core) the tests of the split
// reading would otherwise read on one core only, and pass or fail for that.
func twoProcs(t *testing.T) {
	if old := runtime.GOMAXPROCS(0); old < 2 {
		runtime.GOMAXPROCS(2)
		t.Cleanup(func() { runtime.GOMAXPROCS(old) })
	}
}
