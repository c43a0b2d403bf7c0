package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/analytic"
	"github.com/wormlab/wormlab/internal/satarith"
)

func init() {
	register(&command{
		name:    "model",
		summary: "analytic latency model of adaptive wormhole routing on a k x k torus (seed 004)",
		run:     runModel,
	})
}

func runModel(e *env) error {
	fs := newFlags(e, "model", "",
		"Solves the latency model of minimal fully adaptive wormhole routing on a k x k torus\n"+
			"of Quaglia, Ciciani and Colajanni (Parallel Computing 28, 2002; package analytic,\n"+
			"docs/analytic-model.md) at each rate of --msg-rate (messages per node per cycle). A saturated rate\n"+
			"prints its reason and no latency. --tables prints the paper's Tables 1 and 2 beside\n"+
			"wormlab's model with the relative errors. Ctrl-C stops it: the rates solved are\n"+
			"printed and the one cut short is marked interrupted; the exit status is 1.")
	k := fs.Int("k", 8, "torus side, a positive multiple of 4")
	flits := fs.Int("flits", 12, "message length in flits")
	msgRate := fs.String("msg-rate", "0.001:0.015:0.001", "the rates in messages/node/cycle, each in (0, 1): one, a list A,B or a range FROM:TO:STEP")
	rate := fs.String("rate", "", "deprecated: --msg-rate (one rate in messages/node/cycle)")
	rates := fs.String("rates", "", "deprecated: --msg-rate FROM:TO:STEP")
	det := fs.Bool("deterministic", false, "solve wormlab's dimension-order counterpart of the model instead (seed 004's Figures 3 and 4; docs/analytic-model.md)")
	verbose := fs.Bool("verbose", false, "print the intermediate quantities (p_X, p_Y, waits, utilisations; flows and residual times in JSON)")
	tables := fs.Bool("tables", false, "print the paper's Tables 1 and 2 beside wormlab's model")
	jsonOut := fs.Bool("json", false, "print JSON Lines, one object per rate")
	csvOut := fs.Bool("csv", false, "print CSV")
	out := fs.String("o", "", "write to this file instead of stdout")
	memory := memoryFlagUsage(fs, "memory budget (e.g. 4G, 512M): a model whose tables exceed it is refused before they are built")
	if _, err := parseFlags(fs, e.args, 0, 0); err != nil {
		return err
	}
	if *jsonOut && *csvOut {
		return usageError("--json and --csv: give one")
	}
	if *det && (*verbose || *tables) {
		return usageError("--deterministic: gives the latency only (not with --verbose or --tables)")
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	if *tables {
		if err := unused(e, fs, "with --tables (the paper's tables fix k, the length and the rates)", "k", "flits", "msg-rate", "rate", "rates", "verbose", "max-memory"); err != nil {
			return err
		}
		return writeOut(e, *out, func(w io.Writer) error { return printModelTables(w, *jsonOut, *csvOut) })
	}
	budget, restore := memory()
	defer restore()
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// --rate and --rates are the old spellings of --msg-rate (docs/cli.md)
	given, name := *msgRate, "msg-rate"
	n := 0
	for _, old := range []string{"msg-rate", "rate", "rates"} {
		if set[old] {
			n++
			name = old
		}
	}
	switch {
	case n > 1:
		return usageError("--msg-rate, --rate and --rates: give one (--rate and --rates are --msg-rate's old spellings)")
	case name == "rate":
		given = *rate
	case name == "rates":
		given = *rates
	}
	points, err := parseRateList(given)
	if err != nil {
		return usageError("--%s: %v", name, err)
	}
	// every rate's result keeps the model's tables, O(k^2) each (issue 26:
	// --k 400000 ran out of memory)
	if *k > 0 {
		if need := satarith.Mul(analytic.Bytes(*k), int64(len(points))); need > budget {
			return overBudget(fmt.Sprintf("the model of the %dx%d torus at %d rate(s)", *k, *k, len(points)), need, budget)
		}
	}
	// Ctrl-C, SIGTERM (or a sweep's end): the rates solved are written, the one
	// cut short marked interrupted, exit 1 (the network half's convention)
	ctx, stop := withTimeout(e, 0)
	defer stop()
	var results []*analytic.Result
	cut := -1 // the index of the rate cut short
	for i, x := range points {
		p := analytic.Params{K: *k, L: *flits, Rate: x}
		res, err := analytic.SolveContext(ctx, p, analytic.Paper)
		if ctx.Err() != nil {
			cut = i
			break
		}
		if *det && err == nil {
			d, _ := analytic.SolveDeterministic(p, analytic.Paper)
			res = &analytic.Result{Params: p, Saturated: d.Saturated, Reason: d.Reason, Iterations: d.Iterations, Latency: d.Latency}
		}
		if err != nil {
			pe := err.(*analytic.ParamError)
			field := pe.Field
			if field == "rate" {
				field = name
			}
			return usageError("--%s: %s", field, pe.Problem)
		}
		results = append(results, res)
	}
	if name != "msg-rate" && cut < 0 { // once the run is known good and whole: one line on stderr
		deprecated(e, "model --"+name, "--msg-rate")
	}
	var partial *modelCut
	if cut >= 0 {
		partial = &modelCut{Rate: points[cut], Of: len(points)}
	}
	err = writeOut(e, *out, func(w io.Writer) error {
		what := "fully adaptive routing"
		if *det {
			what = "dimension order (wormlab's deterministic counterpart)"
		}
		return printModel(w, *k, *flits, results, partial, what, *verbose, *jsonOut, *csvOut)
	})
	if err != nil || partial == nil {
		return err
	}
	return stopped(ctx, "%d of %d rates solved, rate %g cut short", len(results), len(points), partial.Rate)
}

// modelCut is the rate a stopped model was solving when it stopped, and how many
// rates it was given.
type modelCut struct {
	Rate float64
	Of   int
}

// modelRow is one rate of `wormlab model --json`.
type modelRow struct {
	K          int      `json:"k"`
	Flits      int      `json:"flits"`
	Rate       float64  `json:"rate"`
	Latency    *float64 `json:"latency"`
	Saturated  bool     `json:"saturated"`
	Reason     string   `json:"reason,omitempty"`
	Iterations int      `json:"iterations"`
	ZeroLoad   float64  `json:"zero_load"`
	// Interrupted marks the rate a stopped model was solving: no figures.
	Interrupted bool `json:"interrupted,omitempty"`
	*modelDetail
}

// modelDetail is what --verbose adds: the paper's intermediate quantities.
type modelDetail struct {
	PX     float64     `json:"p_x"`
	PY     float64     `json:"p_y"`
	FX     float64     `json:"f_x"`
	FY     float64     `json:"f_y"`
	WWE    float64     `json:"w_we"`
	WNE    float64     `json:"w_ne"`
	WNS    float64     `json:"w_ns"`
	WWS    float64     `json:"w_ws"`
	RhoWE  float64     `json:"rho_we"`
	RhoNE  float64     `json:"rho_ne"`
	RhoNS  float64     `json:"rho_ns"`
	RhoWS  float64     `json:"rho_ws"`
	Alpha  float64     `json:"alpha"`
	Beta   float64     `json:"beta"`
	TAlpha float64     `json:"t_alpha"`
	FlowX  [][]float64 `json:"flow_x"`
	FlowY  [][]float64 `json:"flow_y"`
	ResX   [][]float64 `json:"residual_x"`
	ResY   [][]float64 `json:"residual_y"`
	BetaX  []float64   `json:"residual_beta_x"`
	BetaY  []float64   `json:"residual_beta_y"`
}

func toModelRow(r *analytic.Result, verbose bool) modelRow {
	row := modelRow{K: r.K, Flits: r.L, Rate: r.Rate, Saturated: r.Saturated, Reason: r.Reason,
		Iterations: r.Iterations, ZeroLoad: analytic.ZeroLoad(r.K, r.L)}
	if r.Saturated {
		return row
	}
	lat := r.Latency
	row.Latency = &lat
	if verbose {
		row.modelDetail = &modelDetail{PX: r.PX, PY: r.PY, FX: r.FracX, FY: r.FracY,
			WWE: r.WWE, WNE: r.WNE, WNS: r.WNS, WWS: r.WWS,
			RhoWE: r.RhoWE, RhoNE: r.RhoNE, RhoNS: r.RhoNS, RhoWS: r.RhoWS,
			Alpha: r.Alpha, Beta: r.Beta, TAlpha: r.TAlpha,
			FlowX: r.FX, FlowY: r.FY, ResX: r.TX, ResY: r.TY, BetaX: r.TbX, BetaY: r.TbY}
	}
	return row
}

// printModel writes the rates solved; with cut, the rate cut short follows them,
// marked interrupted (JSON "interrupted": true, a CSV column, a line in text).
func printModel(w io.Writer, k, L int, results []*analytic.Result, cut *modelCut, what string, verbose, jsonOut, csvOut bool) error {
	if jsonOut {
		for _, r := range results {
			b, err := json.Marshal(toModelRow(r, verbose))
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%s\n", b)
		}
		if cut != nil {
			b, err := json.Marshal(modelRow{K: k, Flits: L, Rate: cut.Rate, ZeroLoad: analytic.ZeroLoad(k, L), Interrupted: true})
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%s\n", b)
		}
		return nil
	}
	g := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	head := []string{"rate", "latency", "saturated"}
	if verbose {
		head = append(head, "p_x", "p_y", "w_we", "w_ne", "w_ns", "w_ws", "rho_we", "rho_ne", "rho_ns", "rho_ws", "iterations")
	}
	var rows [][]string
	for _, r := range results {
		row := []string{strconv.FormatFloat(r.Rate, 'g', -1, 64), "", "no"}
		if r.Saturated {
			row[2] = "yes: " + r.Reason
			if csvOut {
				row[2] = "yes"
			}
		} else {
			row[1] = g(r.Latency)
		}
		if verbose {
			if r.Saturated {
				row = append(row, "", "", "", "", "", "", "", "", "", "", "")
			} else {
				row = append(row, g(r.PX), g(r.PY), g(r.WWE), g(r.WNE), g(r.WNS), g(r.WWS),
					g(r.RhoWE), g(r.RhoNE), g(r.RhoNS), g(r.RhoWS), strconv.Itoa(r.Iterations))
			}
		}
		rows = append(rows, row)
	}
	if csvOut {
		if cut != nil {
			head = append(head, "interrupted")
			for i := range rows {
				rows[i] = append(rows[i], "false")
			}
			last := make([]string, len(head))
			last[0], last[len(last)-1] = strconv.FormatFloat(cut.Rate, 'g', -1, 64), "true"
			rows = append(rows, last)
		}
		fmt.Fprintln(w, strings.Join(head, ","))
		for _, row := range rows {
			fmt.Fprintln(w, strings.Join(row, ","))
		}
		return nil
	}
	fmt.Fprintf(w, "# %dx%d torus, %d-flit messages, %s, zero-load latency %.4f\n", k, k, L, what, analytic.ZeroLoad(k, L))
	if err := printAligned(w, head, rows); err != nil {
		return err
	}
	if cut != nil {
		fmt.Fprintf(w, "# interrupted: %d of %d rates solved, rate %g cut short\n", len(results), cut.Of, cut.Rate)
	}
	return nil
}

func printAligned(w io.Writer, head []string, rows [][]string) error {
	width := make([]int, len(head))
	for i, h := range head {
		width[i] = len(h)
	}
	for _, row := range rows {
		for i, c := range row {
			if i < len(width)-1 || len(head) > 3 {
				width[i] = max(width[i], len(c))
			}
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		for i, c := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			if i == len(cells)-1 {
				b.WriteString(c)
			} else {
				fmt.Fprintf(&b, "%-*s", width[i], c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
	line(head)
	for _, row := range rows {
		line(row)
	}
	return nil
}

// printModelTables prints Tables 1 and 2 of seed 004 beside wormlab's model.
func printModelTables(w io.Writer, jsonOut, csvOut bool) error {
	rows := analytic.Compare(analytic.Paper)
	f := func(x float64, p int) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'f', p, 64)
	}
	if jsonOut {
		for _, r := range rows {
			o := map[string]any{"k": r.K, "flits": analytic.TableL, "rate": r.Rate,
				"paper_sim": r.Sim, "paper_model": r.Model, "paper_err_pct": r.ErrPct,
				"saturated": r.Ours.Saturated, "model": nil, "err_vs_model_pct": nil, "err_vs_sim_pct": nil}
			if !r.Ours.Saturated {
				o["model"], o["err_vs_model_pct"], o["err_vs_sim_pct"] = r.Ours.Latency, r.ErrModel, r.ErrSim
			}
			b, err := json.Marshal(o)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "%s\n", b)
		}
		return nil
	}
	head := []string{"torus", "rate", "paper_sim", "paper_model", "paper_err%", "wormlab_model", "err_vs_model%", "err_vs_sim%"}
	var cells [][]string
	for _, r := range rows {
		lat := "saturated"
		if !r.Ours.Saturated {
			lat = f(r.Ours.Latency, 2)
		}
		cells = append(cells, []string{fmt.Sprintf("%dx%d", r.K, r.K), f(r.Rate, 3), f(r.Sim, 2), f(r.Model, 2),
			fmt.Sprintf("%+.1f", r.ErrPct), lat, fmt.Sprintf("%+.2f", r.ErrModel), fmt.Sprintf("%+.2f", r.ErrSim)})
	}
	if csvOut {
		fmt.Fprintln(w, strings.Join(head, ","))
		for _, c := range cells {
			fmt.Fprintln(w, strings.Join(c, ","))
		}
		return nil
	}
	fmt.Fprintln(w, "# seed 004, Tables 1 and 2 (12-flit messages), beside wormlab's model; errors relative to the paper's columns")
	printAligned(w, head, cells)
	s := analytic.ScoreOf(analytic.Paper)
	sat, why := analytic.Saturation(16, analytic.TableL, analytic.Paper, 0.0001)
	fmt.Fprintf(w, "# largest |error| vs the paper's model: 4x4 %.2f%%, 8x8 %.2f%%; mean |error|: 12x12 %.2f%%, 16x16 %.2f%%\n", s.Max4, s.Max8, s.Mean12, s.Mean16)
	fmt.Fprintf(w, "# 16x16: first rate (0.0001 steps) without a solution %.4f (%s); the paper prints none beyond 0.007\n", sat, why)
	return nil
}
