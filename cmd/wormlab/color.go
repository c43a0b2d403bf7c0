package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/wormlab/wormlab/internal/gctune"
	"github.com/wormlab/wormlab/internal/plural"
	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/offline"
)

func init() {
	register(&command{
		name:    "color",
		summary: "offline bufferless schedule by greedy path colouring (trees, meshes: O(c + d))",
		run:     runColor,
	})
}

func runColor(e *env) error {
	fs := newFlags(e, "color", "INSTANCE",
		"Colours the paths of INSTANCE (\"-\" reads standard input) greedily in the order of\n"+
			"Ranade, Schleimer and Wilkerson (seed 002, section 4) and writes the bufferless\n"+
			"schedule: --order tree (2-entrant, bidirected trees), mesh (k-entrant per class,\n"+
			"needs \"coords\" and at most one straight segment per dimension), any (d-entrant,\n"+
			"any network), or auto (tree, else mesh, else any). The schedule carries \"order\",\n"+
			"\"k\" and \"bound\" (the proven bound on the makespan, (2L-1)k(c-1)+d+L-1 per part),\n"+
			"and lower_bound (the instance's proven lower bound); optimal is set only when the\n"+
			"makespan meets it. --improve moves messages to earlier starts and tries other\n"+
			"orders, never lengthening the schedule. A summary line goes to stderr.\n\n"+
			"Exit status 0; 2 on bad input (e.g. --order mesh with a path that does not fit,\n"+
			"named).")
	order := fs.String("order", "auto", "auto, tree, mesh or any")
	improve := fs.Bool("improve", false, "run the improvement pass")
	root := fs.String("root", "", "root node of the tree order (default: the node most paths visit)")
	out := fs.String("o", "", "write the schedule to `FILE` (default stdout)")
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	switch *order {
	case offline.OrderAuto, offline.OrderTree, offline.OrderMesh, offline.OrderAny:
	default:
		return usageError("--order %q: want auto, tree, mesh or any", *order)
	}
	if *root != "" && (*order == offline.OrderMesh || *order == offline.OrderAny) {
		return usageError("--root: the %s order has no root (--root is the tree order's)", *order)
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	// The instance is read into its compact form (model.Paths: 4 bytes a hop), the
	// one the colorers work on.
	in, err := readPaths(e, args[0])
	if err != nil {
		return err
	}
	defer leanHeap()()
	// The lower bound reads the paths only, as the colouring does: it is
	// computed on the other core meanwhile (a tenth of the command's CPU time at
	// 10^6 tree paths). The measures both use are computed once (Paths.Measure).
	lbc := make(chan model.Bound, 1)
	go func() { lbc <- in.LowerBound() }()
	res, err := offline.ColorPaths(in, offline.Options{Order: *order, Improve: *improve, Root: *root})
	lb := <-lbc
	if err != nil {
		return err
	}
	// The schedule's top-level fields; its crossing times are written from the
	// starts as they go out (model.WriteBufferless), never held.
	s := &model.Schedule{Model: model.Bufferless, Makespan: res.Makespan}
	s.LowerBound = &lb.Value
	if s.Makespan == lb.Value {
		optimal := true
		s.Optimal = &optimal
	}
	s.SetExtra("order", res.Order)
	s.SetExtra("k", res.K)
	s.SetExtra("bound", res.Bound)
	if *improve {
		s.SetExtra("constructed", res.Constructed)
	}
	if err := writeOut(e, *out, func(w io.Writer) error { return model.WriteBufferlessPaths(w, s, in, res.Starts) }); err != nil {
		return err
	}
	fmt.Fprintln(e.stderr, colorSummary(in, res, lb))
	return nil
}

// colorSummary is the stderr line: the order, the makespan against the proven
// bound and against the lower bound.
func colorSummary(in *model.Paths, res *offline.Result, lb model.Bound) string {
	var b strings.Builder
	fmt.Fprintf(&b, "color: %s, order %s (k = %d", plural.Count(in.Len(), "message"), res.Order, res.K)
	switch {
	case len(res.Plan.Roots) == 1:
		fmt.Fprintf(&b, ", root %s", res.Plan.Roots[0])
	case len(res.Plan.Roots) > 1:
		fmt.Fprintf(&b, ", %d roots", len(res.Plan.Roots))
	}
	if res.Order == offline.OrderMesh {
		fmt.Fprintf(&b, ", %s", plural.Count(len(res.Plan.Parts), "class"))
	}
	b.WriteString("): makespan ")
	ms := res.Makespan
	if ms != res.Constructed {
		fmt.Fprintf(&b, "%d (constructed %d, improved by %s)", ms, res.Constructed, res.ImprovedBy)
	} else {
		fmt.Fprintf(&b, "%d", ms)
	}
	fmt.Fprintf(&b, ", proven bound %d (makespan/bound %s), lower bound %d from %s (makespan/lower %s)",
		res.Bound, ratio(ms, res.Bound), lb.Value, lb.Name, ratio(ms, lb.Value))
	return b.String()
}

// colorGCPercent is the collector's target during wormlab color: collect at 1.5x
// the live heap instead of Go's 2x. The command's large values are arrays with no
// pointers in them (model.Paths, the plan's entrance sets, the timelines' spans),
// which a collection marks without reading, so collecting more often costs
// little; at 10^6 paths it keeps the command under 500 MB (issue 24).
const colorGCPercent = 50

// leanHeap sets colorGCPercent (unless GOGC is set; gctune.Set: the least
// target of the runs lasting holds, so a sweep's Tune does not undo it) and
// collects once: the instance's text, read whole, is garbage once the paths are
// read, and the collector would otherwise count it in its next target. It
// returns the function that ends this run's share of the setting.
func leanHeap() (restore func()) {
	restore = gctune.Set(colorGCPercent)
	runtime.GC()
	return restore
}

// readPaths reads an instance file ("-" is standard input) into its compact form;
// errors are bad input, the same as readInstance's.
func readPaths(e *env, path string) (*model.Paths, error) {
	return readFile(e, path, model.ReadPaths)
}

// ratio formats a / b with two decimals ("-" when b is 0).
func ratio(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}
