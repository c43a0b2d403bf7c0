package main

import (
	"encoding/json"

	"github.com/wormlab/wormlab/measure"
)

func init() {
	register(&command{
		name:    "stats",
		summary: "measure an instance: c, c_L, d, path graph, dependencies, lower bounds",
		run:     runStats,
	})
}

func runStats(e *env) error {
	fs := newFlags(e, "stats", "INSTANCE",
		"Measures an instance (\"-\" reads standard input): congestion c and flit congestion\n"+
			"c_L with an edge attaining them, dilation d, lengths, the path graph's degree Delta\n"+
			"and components, whether the channel dependency graph has a cycle, whether the\n"+
			"network is levelled, and the lower bounds on the makespan with their witnesses.")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	quietUsage(e, fs)
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	in, err := readInstance(e, args[0])
	if err != nil {
		return err
	}
	r := measure.Stats(in)
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return r.WriteText(e.stdout)
}
