package main

import (
	"github.com/wormlab/wormlab/instances"
)

func init() {
	register(&command{
		name:    "gen",
		summary: "generate an instance (network + traffic + routing)",
		run:     runGen,
	})
}

func runGen(e *env) error {
	fs := newFlags(e, "gen", "KIND",
		"Generates an instance in the JSON format of MODEL.md on stdout (or -o FILE).\n"+
			"KIND: line, tree, kary-tree, mesh, torus, butterfly, fat-tree, levelled.\n"+
			"Messages from a node to itself are skipped (a path must be non-empty).")
	var s instances.Spec
	sides := fs.String("sides", "", "mesh/torus sides, e.g. 4x4 or 8x8x8")
	fs.IntVar(&s.Size, "size", 0, "nodes (line, tree), inputs (butterfly, 2^k), processors (fat-tree, 4^h), width (levelled)")
	fs.IntVar(&s.K, "k", 0, "arity (kary-tree, default 2) or out-degree (levelled, default 2)")
	fs.IntVar(&s.Depth, "depth", 0, "depth (kary-tree, default 3) or number of levels (levelled, default 4)")
	fs.StringVar(&s.Traffic, "traffic", "random", "random|permutation|complement|many-to-1|hotspot|local|transpose|bit-reversal|light|heavy")
	fs.StringVar(&s.Routing, "routing", "", "dimension-order|one-bend|random-shortest (meshes, tori), random-shortest|deterministic (fat-tree); default: the topology's first")
	fs.IntVar(&s.Messages, "messages", 0, "number of messages (default one per source; light/heavy fix it)")
	fs.IntVar(&s.Flits, "flits", 0, "message length L (default log N for light/heavy, else 1)")
	fs.Uint64Var(&s.Seed, "seed", 1, "random seed")
	fs.IntVar(&s.Radius, "radius", 1, "reach of local traffic")
	fs.Float64Var(&s.Hotspot, "hotspot", 0.1, "fraction of hotspot traffic sent to the hotspot node")
	fs.StringVar(&s.Name, "name", "", "instance name (default from kind, size and traffic)")
	out := fs.String("o", "", "write the instance to FILE instead of stdout")
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	s.Kind = args[0]
	if *sides != "" {
		if s.Sides, err = instances.ParseSides(*sides); err != nil {
			return err
		}
	}
	in, err := instances.Generate(s)
	if err != nil {
		return err
	}
	return writeInstance(e, *out, in)
}
