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
		out := filepath.Join(tmp, f.study+"-"+f.file)
		code, _, stderr := runCLI(t, "", append(append([]string{"plot", filepath.Join(experimentsDir, f.study, "results.jsonl")}, f.args...), "-o", out)...)
		require.Equal(t, 0, code, "%s: %s", path, stderr)
		want, err := os.ReadFile(path)
		require.NoError(t, err)
		got, err := os.ReadFile(out)
		require.NoError(t, err)
		require.True(t, bytes.Equal(want, got), "%s is not the figure of the committed results: sh experiments/run.sh %s", path, f.study)
	}
	for _, f := range figs {
		svgs, err := filepath.Glob(filepath.Join(experimentsDir, f.study, "*.svg"))
		require.NoError(t, err)
		for _, s := range svgs {
			require.True(t, listed[s], "%s: a figure figures.tsv does not list", s)
		}
	}
}
