package fattree

import (
	"fmt"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/topology"
)

// FPInstance is a run's packets on their FP paths as a MODEL.md instance (one edge
// per link of the fat-tree, as topology.Model numbers them; a packet whose source
// is its destination is left out): the paths are fixed before routing starts, so
// its congestion, dilation and lower bounds bound every schedule of the run.
func FPInstance(run *Run) *model.Instance {
	net, edge := topology.Model(run.FT)
	in := &model.Instance{Name: fmt.Sprintf("%v FP", run.FT), Net: net, Flits: run.Flits}
	for i, p := range run.Pairs {
		if p.Src == p.Dst {
			continue
		}
		ports := FixedPorts(run.FT, p.Src, p.Dst, run.Up[i])
		path := make([]int, len(ports))
		v := p.Src
		for k, port := range ports {
			path[k] = edge[v][port]
			v, _ = run.FT.Link(v, port)
		}
		in.Messages = append(in.Messages, model.Message{ID: fmt.Sprintf("m%d", i), Path: path, L: run.Flits, AsEdges: true})
	}
	return in
}
