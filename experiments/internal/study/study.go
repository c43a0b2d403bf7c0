// Package study runs wormlab's re-runs of the seeds' network studies (docs/seed001.md,
// docs/seed003.md, docs/fattree-study.md, docs/analytic-model.md). A study is a list
// of parts, each a sweep spec (docs/experiments.md) that `wormlab sweep` runs into
// the study's output folder on every core, resumably, or as a Slurm job array; the
// study's program then reads the records back into tables with intervals, verdicts
// and figures. Nothing is written outside the output folder.
//
// A part's results file keeps the records of its points across changes of the spec:
// when the spec grows (more loads, more seeds), the records of the points it still
// has are carried over (a point's key and seed depend on its own parameters only)
// and only the new points run.
package study

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/internal/atomicfile"
	"github.com/wormlab/wormlab/sweep"
)

// Spec is a sweep spec as written to a file (docs/experiments.md): Axes holds, per
// name, a list of values or a list of Cases.
type Spec struct {
	Command      string         `json:"command"`
	Seed         uint64         `json:"seed"`
	Replications int            `json:"replications,omitempty"`
	Timeout      string         `json:"timeout,omitempty"`
	Params       map[string]any `json:"params,omitempty"`
	Axes         map[string]any `json:"axes,omitempty"`
}

// Case is one value of a case axis: a name and the parameters it sets.
type Case struct {
	Name   string
	Params map[string]any
}

// MarshalJSON writes a case as the spec format has it: {"name": ..., params...}.
func (c Case) MarshalJSON() ([]byte, error) {
	m := map[string]any{"name": c.Name}
	for k, v := range c.Params {
		m[k] = v
	}
	return json.Marshal(m)
}

// Part is one spec of a study and the name of its files: specs/NAME.json and
// sweeps/NAME.jsonl in the output folder.
type Part struct {
	Name string
	Spec Spec
}

// Cases are parts' points (each Spec.Axes["point"]) by "part|case": a study's
// test that its test scale's points are points of its full scale.
func Cases(parts []Part) map[string]Case {
	out := map[string]Case{}
	for _, p := range parts {
		for _, c := range p.Spec.Axes["point"].([]Case) {
			out[p.Name+"|"+c.Name] = c
		}
	}
	return out
}

// Options say where a study runs.
type Options struct {
	Out     string // output folder
	Wormlab string // the wormlab binary ("": built from this module into Out/.bin)
	Workers int    // points at once (0: every core)
	Report  bool   // run nothing: read the results there are
	Only    []string
	Log     io.Writer // progress lines (nil: none)
	Doc     string    // a page whose tables are rewritten from the summary (FillFile), or ""
}

// Program is a study's command: its name (the usage line's and every message's),
// the scales its -scale flag takes (the first the default) and what the scale help
// says of them, its parts at a scale, the values its report reads of a point
// (Points) and its report, which writes OUTDIR/summary.md and the figures from
// OUTDIR's points (PointsFile).
type Program struct {
	Name      string
	Scales    []string
	ScaleHelp string
	Parts     func(scale string) []Part
	Fields    []string
	Report    func(ctx context.Context, dir string) error
}

// Main runs a study's command line, `go run ./experiments/NAME [flags] OUTDIR`: it
// runs the parts the flags select (Run), keeps their points (SavePoints), writes the
// report, and with -doc rewrites the page's tables (FillFile). Bad usage exits 2,
// a failure 1.
func Main(p Program) {
	fs := flag.NewFlagSet(p.Name, flag.ExitOnError)
	var opt Options
	scale := flags(fs, &opt, p.Scales[0], p.ScaleHelp)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: go run ./experiments/%s [flags] OUTDIR\n", p.Name)
		fs.PrintDefaults()
	}
	fs.Parse(os.Args[1:])
	if fs.NArg() != 1 || !slices.Contains(p.Scales, *scale) {
		fs.Usage()
		os.Exit(2)
	}
	opt.Out, opt.Log = fs.Arg(0), os.Stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	n, err := run(ctx, opt, p, *scale)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", p.Name, err)
		os.Exit(1)
	}
	cpu, _ := ReadCPU(opt.Out)
	fmt.Fprintf(os.Stderr, "%s: %d records, %.2f CPU-hours; %s/summary.md\n", p.Name, n, CPUHours(cpu, Keys(cpu)...), opt.Out)
}

