package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// experimentsDir holds the studies experiments/run.sh runs and figures.tsv, the
// figures it draws from their results.
var experimentsDir = filepath.Join("..", "..", "experiments")

// expFigure is a line of experiments/figures.tsv: a study's folder, the figure's
// file in it and wormlab plot's arguments but the results file and -o.
type expFigure struct {
	study, file string
	args        []string
}

// experimentFigures reads experiments/figures.tsv (the figures of study, or every
// study's for "").
func experimentFigures(t *testing.T, study string) []expFigure {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(experimentsDir, "figures.tsv"))
	require.NoError(t, err)
	var out []expFigure
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		require.GreaterOrEqual(t, len(f), 4, "figures.tsv: %q", line)
		if study == "" || f[0] == study {
			out = append(out, expFigure{f[0], f[1], f[2:]})
		}
	}
	require.NotEmpty(t, out, "figures.tsv has no figure of %q", study)
	return out
}

// The committed figures of the studies experiments/run.sh runs are those of their
// committed results: each figure figures.tsv lists, drawn again by wormlab plot
// with the arguments run.sh passes, is the committed file byte for byte; and
// every SVG in those studies' folders is one of them.
func TestExperimentFiguresRegenerate(t *testing.T) {
	figs := experimentFigures(t, "")
	listed := map[string]bool{}
	tmp := t.TempDir()
	for _, f := range figs {
		path := filepath.Join(experimentsDir, f.study, f.file)
		listed[path] = true
		requireRedrawn(t, path, filepath.Join(tmp, f.study+"-"+f.file), append([]string{filepath.Join(experimentsDir, f.study, "results.jsonl")}, f.args...),
			"sh experiments/run.sh "+f.study)
	}
	for _, f := range figs {
		svgs, err := filepath.Glob(filepath.Join(experimentsDir, f.study, "*.svg"))
		require.NoError(t, err)
		for _, s := range svgs {
			require.True(t, listed[s], "%s: a figure figures.tsv does not list", s)
		}
	}
}

// The committed figures that scripts and studies outside experiments/run.sh draw
// with wormlab plot are those of their committed data: each, drawn again with the
// arguments its script passes (copied here: a change there that redraws the figure
// must change this line), is the committed file byte for byte.
func TestScriptFiguresRegenerate(t *testing.T) {
	const df = "offered (flits/terminal/cycle)"
	tmp := t.TempDir()
	for _, c := range []struct {
		svg, by string
		args    []string
	}{
		{"docs/booksim/speed.svg", "scripts/booksim-compare.sh speedplot", []string{"docs/booksim/speed.csv", "--where", "rate=0.1", "--x", "routers", "--y", "ns_per_flit_hop",
			"--series", "simulator", "--logx", "--logy", "--title", "CPU time per flit-hop, torus at 0.1 flits/node/cycle"}},
		{"experiments/deadlock-scaling/cpu.svg", "experiments/deadlock-scaling", []string{"experiments/deadlock-scaling/results.jsonl", "--x", "k", "--y", "cpu_seconds", "--series", "case", "--logy"}},
		{"experiments/solver-random/time.svg", "experiments/solver-random/run.sh (LIMIT 20s)", []string{"experiments/solver-random/results.jsonl", "--x", "worms", "--y", "cpu_s", "--logy", "--series", "model",
			"--legend", "top-left", "--title", "issue 27's family: solve --cpu-limit 20s", "--xlabel", "worms", "--ylabel", "CPU seconds (20s: not proven)"}},
		{"experiments/solver-random/anytime.svg", "experiments/solver-random/anytime.sh", []string{"experiments/solver-random/anytime.jsonl", "--x", "cpu_s", "--y", "makespan",
			"--series", "instance+solver", "--legend", "top-right", "--title", "issue 27: best bufferless makespan against CPU time", "--xlabel", "CPU seconds", "--ylabel", "makespan"}},
		{"experiments/dragonfly/latency-uniform.svg", "scripts/dragonfly-compare.sh plots", []string{"experiments/dragonfly/results.csv", "--x", "rate", "--xlabel", df, "--y", "latency", "--ylabel", "latency (cycles)",
			"--series", "series", "--where", "case=study", "--where", "traffic=uniform", "--show-saturated", "--title", "study, uniform: latency"}},
		{"experiments/dragonfly/accepted-uniform.svg", "scripts/dragonfly-compare.sh plots", []string{"experiments/dragonfly/results.csv", "--x", "rate", "--xlabel", df, "--y", "accepted", "--ylabel", "accepted (flits/terminal/cycle)",
			"--series", "series", "--where", "case=study", "--where", "traffic=uniform", "--title", "study, uniform: accepted"}},
		{"experiments/dragonfly/latency-worstcase.svg", "scripts/dragonfly-compare.sh plots", []string{"experiments/dragonfly/results.csv", "--x", "rate", "--xlabel", df, "--y", "latency", "--ylabel", "latency (cycles)",
			"--series", "series", "--where", "case=study", "--where", "traffic=worstcase", "--show-saturated", "--title", "study, worstcase: latency"}},
		{"experiments/dragonfly/accepted-worstcase.svg", "scripts/dragonfly-compare.sh plots", []string{"experiments/dragonfly/results.csv", "--x", "rate", "--xlabel", df, "--y", "accepted", "--ylabel", "accepted (flits/terminal/cycle)",
			"--series", "series", "--where", "case=study", "--where", "traffic=worstcase", "--title", "study, worstcase: accepted"}},
	} {
		root := filepath.Join("..", "..")
		requireRedrawn(t, filepath.Join(root, c.svg), filepath.Join(tmp, strings.ReplaceAll(c.svg, "/", "-")),
			append([]string{filepath.Join(root, c.args[0])}, c.args[1:]...), c.by)
	}
}

// requireRedrawn draws wormlab plot ARGS -o out and requires the committed figure
// svg byte for byte; by says what draws it.
func requireRedrawn(t *testing.T, svg, out string, args []string, by string) {
	t.Helper()
	code, _, stderr := runCLI(t, "", append(append([]string{"plot"}, args...), "-o", out)...)
	require.Equal(t, 0, code, "%s: %s", svg, stderr)
	want, err := os.ReadFile(svg)
	require.NoError(t, err)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got), "%s is not the figure of its committed data (%s)", svg, by)
}
