package draw

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const twoPackets = `{"trace":{"topology":"mesh:2x1","nodes":["0,0","1,0"]}}
{"cycle":3,"event":"generate","packet":7,"node":0,"dst":1,"flits":2}
{"cycle":3,"event":"inject","packet":7,"node":0,"flit":0,"port":2,"vc":0}
{"cycle":4,"event":"inject","packet":7,"node":0,"flit":1,"port":2,"vc":0}
{"cycle":5,"event":"route","packet":7,"node":0,"in_port":2,"in_vc":0,"choices":[{"port":0,"vcs":[0,1]}]}
{"cycle":6,"event":"vc","packet":7,"node":0,"port":0,"vc":1,"in_port":2,"in_vc":0}
{"cycle":7,"event":"send","packet":7,"node":0,"flit":0,"port":0,"vc":1,"in_port":2,"in_vc":0,"to":1}
{"cycle":8,"event":"send","packet":7,"node":0,"flit":1,"port":0,"vc":1,"in_port":2,"in_vc":0,"to":1}
{"cycle":4,"event":"generate","packet":9,"node":1,"dst":1,"flits":1}
{"cycle":10,"event":"send","packet":7,"node":1,"flit":0,"port":2,"vc":0,"in_port":1,"in_vc":1,"to":-1}
{"cycle":11,"event":"send","packet":7,"node":1,"flit":1,"port":2,"vc":0,"in_port":1,"in_vc":1,"to":-1}
{"cycle":12,"event":"deliver","packet":7,"node":1,"flit":1}
`

// A trace's packets are drawn as one cell per flit move, on the rows of the
// channels in order of first use, the head outlined; the legend gives each
// packet's latency (or says it was not delivered).
func TestTraceSVG(t *testing.T) {
	tr, err := ReadTrace(strings.NewReader(twoPackets))
	require.NoError(t, err)
	require.Len(t, tr.Packets, 2)
	require.Equal(t, int64(12), tr.Packets[0].Delivered)
	require.Len(t, tr.Packets[0].Moves, 6)
	var b bytes.Buffer
	n, left, err := TraceSVG(&b, tr, TraceOptions{})
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.Zero(t, left)
	dec := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	cells, heads := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		if e, ok := tok.(xml.StartElement); ok && e.Name.Local == "rect" {
			for _, a := range e.Attr {
				if a.Name.Local == "stroke" {
					heads++
				}
			}
		}
		if c, ok := tok.(xml.CharData); ok && strings.HasPrefix(string(c), "packet 7 flit") {
			cells++
		}
	}
	require.Equal(t, 6, cells)
	require.Equal(t, 3, heads, "the head outlined on each of its three channels")
	for _, want := range []string{"inject 0,0", "0,0 -&gt; 1,0", "eject 1,0", "latency 9", "not delivered in the trace"} {
		require.Contains(t, b.String(), want)
	}
	n, left, err = TraceSVG(io.Discard, tr, TraceOptions{MaxCells: 3})
	require.NoError(t, err)
	require.Equal(t, 1, n, "packet 9 has no move: it fits")
	require.Equal(t, 1, left, "packet 7's six cells do not")
	_, _, err = TraceSVG(io.Discard, tr, TraceOptions{Packets: []int64{8}})
	require.ErrorContains(t, err, "packet 8 is not in the trace")

	for text, msg := range map[string]string{
		`{"cycle":1,"event":"send","packet":3,"node":0}`: "line 1: packet 3 before its generate event",
		"{\n{": "line 1: not a trace line",
		`{"cycle":1,"event":"generate","packet":3}`: "line 1: a generate event needs dst and flits",
		`{"trace":{}}`: "no packet in the trace",
	} {
		_, err := ReadTrace(strings.NewReader(text))
		require.ErrorContains(t, err, msg, text)
	}
}
