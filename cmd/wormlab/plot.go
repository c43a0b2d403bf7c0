package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/wormlab/wormlab/figure"
	"github.com/wormlab/wormlab/internal/satarith"
	"github.com/wormlab/wormlab/lower"
	"github.com/wormlab/wormlab/simrun"
)

func init() {
	register(&command{
		name:    "plot",
		summary: "draw a line plot (SVG, PNG, PDF, EPS) from sweep results or JSON Lines rows",
		run:     runPlot,
	})
}

func runPlot(e *env) error {
	fs := newFlags(e, "plot", "RESULTS",
		"Draws FIELD --y against FIELD --x from RESULTS (\"-\" reads standard input): a sweep's\n"+
			"results (a field is looked up among a record's parameters, then its measured values),\n"+
			"any JSON Lines objects, or CSV with a header (sim --csv, sweep csv); dotted paths\n"+
			"reach nested fields (latency.mean), and\n"+
			"--y A/B plots a ratio. One line per value of --series (--series A+B: per pair of\n"+
			"values), with a legend. Rows with the\n"+
			"same series and x are replications: the point is their mean, the error bar the mean\n"+
			"of --err, or else the 95% t-interval of the mean. Failed sweep records are skipped;\n"+
			"--where FIELD=V1,V2 keeps the rows whose field has one of the values. A row whose y\n"+
			"is null (a saturated point's latency) is left out and counted on stderr, or drawn\n"+
			"as a star along the top with --show-saturated. Axis labels name the unit of the\n"+
			"fields wormlab knows (offered, accepted, latency, ...). Rows of wormlab sim (or of a\n"+
			"sweep of it) need no --x or --y: offered load against latency, a series per\n"+
			"parameter that varies among the rows (seeds are replications), the latency's own\n"+
			"interval as the error bar with one seed; stderr says what was chosen.\n"+
			"The format follows -o's extension: .svg, .png, .pdf or .eps.")
	x := fs.String("x", "", "field on the x axis (rows of wormlab sim: offered)")
	y := fs.String("y", "", "field on the y axis, or A/B for a ratio (rows of wormlab sim: latency)")
	series := fs.String("series", "", "one line per value of this field (A+B: per pair of values of fields A and B)")
	errField := fs.String("err", "", "field holding the error bar's half-width")
	logx := fs.Bool("logx", false, "logarithmic x axis")
	logy := fs.Bool("logy", false, "logarithmic y axis")
	title := fs.String("title", "", "title of the figure")
	xlabel := fs.String("xlabel", "", "label of the x axis (default: the --x field, with its unit when known)")
	ylabel := fs.String("ylabel", "", "label of the y axis (default: the --y field, with its unit when known)")
	width := fs.Float64("width", float64(figure.DefaultWidth/vg.Inch), "width in inches")
	height := fs.Float64("height", float64(figure.DefaultHeight/vg.Inch), "height in inches")
	out := fs.String("o", "", "write the figure to FILE (required; its extension picks the format)")
	legend := fs.String("legend", figure.Legends[0], "legend position: "+strings.Join(figure.Legends, ", "))
	showNull := fs.Bool("show-saturated", false, "draw rows whose y is null (saturated points) as stars (a plus over a cross) along the top instead of leaving them out")
	var where whereFlag
	fs.Var(&where, "where", "keep rows with FIELD=VALUE (or FIELD=V1,V2); repeat for several fields")
	memory := memoryFlagUsage(fs, "memory budget (e.g. 4G, 512M): a file whose rows would not fit is refused before it is read, standard input once as much has come")
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	switch {
	case *out == "":
		return usageError("-o FILE is required (its extension, .svg or .png, picks the format)")
	case !(*width > 0 && *width <= 100): // NaN too (issue 26: width="NaNpt")
		return usageError("--width: %g inches is not in (0, 100]", *width)
	case !(*height > 0 && *height <= 100):
		return usageError("--height: %g inches is not in (0, 100]", *height)
	}
	if !slices.Contains(figure.Legends, *legend) {
		return usageError("--legend: %q is not one of %s", *legend, strings.Join(figure.Legends, ", "))
	}
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(*out)), ".")
	if !slices.Contains(figure.Formats, format) {
		return usageError("-o %s: unknown format %q (want .%s)", *out, format, strings.Join(figure.Formats, ", ."))
	}
	if err := checkOutput(*out); err != nil {
		return err
	}
	budget, restore := memory()
	defer restore()
	r, closer, err := open(e, args[0])
	if err != nil {
		return err
	}
	defer closer()
	// the input is held whole and read into rows: refused before it is read when
	// its size says they cannot fit, and as soon as it passes what fits
	if f, ok := r.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if need := satarith.Mul(st.Size(), plotInputBytes); need > budget {
				return overBudget(fmt.Sprintf("reading the rows of %s (%s)", args[0], lower.Bytes(st.Size())), need, budget)
			}
		}
	}
	in := &budgetReader{r: r, limit: budget / plotInputBytes}
	r = in
	// Ctrl-C or SIGTERM: nothing is drawn (a figure of part of the rows would
	// mislead), exit 1 with one line (the network half's convention)
	ctx, stop := withTimeout(e, 0)
	defer stop()
	rows, err := figure.ReadRowsContext(ctx, r)
	if errors.Is(err, errOverBudget) {
		return usageError("--max-memory: the rows of %s need more than the budget of %s (its first %s read)", args[0], lower.Bytes(budget), lower.Bytes(in.limit))
	}
	if ctx.Err() != nil {
		return stopped(ctx, "%d rows of %s read; nothing drawn", len(rows), args[0])
	}
	if err != nil {
		return fmt.Errorf("%s: %v", args[0], err)
	}
	opt := figure.Options{X: *x, Y: *y, Series: *series, Err: *errField, LogX: *logx, LogY: *logy, Title: *title, Where: where.m, ShowNull: *showNull}
	if err := plotDefaults(e, rows, &opt); err != nil {
		return err
	}
	f, err := figure.Build(rows, opt)
	if err != nil {
		return fmt.Errorf("%s: %v", args[0], err)
	}
	if ctx.Err() != nil {
		return stopped(ctx, "the %d rows of %s read, the figure not drawn", len(rows), args[0])
	}
	f.Legend = *legend
	if *xlabel != "" {
		f.XLabel = *xlabel
	}
	if *ylabel != "" {
		f.YLabel = *ylabel
	}
	for _, s := range f.Skipped {
		fmt.Fprintf(e.stderr, "wormlab plot: skipped %s\n", s)
	}
	return writeOut(e, *out, func(w io.Writer) error {
		return figure.Draw(w, f, format, vg.Length(*width)*vg.Inch, vg.Length(*height)*vg.Inch)
	})
}

