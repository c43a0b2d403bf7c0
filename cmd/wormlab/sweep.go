package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wormlab/wormlab/internal/gctune"
	"github.com/wormlab/wormlab/internal/satarith"
	"github.com/wormlab/wormlab/simrun"
	"github.com/wormlab/wormlab/sweep"
)

func init() {
	register(&command{
		name:    "sweep",
		summary: "run a grid of wormlab runs from a JSON spec: resumable, on all cores or as a Slurm job array",
		run:     runSweep,
	})
}

// sweepTarget is a command a sweep can run: one line in sweepTargets each.
type sweepTarget struct {
	path  []string // the command line's command (and subcommand): {"lower", "prime"}
	input bool     // takes an INSTANCE argument: parameter "instance", or "gen.*" to generate one
	drop  []string // fields of the command's JSON output left out of the values
	// count: list fields of the command's JSON output kept as their length only (a
	// schedule's per-message times become the number of messages it schedules).
	count []string
	// answer: exit status 1 is the command's answer (a failed claim), not a failed
	// point: the record is ok, with "exit": 1 and "negative": the message in its values.
	answer bool
}

// schedule is what a command printing a MODEL.md schedule counts: the per-message
// times, which a sweep does not keep (the figures are the makespan, lower_bound,
// optimal and the command's own notes); their number, the worms actually scheduled
// (gen may make fewer than asked), is the value "messages".
var schedule = []string{"messages"}

var sweepTargets = map[string]sweepTarget{
	"sim":             {path: []string{"sim"}, drop: simrun.Names()}, // a row's parameters: the record has them
	"fattree":         {path: []string{"fattree"}},
	"model":           {path: []string{"model"}},
	"deadlock":        {path: []string{"deadlock"}},
	"run":             {path: []string{"run"}, input: true, count: schedule},
	"solve":           {path: []string{"solve"}, input: true, count: schedule},
	"color":           {path: []string{"color"}, input: true, count: schedule},
	"stats":           {path: []string{"stats"}, input: true},
	"lower bounds":    {path: []string{"lower", "bounds"}, input: true},
	"lower prime":     {path: []string{"lower", "prime"}, answer: true},
	"lower butterfly": {path: []string{"lower", "butterfly"}},
}

// sweepReserved are flags a point may not set: a point's output goes to the sweep,
// which reads its values from the JSON it asks for (--json=false or --csv made
// every point fail, the output not JSON; sim --emit-config, deadlock
// --write-table and solve --dimacs wrote their file, every replication over the
// same one, and the point failed, printing no JSON; fattree --tables, which
// refuses --json, failed every point).
var sweepReserved = map[string]string{"o": "a point's output goes to the results file", "h": "", "help": "",
	"json": sweepReadsJSON, "csv": sweepReadsJSON,
	"emit-config": "a point that writes a configuration instead of running has no values to record",
	"write-table": "a point that writes a routing table instead of deciding has no values to record",
	"dimacs":      "a point that writes a formula instead of solving has no values to record",
	"tables":      "a point that prints the tables of a file instead of running has no values to record"}

// sweepSideFiles are flags that make a point write a file (or directory) besides
// its JSON: deadlock's certify and svg, sim's heatmap, plot and trace, solve's
// certify. A sweep may set one only where each point writes its own: set in params
// with more than one point (axes or replications), every point wrote the same
// file, the records all named it, and only the last point's survived (points of
// several workers wrote it at once).
var sweepSideFiles = []string{"certify", "heatmap", "plot", "svg", "trace"}

