package simrun

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// parseJob reads args as wormlab sim's command line would be read (the flags,
// then the key=value overrides) into a job.
func parseJob(t *testing.T, env Env, args ...string) (*Job, error) {
	t.Helper()
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	jf := BindJob(fs)
	require.NoError(t, fs.Parse(args))
	return jf.Job(fs.Args(), env)
}

// files is an Env whose configuration files are texts in memory.
func files(m map[string]string) Env {
	return Env{Open: func(path string) (io.Reader, func(), error) {
		text, ok := m[path]
		if !ok {
			return nil, nil, errors.New("no file " + path)
		}
		return strings.NewReader(text), func() {}, nil
	}}
}

const torusConfig = `topology = torus; k = 8; n = 2; routing_function = dim_order;
num_vcs = 4; vc_buf_size = 8; packet_size = 16; injection_rate_uses_flits = 1; injection_rate = 0.3;
traffic = uniform; vc_allocator = separable_input_first; sw_allocator = separable_input_first;`

// Flags, a BookSim2 file and a sweep spec's parameters build the same job's
// runs: BookSim2's 8x8 torus under dimension order at 0.3 flits/node/cycle.
func TestJobOneDescription(t *testing.T) {
	env := files(map[string]string{"t.cfg": torusConfig})
	byFlags, err := parseJob(t, env, "--topology", "torus:8x8", "--routing", "dor-booksim", "--vcs", "4", "--buf", "8",
		"--flits", "16", "--rate", "0.3", "--atomic-vc", "off", "--select", "rotate", "--switch-input", "output")
	require.NoError(t, err)
	byFile, err := parseJob(t, env, "--config", "t.cfg")
	require.NoError(t, err)
	require.Equal(t, byFlags.Grid, byFile.Grid)
	require.Equal(t, byFlags.Points, byFile.Points)
	require.Equal(t, "num_vcs (t.cfg:2)", byFile.Origin["vcs"])
	// flags given with --config override the file's allocators
	own, err := parseJob(t, env, "--config", "t.cfg", "--select", "first", "--switch-input", "vc")
	require.NoError(t, err)
	require.Equal(t, "first", own.Grid.Base.Select)
	require.Equal(t, "vc", own.Grid.Base.SwitchInput)

	spec := &Grid{Base: Default()} // as wormlab sweep builds a spec's point
	for name, text := range map[string]string{"topology": "torus:8x8", "routing": "dor-booksim", "vcs": "4", "buf": "8",
		"flits": "16", "rate": "0.3", "atomic-vc": "off", "select": "rotate", "switch-input": "output"} {
		p, ok := Lookup(name)
		require.True(t, ok, name)
		vals, err := p.Values(text)
		require.NoError(t, err)
		require.NoError(t, spec.SetAxis(name, vals))
	}
	require.Equal(t, byFlags.Grid, spec)

	// key=value overrides the file, a flag both; lists make axes in either
	both, err := parseJob(t, env, "--config", "t.cfg", "--vcs", "2,4", "num_vcs=6", "injection_rate=0.2")
	require.NoError(t, err)
	require.Equal(t, []Axis{{"vcs", []string{"2", "4"}}}, both.Grid.Axes)
	require.Equal(t, 0.2, both.Grid.Base.Rate)
	require.Len(t, both.Points, 2)
	require.Equal(t, 2, both.Points[0].Run.VCs)
}

