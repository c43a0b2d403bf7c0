package main

import (
	"github.com/wormlab/wormlab/lower"
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
			"network is levelled, and the lower bounds on the makespan with their witnesses:\n"+
			"those of MODEL.md and the search bounds of package lower (cliques, colourings,\n"+
			"independent sets, disjunctive search), the best marked.")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	search := fs.String("search-bounds", "auto", "run the search bounds of package lower: auto (those that fit --max-memory), or off")
	maxMem := memoryFlag(fs)
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	in, err := readInstance(e, args[0])
	if err != nil {
		return err
	}
	mem, restore := maxMem()
	defer restore()
	lim := lower.Limits{Budget: lower.DefaultBudget, MaxMemory: mem, NoModel: true}
	r := measure.Stats(in)
	if *search == "on" {
		deprecated(e, "--search-bounds on", "--search-bounds auto with --max-memory")
		*search = "auto"
	}
	switch *search {
	case "auto":
		ctx, stop := interruptContext()
		defer stop()
		res := lower.BoundsWithin(ctx, in, lim)
		r.AddBounds(in, res.Bounds)
		for _, s := range res.Skipped {
			r.Skipped = append(r.Skipped, measure.Skipped{Name: s.Name, Reason: s.Reason})
		}
		if res.Interrupted {
			r.BoundsNote = "interrupted: the search bounds done so far"
		}
	case "off":
		r.BoundsNote = "search bounds not run (--search-bounds=off)"
	default:
		return usageError("flag --search-bounds: %q is not auto or off", *search)
	}
	if *asJSON {
		return writeJSON(e.stdout, r)
	}
	return r.WriteText(e.stdout)
}