// run is Main's work after the flags: it returns how many records the parts hold.
func run(ctx context.Context, opt Options, p Program, scale string) (int, error) {
	ps := p.Parts(scale)
	if err := Run(ctx, opt, ps); err != nil {
		return 0, err
	}
	recs, err := Load(opt.Out, ps)
	if err != nil {
		return 0, err
	}
	if err := SavePoints(opt.Out, recs, p.Fields); err != nil {
		return 0, err
	}
	if err := p.Report(ctx, opt.Out); err != nil {
		return 0, err
	}
	if opt.Doc != "" {
		missing, err := FillFile(opt.Doc, opt.Out+"/summary.md")
		if len(missing) > 0 {
			fmt.Fprintf(os.Stderr, "%s: %s: not run, marked so: %s\n", p.Name, opt.Doc, strings.Join(missing, ", "))
		}
		if err != nil {
			return 0, err
		}
	}
	return len(recs), nil
}

// flags binds the options every study's program takes and returns its scale flag.
func flags(fs *flag.FlagSet, o *Options, def, scales string) *string {
	fs.StringVar(&o.Wormlab, "wormlab", "", "the wormlab binary to run (default: built from this module)")
	fs.IntVar(&o.Workers, "workers", 0, "points run at once (0: every core)")
	fs.BoolVar(&o.Report, "report", false, "run nothing: tables and figures from the results in OUTDIR (after a Slurm run)")
	fs.Func("only", "run only these parts, comma-separated (the report reads every part there is)", func(s string) error {
		o.Only = strings.Split(s, ",")
		return nil
	})
	fs.StringVar(&o.Doc, "doc", "", "rewrite the tables this page quotes (docs/NAME.md) from OUTDIR/summary.md")
	return fs.String("scale", def, "scale: "+scales)
}

// Binary returns the wormlab binary to run: opt.Wormlab, or one built from the
// module that holds the working directory into dir.
func Binary(opt Options, dir string) (string, error) {
	if opt.Wormlab != "" {
		return opt.Wormlab, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	bin, err := filepath.Abs(filepath.Join(dir, "wormlab"))
	if err != nil {
		return "", err
	}
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/wormlab")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/wormlab: %v: %s", err, out)
	}
	return bin, nil
}

// moduleRoot is the folder of the go.mod that holds the working directory.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %v", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the wormlab module: run from the repository (or give -wormlab)")
	}
	return filepath.Dir(mod), nil
}