// Every bad command line is refused before any work with one message naming the
// flag, the key or the combination at fault.
func TestJobRefuses(t *testing.T) {
	env := files(map[string]string{"t.cfg": torusConfig, "bad.cfg": "topology = torus; k = 8; n = 2; routing_function = dim_order; num_vcs = 1;"})
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--channels"}, "--channels: not used without --json (the channels' use is a JSON field)"},
		{[]string{"--timeout", "-1s"}, "--timeout: -1s is negative"},
		{[]string{"--workers", "0"}, "--workers: 0 is below 1"},
		{[]string{"--json", "--csv"}, "--json and --csv: give one"},
		{[]string{"--plot", "p.gif"}, `--plot p.gif: unknown format "gif" (want .svg, .png, .pdf, .eps)`},
		{[]string{"k=4"}, `takes no arguments (key=value overrides go with --config), got "k=4"`},
		{[]string{"--lenient"}, "--lenient goes with --config"},
		{[]string{"--config", "t.cfg", "k4"}, `"k4": want key=value (a BookSim2 override)`},
		{[]string{"--config", "bad.cfg"}, "booksim key num_vcs (bad.cfg:1): dor-booksim needs at least 2 VCs on torus:8x8, got 1 (--unsafe to run anyway)"},
		{[]string{"--rate", "0.1", "--msg-rate", "0.01"}, "--rate and --msg-rate: give one"},
		{[]string{"--rates", "0:0.2:0.1"}, "--rates: 0 outside (0, 1] (at rate=0)"},
		{[]string{"--min-cycles", "5000", "--max-cycles", "1000"}, "--min-cycles: 5000 is above --max-cycles 1000"},
		{[]string{"--min-cycles", "300000"}, "--min-cycles: 300000 is above --max-cycles 200000 (its default)"},
		{[]string{"--min-cycles", "500,2000", "--max-cycles", "1000"}, "--min-cycles: 2000 is above --max-cycles 1000 (at min-cycles=2000)"},
		{[]string{"--min-cycles", "500", "--max-cycles", "1000,400"}, "--min-cycles: 500 is above --max-cycles 400 (at max-cycles=400)"},
		{[]string{"--emit-config", "-", "--min-cycles", "300000"}, "--min-cycles: 300000 is above --max-cycles 200000 (its default)"},
		{[]string{"--emit-config", "-", "--vcs", "2,4"}, "--emit-config writes one run: --vcs has several values"},
		{[]string{"--theory"}, "--theory needs --batch INSTANCE"},
		{[]string{"--rotate"}, "--rotate needs --batch INSTANCE --theory"},
		{[]string{"--batch", "i.json", "--rate", "0.2"}, "--batch takes no --rate, --rates, --msg-rate or --traffic"},
		{[]string{"--batch", "i.json", "--topology", "mesh:4x4"}, "--topology: not used with --batch (the instance fixes the network, the paths and the packets)"},
		{[]string{"--batch", "i.json", "--theory", "--vcs", "2"}, "--vcs: not used with --theory (V = 1, B = 1, the ideal pipeline; the output is a MODEL.md schedule)"},
		{[]string{"--batch", "i.json", "--seed", "1,2"}, "--seed: --batch takes one value per flag"},
		{[]string{"--batch", "i.json", "--rotate"}, "--rotate needs --theory"},
		{[]string{"--trace", "t.jsonl", "--seed", "1,2"}, "--trace follows one run: --seed has several values"},
		{[]string{"--trace", "t.jsonl"}, "--trace needs a selection: --trace-packets (0:9 for the first ten), --trace-src, --trace-dst or --trace-cycles"},
		{[]string{"--trace-packets", "3"}, "--trace-packets, --trace-src, --trace-dst, --trace-cycles and --trace-max go with --trace FILE"},
		{[]string{"--trace", "t.jsonl", "--trace-packets", "x"}, `--trace-packets: "x" is not a whole number`},
		{[]string{"--trace", "t.jsonl", "--trace-cycles", "5"}, `--trace-cycles: "5": want FROM:TO`},
		{[]string{"--trace", "t.jsonl", "--trace-cycles", "9:5"}, `--trace-cycles: "9:5": want cycles FROM:TO with FROM <= TO`},
		{[]string{"--trace", "t.jsonl", "--trace-packets", "1", "--trace-max", "0"}, "--trace-max: 0 is below 1"},
		{[]string{"--trace", "t.jsonl", "--trace-src", "64"}, "--trace-src: node 64 is not a terminal of torus:8x8"},
		{[]string{"--heatmap", "h.png"}, "--heatmap h.png: want a .svg file"},
		{[]string{"--heatmap", "h.svg", "--seed", "1,2"}, "--heatmap draws one run: --seed has several values"},
		{[]string{"--heatmap", "h.svg", "--topology", "dragonfly:p=8", "--routing", "df-min", "--vcs", "2"}, "--heatmap: dragonfly:p=8 has 2064 routers: too many to draw (at most 2048; tori and meshes of 1 to 3 dimensions have no bound)"},
		{[]string{"--saturation", "--nodes"}, "--nodes draws or reports runs at a load: with --saturation alone there are none (give --rate, a list or a range)"},
		{[]string{"--saturation", "--saturation-tol", "1"}, "--saturation-tol: 1 outside (0, 1)"},
		{[]string{"--saturation-tol", "0.1"}, "--saturation-tol goes with --saturation"},
	} {
		j, err := parseJob(t, env, c.args...)
		require.EqualError(t, err, c.msg, "%q", c.args)
		require.NotNil(t, j, "%q", c.args)
	}
	// a flag the caller passes on purpose (a sweep's --json) is not refused
	_, err := parseJob(t, Env{Implied: map[string]bool{"json": true}}, "--batch", "i.json", "--theory", "--json")
	require.NoError(t, err)
}

// The outputs are checked before any work, each through Env.CheckOutput.
func TestJobChecksOutputs(t *testing.T) {
	var checked []string
	env := Env{CheckOutput: func(path string) error { checked = append(checked, path); return nil }}
	_, err := parseJob(t, env, "-o", "out.txt", "--plot", "p.svg", "--trace", "t.jsonl", "--trace-packets", "0:9", "--heatmap", "h.svg")
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"", "out.txt", "p.svg", "t.jsonl", "h.svg"}, checked)
	env.CheckOutput = func(path string) error {
		if path == "t.jsonl" {
			return errors.New("cannot write t.jsonl")
		}
		return nil
	}
	_, err = parseJob(t, env, "--trace", "t.jsonl", "--trace-packets", "1")
	require.EqualError(t, err, "cannot write t.jsonl")
}

