package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

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
	fs := newFlags(e, "gen", "[TOPOLOGY]",
		"Generates an instance in the JSON format of MODEL.md on stdout (or -o FILE).\n"+
			"TOPOLOGY (or --topology) is a spec like mesh:4x4, torus:8x8, butterfly:16,\n"+
			"kary-tree:2x3, levelled:4x5, or a bare kind (line, tree, kary-tree, mesh, torus,\n"+
			"butterfly, fattree, levelled) with --size, --sides, --k, --depth.\n"+
			"Messages from a node to itself are skipped (a path must be non-empty); when\n"+
			"that leaves fewer than --messages, a line on stderr says so.")
	topo := fs.String("topology", "", "topology spec, e.g. mesh:4x4 (instead of the positional TOPOLOGY)")
	var s instances.Spec
	sides := fs.String("sides", "", "mesh/torus sides, e.g. 4x4 or 8x8x8")
	fs.IntVar(&s.Size, "size", 0, "nodes (line, tree), inputs (butterfly, 2^k), processors (fattree, 4^h), width (levelled)")
	fs.IntVar(&s.K, "k", 0, "arity (kary-tree, default 2) or out-degree (levelled, default 2)")
	fs.IntVar(&s.Depth, "depth", 0, "depth (kary-tree, default 3) or number of levels (levelled, default 4)")
	fs.StringVar(&s.Traffic, "traffic", "random", "random|permutation|complement|many-to-1|hotspot|local|transpose|bit-reversal|light|heavy")
	fs.StringVar(&s.Routing, "routing", "", "dimension-order (or xy, dor)|one-bend|random-shortest (meshes, tori), random-shortest|deterministic (fattree); default: the topology's first")
	fs.IntVar(&s.Messages, "messages", 0, "number of messages (default one per source; light/heavy fix it)")
	fs.IntVar(&s.Flits, "flits", 0, "message length L (default log N for light/heavy, else 1)")
	fs.Uint64Var(&s.Seed, "seed", 1, "random seed")
	fs.IntVar(&s.Radius, "radius", 1, "reach of local traffic")
	fs.Float64Var(&s.Hotspot, "hotspot", 0.1, "fraction of hotspot traffic sent to the hotspot node")
	fs.StringVar(&s.Name, "name", "", "instance name (default from kind, size and traffic)")
	out := fs.String("o", "", "write the instance to FILE instead of stdout")
	args, err := parseFlags(fs, e.args, 0, 1)
	if err != nil {
		return err
	}
	spec := *topo
	switch {
	case len(args) == 1 && spec != "":
		return usageError("give the topology once: %q or --topology %q", args[0], spec)
	case len(args) == 1:
		spec = args[0]
	case spec == "":
		return usageError("want a topology (e.g. mesh:4x4, or a kind with --sides/--size)")
	}
	// Flags whose 0 means "the default" may not be given as 0 or less (below),
	// and a traffic's parameter given with another traffic is refused, not
	// ignored (unread); below is said first, whichever flag comes first.
	var below, unread error
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "flits", "k", "depth", "size", "messages", "radius":
			if v, _ := strconv.Atoi(f.Value.String()); v < 1 && below == nil {
				below = usageError("--%s: %s is below 1", f.Name, f.Value.String())
			}
		}
		if reader, ok := instances.ParamReaders[f.Name]; ok && unread == nil && s.Traffic != reader {
			unread = usageError("--%s: the %s traffic does not read it (%s does)", f.Name, s.Traffic, reader)
		}
	})
	if below != nil {
		return below
	}
	if unread != nil {
		return unread
	}
	parsed, err := instances.ParseSpec(spec)
	if err != nil {
		return err
	}
	if strings.Contains(spec, ":") && (s.Size != 0 || s.K != 0 || s.Depth != 0 || *sides != "") {
		return usageError("the spec %q gives the topology's parameters: drop --size, --sides, --k and --depth", spec)
	}
	s.Kind = parsed.Kind
	if strings.Contains(spec, ":") {
		s.Size, s.Sides, s.K, s.Depth = parsed.Size, parsed.Sides, parsed.K, parsed.Depth
	}
	if *sides != "" {
		if s.Sides, err = instances.ParseSides(*sides); err != nil {
			return err
		}
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	in, err := instances.Generate(s)
	if err != nil {
		return err
	}
	if s.Messages > 0 && len(in.Messages) < s.Messages {
		fmt.Fprintf(e.stderr, "wormlab gen: %d of the %d messages asked for: %d drawn pairs had equal ends and were skipped\n",
			len(in.Messages), s.Messages, s.Messages-len(in.Messages))
	}
	return writeInstance(e, *out, in)
}
