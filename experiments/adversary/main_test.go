package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/certify"
	"github.com/wormlab/wormlab/model"
)

// The program runs every group of the spec (40 moves per chain, one seed and one
// network each) and writes its records, traces, instances, figures and summary.
func TestQuick(t *testing.T) {
	out := t.TempDir()
	require.NoError(t, run("spec.json", out, "", true, io.Discard))
	rs, err := readResults(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	spec, err := os.ReadFile("spec.json")
	require.NoError(t, err)
	require.Equal(t, strings.Count(string(spec), `"name"`), len(rs), "one record per group")
	for _, r := range rs {
		require.FileExists(t, filepath.Join(out, "traces", r.Run+".jsonl"))
		require.FileExists(t, filepath.Join(out, "instances", r.Run+".json"))
		if r.Certificate != "" {
			require.True(t, r.Verified, r.Run)
		}
	}
	for _, f := range []string{"summary.md", "reach.svg", "size.svg"} {
		require.FileExists(t, filepath.Join(out, f))
	}
	// A second run resumes: nothing is run again.
	require.NoError(t, run("spec.json", out, "", true, io.Discard))
	again, err := readResults(filepath.Join(out, "results.jsonl"))
	require.NoError(t, err)
	require.Len(t, again, len(rs))
}

// The committed run (experiments/adversary/results, from spec-short.json): the
// summary is what the records give, docs/adversary.md quotes every row of it, each
// run's trace and best instance are there, each best instance has the congestion,
// dilation and worms its record names and the denominator its objective gives
// from them, and every certificate written is accepted by certify.Check again.
func TestCommittedSummary(t *testing.T) {
	dir := "results"
	if _, err := os.Stat(filepath.Join(dir, "results.jsonl")); os.IsNotExist(err) {
		t.Skip("no committed run yet")
	}
	rs, err := readResults(filepath.Join(dir, "results.jsonl"))
	require.NoError(t, err)
	require.NotEmpty(t, rs)
	summary, err := os.ReadFile(filepath.Join(dir, "summary.md"))
	require.NoError(t, err)
	require.Equal(t, Summary(rs), string(summary), "summary.md is not what results.jsonl gives: rerun the report")
	doc, err := os.ReadFile("../../docs/adversary.md")
	require.NoError(t, err)
	for _, line := range strings.Split(string(summary), "\n") {
		if strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| ---") {
			require.Contains(t, string(doc), line, "docs/adversary.md does not quote this row of summary.md")
		}
	}
	for _, f := range []string{"reach.svg", "size.svg", "reach-p2.svg", "reach-p3.svg", "reach-p5.svg"} {
		require.FileExists(t, filepath.Join(dir, f))
	}
	certs := 0
	for _, r := range rs {
		require.FileExists(t, filepath.Join(dir, "traces", r.Run+".jsonl"))
		f, err := os.Open(filepath.Join(dir, "instances", r.Run+".json"))
		require.NoError(t, err)
		in, err := model.ReadInstance(f)
		f.Close()
		require.NoError(t, err, r.Run)
		require.NoError(t, in.Validate(), r.Run)
		ms := in.Measure()
		require.Equal(t, []int{r.Worms, r.C, r.CL, r.D}, []int{len(in.Messages), ms.C, ms.CL, ms.D}, r.Run)
		dl := 0 // max_i (d_i + L_i - 1)
		for _, m := range in.Messages {
			dl = max(dl, len(m.Path)+m.L-1)
		}
		want := map[string]int{"opt/cd": max(ms.CL, dl), "opt/cl+d-1": ms.CL + ms.D - 1}
		if den, ok := want[r.Objective]; ok {
			require.Equal(t, den, r.Den.V, "%s: the denominator of %s", r.Run, r.Objective)
		}
		if r.Target > 0 {
			require.Equal(t, r.Num.V*r.TargetDen > r.TargetNum*r.Den.V, r.Beat, "%s: beat", r.Run)
		}
		if r.Certificate != "" {
			cr, err := certify.Check(filepath.Join(dir, "certs", r.Run))
			require.NoError(t, err, r.Run)
			require.True(t, cr.Verified, "%s: %s", r.Run, cr.Failure)
			require.Equal(t, r.Num.V, cr.Makespan, "%s: the certified optimum is the numerator", r.Run)
			certs++
		}
	}
	require.Positive(t, certs, "the cld-p3 runs certify their optima")
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	require.Contains(t, strings.Join(strings.Fields(string(readme)), " "), Finding(rs), "README.md's finding on the search")
}
