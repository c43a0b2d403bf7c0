package main

import (
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/topology"
)

// networkRouting resolves the --topology and --routing flags of the router-level
// commands (sim, deadlock): the network, the algorithm and the VCs it needs there,
// each failure a usage error naming its flag.
func networkRouting(topo, name string) (topology.Network, routing.Algorithm, int, error) {
	net, err := topology.Parse(topo)
	if err != nil {
		return nil, routing.Algorithm{}, 0, usageError("--topology: %v", err)
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
