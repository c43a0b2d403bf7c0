package main

import (
	"fmt"

	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/measure"
)

// searchBoundsLimit is the number of messages up to which stats runs the search
// bounds of package lower by default; they cost seconds at 10^4 messages and far more
// memory beyond.
const searchBoundsLimit = 20000

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
	search := fs.String("search-bounds", "auto", fmt.Sprintf("run the search bounds of package lower: on, off, or auto (on up to %d messages)", searchBoundsLimit))
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	in, err := readInstance(e, args[0])
	if err != nil {
		return err
	}
	r := measure.Stats(in)
	switch *search {
	case "on":
		r.AddBounds(in, lower.Bounds(in))
	case "off":
		r.BoundsNote = "search bounds not run (--search-bounds=off)"
	case "auto":
		if len(in.Messages) <= searchBoundsLimit {
			r.AddBounds(in, lower.Bounds(in))
		} else {
			r.BoundsNote = fmt.Sprintf("search bounds not run: %d messages > %d (--search-bounds=on to force)", len(in.Messages), searchBoundsLimit)
		}
	default:
		return usageError("flag --search-bounds: %q is not on, off or auto", *search)
	}
	if *asJSON {
		return writeJSON(e.stdout, r)
	}
	return r.WriteText(e.stdout)
}