// checkSweepSideFiles refuses a spec in which two points would write the same side
// file: the flag fixed in params with more than one point, or an axis (or the
// cases setting it) whose value at least two points share (replications, another
// axis, or a value repeated). An empty value writes no file.
func checkSweepSideFiles(s *sweep.Spec) error {
	total := s.Count()
	refuse := func(field, name string, n int64) error {
		return usageError("spec: %s: %d points would write the same -%s file and overwrite each other (make %s an axis with a distinct value for each point)", field, n, name, name)
	}
	for _, name := range sweepSideFiles {
		if v, ok := s.Params[name]; ok && v.Text != "" && total > 1 {
			return refuse("params."+name, name, total)
		}
		if vs, ok := s.Axes[name]; ok {
			per := total / int64(len(vs))
			seen := map[string]int64{}
			for _, v := range vs {
				if v.Text == "" {
					continue
				}
				seen[v.Text] += per
				if seen[v.Text] > 1 {
					return refuse("axes."+name, name, seen[v.Text])
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.Cases)) {
			cs := s.Cases[k]
			per := total / int64(len(cs))
			seen := map[string]int64{}
			for i, c := range cs {
				v, ok := c.Params[name]
				if !ok || v.Text == "" {
					continue
				}
				seen[v.Text] += per
				if seen[v.Text] > 1 {
					return refuse(fmt.Sprintf("axes.%s[%d].%s", k, i, name), name, seen[v.Text])
				}
			}
		}
	}
	return nil
}

// sweepReadsJSON is why a point may not set json or csv.
const sweepReadsJSON = "a point's values are read from its JSON output, which the sweep asks for"

// wormlabVersion names this build in the records: what wormlab --version prints
// (main.go's version, from runtime/debug build information), without "wormlab ".
func wormlabVersion() string { return strings.TrimPrefix(version(), "wormlab ") }

func runSweep(e *env) error {
	if len(e.args) > 0 {
		switch e.args[0] {
		case "merge":
			return runSweepMerge(e, e.args[1:])
		case "csv":
			return runSweepCSV(e, e.args[1:])
		case "points":
			return runSweepPoints(e, e.args[1:])
		}
	}
	fs := newFlags(e, "sweep", "SPEC  |  merge OUT FILES...  |  csv RESULTS  |  points SPEC",
		"Runs every point of a sweep spec (JSON: command, seed, replications, timeout, params,\n"+
			"axes; see docs/experiments.md) in this process and appends one JSON Lines record per\n"+
			"point to -o RESULTS. A rerun skips the points RESULTS holds (resume); a torn last line\n"+
			"is dropped. --shard I/N (or SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT) runs every\n"+
			"N-th point by key. --slurm prints an sbatch job-array script (--submit submits it).\n"+
			"'sweep merge OUT FILES...' joins shards; 'sweep csv RESULTS' exports CSV; 'sweep points\n"+
			"SPEC' lists the points. Commands: "+strings.Join(sweepTargetNames(), ", ")+".\n"+
			"Exit status 1 when a point failed or the sweep was interrupted, 2 on a bad spec.")
	out := fs.String("o", "", "results file (JSON Lines; required)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "points run at once")
	shardFlag := fs.String("shard", "", "run part I of N (I/N, 0 <= I < N)")
	retry := fs.Bool("retry-failed", false, "run the points recorded as failed again")
	slurm := fs.Bool("slurm", false, "print an sbatch job-array script instead of running")
	submit := fs.Bool("submit", false, "with --slurm: submit the script with sbatch")
	tasks := fs.Int("tasks", 4, "with --slurm: array tasks (shards)")
	cpus := fs.Int("cpus", 1, "with --slurm: CPUs per task (and its --workers)")
	timeLimit := fs.String("time", "", "with --slurm: time limit per task (sbatch --time)")
	partition := fs.String("partition", "", "with --slurm: partition")
	memory := memoryFlagUsage(fs, "memory budget (e.g. 4G, 512M) of the sweep: a spec whose points would not fit is refused; each point's is this over --workers unless the spec sets its own, and a point over it is a failed record")
	args, err := parseFlags(fs, e.args, 1, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return usageError("-o RESULTS is required")
	}
	if *workers < 1 {
		return usageError("--workers: %d is below 1", *workers)
	}
	if *slurm {
		if err := unused(e, fs, "with --slurm (the array's tasks are the shards, --cpus their workers)", "workers", "shard", "retry-failed"); err != nil {
			return err
		}
	} else if err := unused(e, fs, "without --slurm", "submit", "tasks", "cpus", "time", "partition"); err != nil {
		return err
	}
	spec, dir, err := readSweepSpec(e, args[0])
	if err != nil {
		return err
	}
	target, err := checkSweepSpec(spec)
	if err != nil {
		return err
	}
	budget, restore := memory()
	defer restore()
	if err := checkSweepMemory(spec, budget); err != nil {
		return err
	}
	if spec.Command == "sim" {
		if err := checkSimSpec(spec, budget/int64(max(1, *workers))); err != nil {
			return err
		}
	}
	if *slurm {
		if args[0] == "-" {
			return usageError("--slurm needs the spec in a file the array tasks can read")
		}
		if err := checkSlurm(spec, *tasks, *cpus, *timeLimit, *partition); err != nil {
			return err
		}
		return sweepSlurm(e, args[0], *out, sweep.Job{Tasks: *tasks, CPUs: *cpus, Time: *timeLimit, Partition: *partition}, *submit)
	}
	shard, err := sweepShard(*shardFlag)
	if err != nil {
		return err
	}
	defer gctune.Tune()() // points allocate and drop whole instances
	ctx, stop := interruptContext()
	defer stop()
	opt := sweep.Options{Workers: *workers, Shard: shard, Version: wormlabVersion(), RetryFailed: *retry,
		Note: func(s string) { fmt.Fprintf(e.stderr, "wormlab sweep: %s\n", s) }}
	if e.stderrTTY {
		opt.Progress = e.stderr
	}
	// each point may use its share of the budget: the points of --workers run at
	// once, in this process
	runner := &pointRunner{target: target, dir: dir, budget: budget / int64(*workers)}
	sweeping.Add(1)
	defer sweeping.Add(-1)
	sum, err := sweep.Run(ctx, spec, runner, *out, opt)
	if err != nil {
		var le *sweep.LineError
		if errors.As(err, &le) {
			return usageError("%v", err)
		}
		return err
	}
	summary := fmt.Sprintf("%s: %d points (shard %v), %d already there, %d run, %d failed", *out, sum.Points, shard, sum.Skipped, sum.Done, sum.Failed)
	switch {
	case sum.Interrupted:
		// the convention of stopped; the results file holds whole records only
		return stopped(ctx, "after %d of %d points (%s); the records are whole: rerun to resume", sum.Skipped+sum.Done, sum.Points, summary)
	case sum.Failed > 0:
		return negative("%s: status \"failed\" in the file (--retry-failed runs them again)", summary)
	}
	fmt.Fprintf(e.stderr, "wormlab sweep: %s\n", summary)
	return nil
}

// sweepTargetNames lists the sweep's commands that this build of wormlab has.
func sweepTargetNames() []string {
	var ns []string
	for n, t := range sweepTargets {
		if _, built := commands[t.path[0]]; built {
			ns = append(ns, n)
		}
	}
	sort.Strings(ns)
	return ns
}

// readSweepSpec reads a spec; dir is its directory, against which a relative
// "instance" parameter is resolved.
func readSweepSpec(e *env, path string) (*sweep.Spec, string, error) {
	r, closer, err := open(e, path)
	if err != nil {
		return nil, "", err
	}
	defer closer()
	s, err := sweep.ParseSpec(r)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", path, err)
	}
	dir := "."
	if path != "-" {
		dir = filepath.Dir(path)
	}
	return s, dir, nil
}

// sweepShard is --shard, or else the Slurm array task's part, or else everything.
func sweepShard(flagValue string) (sweep.Shard, error) {
	if flagValue != "" {
		s, err := sweep.ParseShard(flagValue)
		if err != nil {
			return s, usageError("%v", err)
		}
		return s, nil
	}
	id, count := os.Getenv("SLURM_ARRAY_TASK_ID"), os.Getenv("SLURM_ARRAY_TASK_COUNT")
	if id == "" || count == "" {
		return sweep.All, nil
	}
	i, err1 := strconv.Atoi(id)
	n, err2 := strconv.Atoi(count)
	lo := 0
	if m := os.Getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
		var err error
		if lo, err = strconv.Atoi(m); err != nil {
			return sweep.Shard{}, usageError("SLURM_ARRAY_TASK_MIN=%q is not an integer", m)
		}
	}
	if err1 != nil || err2 != nil {
		return sweep.Shard{}, usageError("SLURM_ARRAY_TASK_ID=%q, SLURM_ARRAY_TASK_COUNT=%q: want integers", id, count)
	}
	s, err := sweep.ParseShard(fmt.Sprintf("%d/%d", i-lo, n))
	if err != nil {
		return s, usageError("from SLURM_ARRAY_TASK_ID=%s, SLURM_ARRAY_TASK_MIN=%d, SLURM_ARRAY_TASK_COUNT=%s: %v (arrays must be contiguous)", id, lo, count, err)
	}
	return s, nil
}

