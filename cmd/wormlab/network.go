package main

import (
	"strings"

	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// networkRouting resolves the --topology and --routing flags of the router-level
// commands (sim, deadlock): the network, the algorithm and the VCs it needs there,
// each failure a usage error naming its flag. An empty topo is torus:8x8, or the
// network of the routing table when the routing is "table:FILE".
func networkRouting(topo, name string) (topology.Network, routing.Algorithm, int, error) {
	var net topology.Network
	if file, ok := strings.CutPrefix(name, "table:"); ok && topo == "" {
		t, err := routing.LoadTable(file)
		if err != nil {
			return nil, routing.Algorithm{}, 0, usageError("--routing: %v", err)
		}
		net = t.Net()
	} else {
		if topo == "" {
			topo = "torus:8x8"
		}
		n, err := topology.Parse(topo)
		if err != nil {
			return nil, routing.Algorithm{}, 0, usageError("--topology: %v", err)
		}
		net = n
	}
	alg, err := routing.Lookup(name)
	if err != nil {
		return nil, routing.Algorithm{}, 0, usageError("--routing: %v", err)
	}
	need, err := alg.MinVCs(net)
	if err != nil {
		return nil, routing.Algorithm{}, 0, usageError("--routing: %v", err)
	}
	return net, alg, need, nil
}
