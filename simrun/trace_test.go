package simrun

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/topology"
)

// A trace follows exactly the packets selected, and each one's events tell its
// whole life: generated at its source, its flits injected, routed with choices
// and granted a VC at every router it crosses, each hop a link of the network
// from its source to its destination, every flit delivered there.
func TestTracer(t *testing.T) {
	r := Default()
	for k, v := range map[string]string{"topology": "mesh:4x4", "routing": "westfirst", "vcs": "2", "flits": "4", "rate": "0.3", "max-cycles": "2000", "min-cycles": "2000"} {
		require.NoError(t, r.Set(k, v))
	}
	sel := TraceSelect{Src: []int{5}, From: 100, To: 600}
	require.NoError(t, sel.Check(&r))
	tr, err := NewTracer(&r, sel)
	require.NoError(t, err)
	_, err = RunOne(context.Background(), r, func(b *Built) { b.Config.Trace = tr.Event })
	require.NoError(t, err)
	require.Greater(t, tr.Packets(), 5)
	data, err := tr.Bytes()
	require.NoError(t, err)
	net, _ := topology.Parse("mesh:4x4")
	type life struct {
		gen, flits, injected, delivered, routes, grants int
		at                                              int32 // the head's router
		dst                                             int32
		path                                            []int32
	}
	lives := map[int64]*life{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	require.True(t, sc.Scan())
	require.Contains(t, sc.Text(), `"trace":`)
	for sc.Scan() {
		var ev TraceEvent
		require.NoError(t, json.Unmarshal(sc.Bytes(), &ev))
		l := lives[ev.Packet]
		if ev.Event == "generate" {
			require.Nil(t, l)
			require.Equal(t, int32(5), ev.Node)
			require.True(t, ev.Cycle >= 100 && ev.Cycle <= 600)
			lives[ev.Packet] = &life{gen: 1, flits: int(*ev.Flits), at: ev.Node, dst: *ev.Dst, path: []int32{ev.Node}}
			continue
		}
		require.NotNil(t, l, "an event before the packet's generation")
		switch ev.Event {
		case "inject":
			l.injected++
		case "route":
			require.Equal(t, l.at, ev.Node)
			require.NotEmpty(t, ev.Choices)
			l.routes++
		case "vc":
			l.grants++
		case "send":
			require.Contains(t, l.path, ev.Node, "a flit leaves a router its head crossed")
			if *ev.To >= 0 {
				next, _ := net.Link(int(ev.Node), int(*ev.Port))
				require.Equal(t, int(*ev.To), next)
				if *ev.Flit == 0 {
					require.Equal(t, l.at, ev.Node)
					l.at = *ev.To
					l.path = append(l.path, *ev.To)
				}
			} else {
				require.Equal(t, l.dst, ev.Node, "ejected at its destination")
			}
		case "deliver":
			require.Equal(t, l.dst, ev.Node)
			l.delivered++
		}
	}
	done := 0
	for _, l := range lives {
		if l.delivered == l.flits {
			done++
			require.Equal(t, l.flits, l.injected)
			require.Equal(t, l.routes, l.grants, "one VC per router crossed")
			require.Equal(t, l.dst, l.at)
		}
	}
	require.Equal(t, tr.Packets(), len(lives))
	require.Greater(t, done, 5)

	// bounded: a trace stops at Max events and says so
	small, err := NewTracer(&r, TraceSelect{From: 0, To: -1, Max: 50})
	require.NoError(t, err)
	_, err = RunOne(context.Background(), r, func(b *Built) { b.Config.Trace = small.Event })
	require.NoError(t, err)
	require.Equal(t, 50, small.Events())
	require.True(t, small.Truncated())

	for s, param := range map[*TraceSelect]string{
		{Src: []int{16}, To: -1}:       "trace-src",
		{Dst: []int{-1}, To: -1}:       "trace-dst",
		{From: 5000, To: -1}:           "trace-cycles",
		{From: 10, To: 5}:              "trace-cycles",
		{Packets: []int64{-2}, To: -1}: "trace-packets",
	} {
		err := s.Check(&r)
		require.Error(t, err)
		require.Equal(t, param, err.(*Error).Param)
	}
}