// plotInputBytes is the memory wormlab plot takes per byte of its input, rounded
// up: the input held whole and its rows (a map of fields each). On committed sweep
// records the rows and the input hold 6.7 to 6.9 bytes a byte after a collection
// (BenchmarkPlotRowsMemory); the command's peak resident size was 8.8 bytes a byte on
// 102 MB of experiments/online-delayed's records and 11.2 on 29 MB of
// experiments/tightness's (/usr/bin/time, the records repeated).
const plotInputBytes = 12

// errOverBudget is a budgetReader's input past its limit.
var errOverBudget = errors.New("input past the memory budget")

// budgetReader reads r until more than limit bytes have come, then fails with
// errOverBudget; n counts the bytes read.
type budgetReader struct {
	r        io.Reader
	limit, n int64
}

func (b *budgetReader) Read(p []byte) (int, error) {
	k, err := b.r.Read(p)
	b.n += int64(k)
	if b.n > b.limit {
		return k, errOverBudget
	}
	return k, err
}

// plotDefaults fills the axes not given for rows of wormlab sim (simrun.DefaultAxes:
// offered against latency, a series per parameter that varies, the latency's
// interval as error bar) and says on stderr what it chose; other rows need --x
// and --y.
func plotDefaults(e *env, rows []figure.Row, opt *figure.Options) error {
	if opt.X != "" && opt.Y != "" {
		return nil
	}
	var kept []figure.Row
	for _, r := range rows {
		if figure.Matches(r, opt.Where) {
			kept = append(kept, r)
		}
	}
	a, ok := simrun.DefaultAxes(kept)
	switch {
	case !ok && opt.X == "":
		return usageError("--x is required")
	case !ok:
		return usageError("--y is required")
	}
	var chose []string
	if opt.X == "" {
		opt.X = a.X
		chose = append(chose, "--x "+a.X)
	}
	if opt.Y == "" {
		opt.Y = a.Y
		chose = append(chose, "--y "+a.Y)
	}
	if opt.Series == "" && a.Series != "" {
		a.SeriesField(rows)
		opt.Series = a.Series
		chose = append(chose, "--series "+a.Series)
	}
	if opt.Err == "" && a.Err != "" && opt.Y == a.Y {
		opt.Err = a.Err
		chose = append(chose, "--err "+a.Err)
	}
	fmt.Fprintf(e.stderr, "wormlab plot: rows of wormlab sim: %s\n", strings.Join(chose, " "))
	return nil
}

// whereFlag collects --where FIELD=V1,V2 conditions.
type whereFlag struct{ m map[string][]string }

func (w *whereFlag) String() string { return "" }

// Repeatable: --where is given once per field.
func (w *whereFlag) Repeatable() bool { return true }

func (w *whereFlag) Set(s string) error {
	field, values, ok := strings.Cut(s, "=")
	if !ok || field == "" || values == "" {
		return fmt.Errorf("want FIELD=VALUE, got %q", s)
	}
	if w.m == nil {
		w.m = map[string][]string{}
	}
	if _, dup := w.m[field]; dup {
		return fmt.Errorf("%s given twice (list the values: %s=V1,V2)", field, field)
	}
	w.m[field] = strings.Split(values, ",")
	return nil
}