// The job's shape: a load list gives points and, with --saturation, one search
// per configuration; --rates gives a table even for one value.
func TestJobShape(t *testing.T) {
	j, err := parseJob(t, Env{}, "--saturation", "--routing", "dor,duato", "--rate", "0.1,0.2")
	require.NoError(t, err)
	require.Len(t, j.Points, 4)
	require.Len(t, j.SatPoints, 2)
	require.True(t, j.Simulates())
	require.True(t, j.Sweep)
	j, err = parseJob(t, Env{}, "--saturation", "--routing", "dor,duato")
	require.NoError(t, err)
	require.False(t, j.Simulates(), "the searches alone")
	require.Len(t, j.SatPoints, 2)
	j, err = parseJob(t, Env{}, "--rates", "0.2")
	require.NoError(t, err)
	require.Len(t, j.Points, 1)
	require.True(t, j.Sweep)
	j, err = parseJob(t, Env{}, "--trace", "t.jsonl", "--trace-packets", "0:2", "--trace-cycles", "10:", "--trace-max", "50")
	require.NoError(t, err)
	require.Equal(t, TraceSelect{Packets: []int64{0, 1, 2}, From: 10, To: -1, Max: 50}, j.TraceSel)
	require.Equal(t, "packets 0:2, cycles 10:, at most 50 events", j.TraceText)
}

// The progress line redraws one terminal line: points done of the total, the time
// spent and the time left.
func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := ProgressLine(&b, "sim", "points")
	p(1, 4)
	p(2, 4)
	require.Equal(t, 2, strings.Count(b.String(), "\r\x1b[K"))
	require.Contains(t, b.String(), "sim: 1/4 points, ")
	require.Contains(t, b.String(), "sim: 2/4 points, ")
	require.Contains(t, b.String(), " left")
	require.NotContains(t, b.String(), "\n")
}

// terminal is a fake terminal: it keeps what is written and calls at when a
// line containing its text is drawn.
type terminal struct {
	bytes.Buffer
	text string
	at   func()
}

func (t *terminal) Write(p []byte) (int, error) {
	if t.at != nil && strings.Contains(string(p), t.text) {
		t.at()
		t.at = nil
	}
	return t.Buffer.Write(p)
}

// A job of many points draws its progress on a terminal, and interrupted (here
// when the line says two points are done) it keeps the finished points: their
// rows are whole, and the note counts them.
func TestJobProgressAndInterrupt(t *testing.T) {
	j, err := parseJob(t, Env{}, "--topology", "mesh:4x4", "--flits", "4", "--min-cycles", "2000", "--max-cycles", "4000",
		"--rate", "0.05:0.3:0.05", "--workers", "1", "--json")
	require.NoError(t, err)
	require.Len(t, j.Points, 6)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	term := &terminal{text: "sim: 2/6 points", at: cancel}
	rep, err := j.Execute(ctx, ExecOptions{Progress: term})
	require.NoError(t, err)
	require.NoError(t, rep.Err)
	require.Contains(t, term.String(), "\r\x1b[Ksim: 1/6 points, ")
	require.Contains(t, term.String(), " left")
	require.True(t, strings.HasSuffix(term.String(), "\n"), "the line ends when the points do: %q", term.String())
	finished := 0
	for _, r := range rep.Rows {
		if !r.Interrupted {
			finished++
			require.Equal(t, r.Result.Cycles >= 2000, true, "a whole row at %g", r.Result.Offered)
		}
	}
	require.Equal(t, 2, finished)
	// the points not started (three or four: the third may have started before
	// the cancel) have no row, and the note says how many
	require.Equal(t, fmt.Sprintf("2 of 6 points done; the rows cut short are marked interrupted; %d not started have no row", 6-len(rep.Rows)), j.StopNote(rep))
	var out bytes.Buffer
	require.NoError(t, j.Write(&out, rep))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Equal(t, len(rep.Rows), len(lines))
	require.Equal(t, len(rep.Rows)-2, strings.Count(out.String(), `"interrupted":true`))

	// off a terminal: no line
	j, err = parseJob(t, Env{}, "--topology", "mesh:4x4", "--flits", "4", "--min-cycles", "2000", "--max-cycles", "4000", "--rate", "0.05,0.1")
	require.NoError(t, err)
	rep, err = j.Execute(context.Background(), ExecOptions{})
	require.NoError(t, err)
	require.Len(t, rep.Rows, 2)
}

// The heatmap of a run cut short says so in its title, as its row is marked:
// the colours are those of the cycles run.
func TestJobHeatmapInterrupted(t *testing.T) {
	j, err := parseJob(t, Env{}, "--topology", "torus:4x4", "--heatmap", "h.svg", "--min-cycles", "1000000", "--max-cycles", "1000000")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	rep, err := j.Execute(ctx, ExecOptions{})
	require.NoError(t, err)
	require.Len(t, rep.Rows, 1)
	require.True(t, rep.Rows[0].Interrupted)
	require.NotNil(t, rep.Heatmap)
	var b bytes.Buffer
	require.NoError(t, rep.Heatmap.Draw(&b))
	want := fmt.Sprintf("interrupted after %d cycles", rep.Rows[0].Result.Cycles)
	require.True(t, strings.Contains(b.String(), want), "the heatmap should say %q", want)
}