// flagNames asks a command for its flags: it runs "wormlab PATH -h" and reads the
// names from the usage text every command prints through newFlags.
var flagNames = sync.OnceValue(func() func(path []string) (map[string]bool, bool) {
	var mu sync.Mutex
	cache := map[string]map[string]bool{}
	return func(path []string) (map[string]bool, bool) {
		mu.Lock()
		defer mu.Unlock()
		k := strings.Join(path, " ")
		if m, ok := cache[k]; ok {
			return m, m != nil
		}
		if _, ok := commands[path[0]]; !ok {
			cache[k] = nil
			return nil, false
		}
		var stderr bytes.Buffer
		run(append(append([]string{}, path...), "-h"), strings.NewReader(""), &stderr, &stderr, false) // help goes to stdout (issue 10); read both
		m := map[string]bool{}
		sc := bufio.NewScanner(&stderr)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "  -"); ok && !strings.HasPrefix(rest, " ") {
				name, _, _ := strings.Cut(rest, " ")
				m[name] = true
			}
		}
		cache[k] = m
		return m, true
	}
})

// checkSweepSpec checks the command and every parameter name against the command's
// flags; errors name the spec field.
func checkSweepSpec(s *sweep.Spec) (sweepTarget, error) {
	t, ok := sweepTargets[s.Command]
	if !ok {
		return t, usageError("spec: command: unknown command %q (wormlab sweep -h lists them)", s.Command)
	}
	flags, ok := flagNames()(t.path)
	if !ok {
		return t, usageError("spec: command: %q is not in this build of wormlab", s.Command)
	}
	var genFlags map[string]bool
	hasInstance, hasGen := false, false
	for _, n := range s.Names() {
		name, field := n.Param, n.Field
		if why, reserved := sweepReserved[name]; reserved {
			return t, usageError("spec: %s: a sweep cannot set -%s (%s)", field, name, why)
		}
		if t.input && name == "instance" {
			hasInstance = true
			continue
		}
		if g, ok := strings.CutPrefix(name, "gen."); ok && t.input {
			hasGen = true
			if genFlags == nil {
				genFlags, _ = flagNames()([]string{"gen"})
			}
			if g != "kind" && (!genFlags[g] || g == "o") {
				return t, usageError("spec: %s: wormlab gen has no flag -%s", field, g)
			}
			continue
		}
		if !flags[name] {
			return t, usageError("spec: %s: wormlab %s has no flag -%s", field, strings.Join(t.path, " "), name)
		}
	}
	if err := checkSweepSideFiles(s); err != nil {
		return t, err
	}
	if t.input {
		switch {
		case hasInstance && hasGen:
			return t, usageError("spec: params: set either \"instance\" or \"gen.*\", not both")
		case !hasInstance && !hasGen:
			return t, usageError("spec: params: wormlab %s needs an instance: set \"instance\" (a file) or \"gen.kind\" and gen's flags", s.Command)
		case hasGen && !s.Has("gen.kind"):
			return t, usageError("spec: params: gen.kind is missing (line, tree, mesh, butterfly, ...)")
		}
	}
	return t, nil
}