// Run writes every part's spec to Out/specs and runs the parts opt selects with
// `wormlab sweep` (resuming: points already in a part's results are skipped).
// With opt.Report it only writes the specs.
func Run(ctx context.Context, opt Options, parts []Part) error {
	specs := filepath.Join(opt.Out, "specs")
	if err := os.MkdirAll(specs, 0o755); err != nil {
		return err
	}
	var bin string
	for _, p := range parts {
		path := filepath.Join(specs, p.Name+".json")
		data, err := json.MarshalIndent(p.Spec, "", "  ")
		if err != nil {
			return err
		}
		if err := atomicfile.Write(path, append(data, '\n')); err != nil {
			return err
		}
		if opt.Report || (len(opt.Only) > 0 && !slices.Contains(opt.Only, p.Name)) {
			continue
		}
		res := filepath.Join(opt.Out, "sweeps", p.Name+".jsonl")
		if err := os.MkdirAll(filepath.Dir(res), 0o755); err != nil {
			return err
		}
		if err := carryOver(path, res); err != nil {
			return err
		}
		if bin == "" {
			if bin, err = Binary(opt, filepath.Join(opt.Out, ".bin")); err != nil {
				return err
			}
		}
		args := []string{"sweep", path, "-o", res}
		if opt.Workers > 0 {
			args = append(args, "--workers", strconv.Itoa(opt.Workers))
		}
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "%s: wormlab %s\n", p.Name, strings.Join(args, " "))
		}
		cmd := exec.CommandContext(ctx, bin, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if opt.Log != nil {
			cmd.Stderr = io.MultiWriter(&stderr, opt.Log)
		}
		err = cmd.Run()
		if cmd.ProcessState != nil {
			used := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			if err := addCPU(opt.Out, p.Name, used.Seconds()); err != nil {
				return err
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// exit 1: some points failed (a deadlock, a bad point); they are
			// recorded as failed and the report says so
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				return fmt.Errorf("%s: wormlab sweep: %v: %s", p.Name, err, lastLine(stderr.String()))
			}
		}
	}
	return nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// cpuFile holds, per part, the CPU seconds its sweeps took (user and system time of
// the wormlab sweep processes, summed over reruns). A record's own cpu_ms counts
// only the thread that started the point, not the simulator's workers.
const cpuFile = "cpu-seconds.json"

func addCPU(dir, part string, secs float64) error {
	m, err := ReadCPU(dir)
	if err != nil {
		return err
	}
	m[part] += secs
	data, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, cpuFile), append(data, '\n'))
}

// ReadCPU is the CPU seconds of every part's sweeps run in dir so far.
func ReadCPU(dir string) (map[string]float64, error) {
	m := map[string]float64{}
	data, err := os.ReadFile(filepath.Join(dir, cpuFile))
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", cpuFile, err)
	}
	return m, nil
}

// carryOver keeps, in the results file res, the records of the points the spec at
// path still has, re-labelled with its hash, when res was written for another
// version of the spec; the others are dropped.
func carryOver(path, res string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	s, err := sweep.ParseSpec(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	data, err := os.ReadFile(res)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	c, err := sweep.ReadResults(res, bytes.NewReader(data), "")
	if err != nil {
		return err
	}
	hash := s.Hash()
	same := !c.Torn
	for _, r := range c.Records {
		same = same && r.Spec == hash
	}
	if same {
		return nil
	}
	keys := map[string]bool{}
	for _, p := range s.Points() {
		keys[p.Key] = true
	}
	var kept []*sweep.Record
	for _, r := range c.Records {
		if keys[r.Key] && r.Status == sweep.StatusOK {
			r.Spec = hash
			kept = append(kept, r)
		}
	}
	return sweep.Rewrite(res, kept)
}

// Rec is one point's record as a study reads it.
type Rec struct {
	Part   string
	Params map[string]string // the parameters' texts (a case's name under its axis)
	Values map[string]any
	Rep    int
	Seed   uint64
	Failed string // the failure's message, or ""
	CPUMS  float64
}

// Num is a value as a number: ok false when absent, null or not a number. A
// dotted name reaches into nested objects ("fp_bounds.lower_bound") and arrays
// ("latencies.3": the array's fourth element).
func (r Rec) Num(name string) (float64, bool) {
	v, ok := r.Values[name]
	if !ok {
		if head, rest, dotted := strings.Cut(name, "."); dotted {
			switch x := r.Values[head].(type) {
			case map[string]any:
				return Rec{Values: x}.Num(rest)
			case []any:
				if i, err := strconv.Atoi(rest); err == nil && i >= 0 && i < len(x) {
					return Rec{Values: map[string]any{"": x[i]}}.Num("")
				}
			}
		}
	}
	if !ok || v == nil {
		return 0, false
	}
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	}
	return 0, false
}