// pointRunner runs a point in this process through the command's own run function,
// with its parameters as --flag=value arguments.
type pointRunner struct {
	target sweepTarget
	dir    string // the spec's directory
	budget int64  // each point's --max-memory, unless the spec sets it
}

var _ sweep.Runner = (*pointRunner)(nil)

// Run builds the command line, generates the instance when gen.* is set, runs the
// command and reads its JSON output. A non-zero exit status is the point's error;
// values read from its output are kept beside it.
func (r *pointRunner) Run(ctx context.Context, p sweep.Point) (map[string]any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	flags, _ := flagNames()(r.target.path)
	args := append([]string{}, r.target.path...)
	var genArgs []string
	input := ""
	names := make([]string, 0, len(p.Params))
	for n := range p.Params {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if p.Params[n].Label() {
			continue // a case's name, for the record
		}
		v := p.Params[n].Arg()
		switch g, isGen := strings.CutPrefix(n, "gen."); {
		case r.target.input && n == "instance":
			input = v
			if !filepath.IsAbs(input) && input != "-" {
				input = filepath.Join(r.dir, input)
			}
		case r.target.input && isGen && g == "kind":
			genArgs = append([]string{v}, genArgs...)
		case r.target.input && isGen:
			genArgs = append(genArgs, "--"+g+"="+v)
		default:
			args = append(args, "--"+n+"="+v)
		}
	}
	// flags every point gets whether or not its run reads them: the point's seed,
	// JSON output (its values are read from it) and its memory budget; a command
	// does not refuse them as unused (env.implied)
	implied := map[string]bool{}
	if _, set := p.Params["seed"]; flags["seed"] && !set {
		args = append(args, "--seed="+strconv.FormatUint(p.Seed, 10))
		implied["seed"] = true
	}
	if _, set := p.Params["json"]; flags["json"] && !set {
		args = append(args, "--json")
		implied["json"] = true
	}
	if _, set := p.Params["max-memory"]; flags["max-memory"] && !set && r.budget > 0 {
		args = append(args, "--max-memory="+strconv.FormatInt(r.budget, 10))
		implied["max-memory"] = true
	}
	var stdin io.Reader = strings.NewReader("")
	if r.target.input {
		if input == "" {
			if _, set := p.Params["gen.seed"]; !set {
				genArgs = append(genArgs, "--seed="+strconv.FormatUint(p.Seed, 10))
			}
			var inst, msg bytes.Buffer
			if code := run(append([]string{"gen"}, genArgs...), strings.NewReader(""), &inst, &msg, false); code != 0 {
				return nil, fmt.Errorf("gen: exit %d: %s", code, pointLastLine(msg.String()))
			}
			stdin, input = &inst, "-"
		}
		args = append(args, "--", input)
	}
	var stdout, stderr bytes.Buffer
	code := runEnv(args, &env{stdin: stdin, stdout: &stdout, stderr: &stderr, implied: implied, ctx: ctx})
	values, perr := pointValues(stdout.Bytes(), r.target.drop, r.target.count)
	if code == 1 && r.target.answer && perr == nil {
		values["exit"] = 1
		values["negative"] = pointLastLine(stderr.String())
		return values, nil
	}
	if code != 0 {
		return values, fmt.Errorf("exit %d: %s", code, pointLastLine(stderr.String()))
	}
	if perr != nil {
		return nil, perr
	}
	return values, nil
}

func pointLastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if s == "" {
		return "(no message)"
	}
	return s
}

// pointValues reads a command's JSON output: one object is the values (without the
// fields in drop, and with each list field in count replaced by its length); several
// (JSON Lines) are {"rows": [...]}.
func pointValues(out []byte, drop, count []string) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var objs []map[string]any
	for {
		var m map[string]any
		err := dec.Decode(&m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the command's output is not JSON objects: %v", err)
		}
		for _, d := range drop {
			delete(m, d)
		}
		for _, c := range count {
			if list, ok := m[c].([]any); ok {
				m[c] = len(list)
			}
		}
		objs = append(objs, m)
	}
	switch len(objs) {
	case 0:
		return nil, fmt.Errorf("the command printed no JSON")
	case 1:
		return objs[0], nil
	}
	rows := make([]any, len(objs))
	for i, o := range objs {
		rows[i] = o
	}
	return map[string]any{"rows": rows}, nil
}

func runSweepMerge(e *env, args []string) error {
	fs := newFlags(e, "sweep merge", "OUT FILES...",
		"Joins results files of one spec (the shards of a Slurm array) into OUT, sorted by key.\n"+
			"Two records of one key must agree apart from wall and CPU time; a conflict is exit 2\n"+
			"naming both lines. OUT may be one of FILES. --strip-timings zeroes wall_ms and\n"+
			"cpu_ms, so that two runs of a spec compare byte for byte.")
	strip := fs.Bool("strip-timings", false, "write wall_ms and cpu_ms as 0")
	pos, err := parseFlags(fs, args, 2, -1)
	if err != nil {
		return err
	}
	var inputs []sweep.Input
	for _, name := range pos[1:] {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		inputs = append(inputs, sweep.Input{Name: name, R: f})
	}
	recs, err := sweep.Merge(inputs)
	if err != nil {
		return usageError("%v", err)
	}
	if len(recs) == 0 {
		return usageError("merge: %s: no records (an empty shard is fine beside others, not alone)", strings.Join(pos[1:], ", "))
	}
	if err := checkOutput(pos[0]); err != nil {
		return err
	}
	return writeOut(e, pos[0], func(w io.Writer) error {
		for _, r := range recs {
			if *strip {
				stripped := r.WithoutTimings()
				r = &stripped
			}
			line, err := r.Line()
			if err != nil {
				return err
			}
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	})
}

func runSweepCSV(e *env, args []string) error {
	fs := newFlags(e, "sweep csv", "RESULTS",
		"Writes a results file as CSV: key, replication, seed, status, message, one column per\n"+
			"parameter and per measured value (nested values as dotted names), wall_ms, cpu_ms,\n"+
			"version; records sorted by key.")
	out := fs.String("o", "", "write the CSV to FILE (default stdout)")
	pos, err := parseFlags(fs, args, 1, 1)
	if err != nil {
		return err
	}
	r, closer, err := open(e, pos[0])
	if err != nil {
		return err
	}
	defer closer()
	recs, err := sweep.Merge([]sweep.Input{{Name: pos[0], R: r}})
	if err != nil {
		return usageError("%v", err)
	}
	if len(recs) == 0 {
		return usageError("csv: %s: no records", pos[0])
	}
	return writeOut(e, *out, func(w io.Writer) error { return sweep.WriteCSV(w, recs) })
}

func runSweepPoints(e *env, args []string) error {
	fs := newFlags(e, "sweep points", "SPEC",
		"Lists a spec's points as JSON Lines (key, replication, seed, params), sorted by key,\n"+
			"after checking the spec as a sweep would. --shard I/N lists that shard's.")
	shardFlag := fs.String("shard", "", "list part I of N")
	memory := memoryFlagUsage(fs, "memory budget (e.g. 4G, 512M): a spec whose points would not fit is refused before they are listed")
	pos, err := parseFlags(fs, args, 1, 1)
	if err != nil {
		return err
	}
	spec, _, err := readSweepSpec(e, pos[0])
	if err != nil {
		return err
	}
	if _, err := checkSweepSpec(spec); err != nil {
		return err
	}
	budget, restore := memory()
	defer restore()
	if err := checkSweepMemory(spec, budget); err != nil {
		return err
	}
	shard := sweep.All
	if *shardFlag != "" {
		if shard, err = sweep.ParseShard(*shardFlag); err != nil {
			return usageError("%v", err)
		}
	}
	return writeOut(e, "", func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, p := range shard.Select(spec.Points()) {
			if err := enc.Encode(struct {
				Key         string                 `json:"key"`
				Replication int                    `json:"replication"`
				Seed        uint64                 `json:"seed"`
				Params      map[string]sweep.Value `json:"params"`
			}{p.Key, p.Replication, p.Seed, p.Params}); err != nil {
				return err
			}
		}
		return nil
	})
}

// sweepSlurm prints (or submits) the job-array script for the spec.
func sweepSlurm(e *env, specPath, results string, j sweep.Job, submit bool) error {
	if specPath == "-" {
		return usageError("--slurm needs the spec in a file the array tasks can read")
	}
	for _, p := range []string{specPath, results} {
		if strings.ContainsAny(p, "\n\r") { // it would end a line of the script and start one the shell runs
			return usageError("--slurm: %q holds a line break, which a line of an sbatch script cannot", p)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("--slurm: cannot find this wormlab binary: %v", err)
	}
	if j.Wormlab, err = filepath.Abs(exe); err != nil {
		return err
	}
	if j.Spec, err = filepath.Abs(specPath); err != nil {
		return err
	}
	if j.Results, err = filepath.Abs(results); err != nil {
		return err
	}
	j.Name = "wormlab-" + strings.TrimSuffix(filepath.Base(specPath), filepath.Ext(specPath))
	var script bytes.Buffer
	if err := sweep.WriteScript(&script, j); err != nil {
		return err
	}
	if !submit {
		_, err := e.stdout.Write(script.Bytes())
		return err
	}
	cmd := exec.Command("sbatch", "--parsable")
	cmd.Stdin = &script
	var out, msg bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &msg
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("sbatch: %v: %s", err, pointLastLine(msg.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out.String()), ";")
	fmt.Fprintln(e.stdout, id)
	fmt.Fprintf(e.stderr, "wormlab sweep: submitted job array %s (%d tasks); when it ends: %s sweep merge %s %s\n",
		id, j.Tasks, j.Wormlab, j.Results, sweep.ShardGlob(j.Results, j.Tasks))
	return nil
}

// checkSimSpec builds every point of a sim spec as the run description wormlab
// sim would (simrun.Run, the same parameters and Validate) before anything runs,
// so that a bad value is bad input naming its spec field, not a failed point. A
// spec with more than simSpecChecked points has its first ones checked; points
// reading a BookSim2 file (config) are checked when they run. A point whose
// network's floor (simrun.Run.CheckFloor) is above pointBudget is not built here:
// it fails when it runs, a record naming the budget.
func checkSimSpec(s *sweep.Spec, pointBudget int64) error {
	field := map[string]string{}
	for _, n := range s.Names() {
		field[n.Param] = n.Field
	}
	if _, ok := field["config"]; ok {
		return nil
	}
	pts := s.Points()
	if len(pts) > simSpecChecked {
		pts = pts[:simSpecChecked]
	}
	seen := map[string]bool{}
	for _, p := range pts {
		g := &simrun.Grid{Base: simrun.Default(), MaxMemory: pointBudget}
		var key strings.Builder
		for _, name := range sortedParamNames(p.Params) {
			v := p.Params[name]
			param, ok := simrun.Lookup(name)
			if v.Label() || !ok {
				continue
			}
			fmt.Fprintf(&key, "%s=%s;", name, v.Arg())
			vals, err := param.Values(v.Arg())
			if err == nil {
				err = g.SetAxis(name, vals)
			}
			if err != nil {
				return usageError("spec: %s: %v", field[name], strings.TrimPrefix(err.Error(), "--"+name+": "))
			}
		}
		if seen[key.String()] {
			continue // replications
		}
		seen[key.String()] = true
		if _, err := g.Points(); err != nil {
			var e *simrun.Error
			if errors.As(err, &e) && e.Param == "max-memory" {
				continue // refused, unbuilt, when it runs
			}
			if errors.As(err, &e) && field[e.Param] != "" {
				return usageError("spec: %s: %s", field[e.Param], e.Msg)
			}
			return usageError("spec: %v", err)
		}
	}
	return nil
}

// checkSweepMemory refuses a spec whose points would not fit the budget while the
// sweep lists them (issue 26: a spec of 9,999,999 points was accepted and crashed
// at 6.5 GB).
func checkSweepMemory(spec *sweep.Spec, budget int64) error {
	if need := satarith.Mul(spec.Count(), sweep.PointBytes); need > budget {
		return overBudget(fmt.Sprintf("listing the spec's %d points", spec.Count()), need, budget)
	}
	return nil
}

// simSpecChecked bounds the points checkSimSpec builds.
const simSpecChecked = 10000

func sortedParamNames(m map[string]sweep.Value) []string {
	ns := make([]string, 0, len(m))
	for n := range m {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// slurmTime is a --time sbatch takes: minutes, minutes:seconds, hours:minutes:
// seconds, days-hours, days-hours:minutes, days-hours:minutes:seconds, or
// INFINITE / UNLIMITED (sbatch(1)).
var slurmTime = regexp.MustCompile(`^(\d+|\d+:\d+|\d+:\d+:\d+|\d+-\d+|\d+-\d+:\d+|\d+-\d+:\d+:\d+|INFINITE|UNLIMITED|infinite|unlimited)$`)

// slurmPartition is a partition name or a comma-separated list of them.
var slurmPartition = regexp.MustCompile(`^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$`)

// checkSlurm refuses what sbatch would refuse, or what would leave a task with
// nothing to run.
func checkSlurm(spec *sweep.Spec, tasks, cpus int, timeLimit, partition string) error {
	switch {
	case timeLimit != "" && !slurmTime.MatchString(timeLimit):
		return usageError("--time: %q is not a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS)", timeLimit)
	case partition != "" && !slurmPartition.MatchString(partition):
		return usageError("--partition: %q is not a partition name (letters, digits, _ . -; a list with commas)", partition)
	case tasks < 1:
		return usageError("--tasks: %d is below 1", tasks)
	case cpus < 1:
		return usageError("--cpus: %d is below 1", cpus)
	case int64(tasks) > spec.Count():
		return usageError("--tasks: %d tasks for %d points would leave tasks with nothing to run", tasks, spec.Count())
	}
	return nil
}

// sweeping counts the sweeps running in this process: their points' commands
// leave the runtime's memory limit alone (the sweep's own stands).
var sweeping atomic.Int32