// P is a parameter as a number (NaN when absent or not a number).
func (r Rec) P(name string) float64 {
	f, err := strconv.ParseFloat(r.Params[name], 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

// Load reads every part's sweep results there are in dir (a part without a file
// has no records).
func Load(dir string, parts []Part) ([]Rec, error) {
	var out []Rec
	for _, p := range parts {
		path := filepath.Join(dir, "sweeps", p.Name+".jsonl")
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		c, err := sweep.ReadResults(path, bytes.NewReader(data), "")
		if err != nil {
			return nil, err
		}
		for _, r := range c.Records {
			rec := Rec{Part: p.Name, Params: map[string]string{}, Values: r.Values, Rep: r.Replication, Seed: r.Seed, CPUMS: r.CPUMS}
			for k, v := range r.Params {
				rec.Params[k] = v.Text
			}
			if r.Status == sweep.StatusFailed {
				rec.Failed = r.Message
			}
			out = append(out, rec)
		}
	}
	return out, nil
}

// CPUHours is the CPU time the parts' sweeps took in dir, in hours (ReadCPU), and
// of the parts named.
func CPUHours(cpu map[string]float64, parts ...string) float64 {
	s := 0.0
	for _, p := range parts {
		s += cpu[p]
	}
	return s / 3600
}

// Est is a mean and the half-width of its 95% Student-t interval over N
// replications (Half is 0 for N < 2).
type Est struct {
	Mean, Half float64
	N          int
}

// MeanCI is the mean of xs and its 95% interval.
func MeanCI(xs []float64) Est {
	e := Est{N: len(xs)}
	if e.N == 0 {
		e.Mean = math.NaN()
		return e
	}
	for _, x := range xs {
		e.Mean += x
	}
	e.Mean /= float64(e.N)
	if e.N > 1 {
		ss := 0.0
		for _, x := range xs {
			ss += (x - e.Mean) * (x - e.Mean)
		}
		e.Half = T975(e.N-1) * math.Sqrt(ss/float64(e.N-1)/float64(e.N))
	}
	return e
}

// Lo and Hi are the interval's ends.
// Scaled is e in units f times smaller: mean and half-width times f.
func (e Est) Scaled(f float64) Est {
	e.Mean *= f
	e.Half *= f
	return e
}

func (e Est) Lo() float64 { return e.Mean - e.Half }
func (e Est) Hi() float64 { return e.Mean + e.Half }

// Fmt writes the estimate as "mean ± half" with prec decimals ("mean" alone for
// one replication, "—" for none).
func (e Est) Fmt(prec int) string {
	switch {
	case e.N == 0 || math.IsNaN(e.Mean):
		return "—"
	case e.N == 1:
		return strconv.FormatFloat(e.Mean, 'f', prec, 64)
	}
	return strconv.FormatFloat(e.Mean, 'f', prec, 64) + " ± " + strconv.FormatFloat(e.Half, 'f', prec, 64)
}

// Above reports whether a's interval lies wholly above b's; Overlap whether the
// intervals meet.
func Above(a, b Est) bool   { return a.Lo() > b.Hi() }
func Overlap(a, b Est) bool { return !Above(a, b) && !Above(b, a) }

// T975 is the 0.975 quantile of Student's t with df degrees of freedom.
func T975(df int) float64 {
	table := [...]float64{math.Inf(1), 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df < len(table) {
		return table[df]
	}
	z := 1.959964
	return z + (z*z*z+z)/(4*float64(df))
}

// Keys are a map's keys in sorted order.
func Keys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Table is a Markdown table.
type Table struct {
	Head []string
	Rows [][]string
}

// String writes the table, one row a line.
func (t Table) String() string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(t.Head, " | ") + " |\n|")
	for range t.Head {
		b.WriteString(" --- |")
	}
	b.WriteByte('\n')
	for _, r := range t.Rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	return b.String()
}

// WriteFile writes data to OUTDIR-relative path atomically.
func WriteFile(dir, name string, data []byte) error {
	return atomicfile.Write(filepath.Join(dir, name), data)
}
