package study

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/sweep"
)

// The interval is Student's: for 1, 2, 3 the mean is 2, the sample standard
// deviation 1, the half-width t(0.975, 2) / sqrt(3) = 2.484.
func TestMeanCI(t *testing.T) {
	e := MeanCI([]float64{1, 2, 3})
	require.InDelta(t, 2, e.Mean, 1e-12)
	require.InDelta(t, 4.303/1.7320508, e.Half, 1e-4)
	require.Equal(t, "2.00 ± 2.48", e.Fmt(2))
	require.Equal(t, "5.0", MeanCI([]float64{5}).Fmt(1))
	require.Equal(t, "—", MeanCI(nil).Fmt(1))
	require.True(t, Above(Est{Mean: 10, Half: 1, N: 3}, Est{Mean: 8, Half: 0.9, N: 3}))
	require.True(t, Overlap(Est{Mean: 10, Half: 1, N: 3}, Est{Mean: 8.5, Half: 0.6, N: 3}))
}

// A spec that grows keeps the records of the points it still has: their keys and
// seeds depend on their own parameters, so only the new points run; the kept
// records carry the new spec's hash, and a point the spec dropped is dropped.
func TestCarryOver(t *testing.T) {
	dir := t.TempDir()
	spec := func(rates ...float64) string {
		s := Spec{Command: "sim", Seed: 3, Replications: 2, Params: map[string]any{"topology": "torus:4x4"},
			Axes: map[string]any{"rate": rates}}
		data, err := json.Marshal(s)
		require.NoError(t, err)
		path := filepath.Join(dir, "s.json")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		return path
	}
	path := spec(0.1, 0.2)
	f, _ := os.Open(path)
	old, err := sweep.ParseSpec(f)
	f.Close()
	require.NoError(t, err)
	res := filepath.Join(dir, "s.jsonl")
	var recs []*sweep.Record
	for _, p := range old.Points() {
		recs = append(recs, &sweep.Record{Key: p.Key, Spec: old.Hash(), Command: "sim", Params: p.Params, Replication: p.Replication,
			Seed: p.Seed, Status: sweep.StatusOK, Values: map[string]any{"x": 1}})
	}
	require.NoError(t, sweep.Rewrite(res, recs))
	path = spec(0.2, 0.3)
	require.NoError(t, carryOver(path, res))
	f, _ = os.Open(path)
	grown, err := sweep.ParseSpec(f)
	f.Close()
	require.NoError(t, err)
	data, err := os.ReadFile(res)
	require.NoError(t, err)
	c, err := sweep.ReadResults(res, bytes.NewReader(data), grown.Hash())
	require.NoError(t, err)
	require.Len(t, c.Records, 2, "the two replications of rate 0.2")
	keys := map[string]uint64{}
	for _, p := range grown.Points() {
		keys[p.Key] = p.Seed
	}
	for _, r := range c.Records {
		seed, ok := keys[r.Key]
		require.True(t, ok)
		require.Equal(t, seed, r.Seed)
		require.Equal(t, "0.2", r.Params["rate"].Text)
	}
}

// Sections finds every table after its name line; Differences accepts a rerun
// inside the committed interval and names one outside it or missing.
func TestSectionsDifferences(t *testing.T) {
	s := Sections("# t\n\n`a`\n\n| x |\n| --- |\n| 1 |\n\n`b-2`\n\ntext\n")
	require.Equal(t, map[string]string{"a": "| x |\n| --- |\n| 1 |", "b-2": "text"}, s)
	pt := func(name string, xs ...float64) Point {
		p := Point{Part: "p", Name: name}
		for i, x := range xs {
			p.Obs = append(p.Obs, Obs{Rep: i, V: map[string]float64{"u": x}})
		}
		return p
	}
	c := []Point{pt("a", 1, 2, 3), pt("b", 5, 5, 5)}
	require.Empty(t, Differences(c, []Point{pt("a", 1.5, 2.5, 3.5)}, []string{"u"}, 0))
	require.Len(t, Differences(c, []Point{pt("b", 6, 6, 6)}, []string{"u"}, 0), 1)
	require.Len(t, Differences(c, []Point{pt("z", 1, 1, 1)}, []string{"u"}, 0), 1)
}

// Fill replaces what stands between a table's marker and its end by the summary's
// section, keeps the rest of the page, names a section the summary lacks (its block
// says NotRun), refuses a marker without its end, and is idempotent: a filled page
// fills to itself.
func TestFill(t *testing.T) {
	sum := "# tables\n\n`peaks`\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n`runs`\n\n| r |\n| --- |\n| 3 |\n"
	doc := "Intro.\n\n<!-- table peaks -->\nold\nlines\n<!-- end -->\n\nMiddle.\n\n<!-- table runs -->\n<!-- end -->\n<!-- table gone -->\nkept\n<!-- end -->\nEnd.\n"
	got, missing, err := Fill(doc, sum)
	require.NoError(t, err)
	require.Equal(t, []string{"gone"}, missing)
	require.Equal(t, "Intro.\n\n<!-- table peaks -->\n| a | b |\n| --- | --- |\n| 1 | 2 |\n<!-- end -->\n\nMiddle.\n\n<!-- table runs -->\n| r |\n| --- |\n| 3 |\n<!-- end -->\n<!-- table gone -->\n"+NotRun+"\n<!-- end -->\nEnd.\n", got)
	again, _, err := Fill(got, sum)
	require.NoError(t, err)
	require.Equal(t, got, again)
	_, _, err = Fill("<!-- table peaks -->\nno end\n", sum)
	require.ErrorContains(t, err, "table peaks")
}

// A report made again in a committed run's folder, which keeps its points and not
// its sweeps, leaves the points as they are; a folder with records gets their points.
func TestSavePointsKeepsCommitted(t *testing.T) {
	dir := t.TempDir()
	pts := []Point{{Part: "p", Name: "a", Params: map[string]string{"point": "a"}}}
	require.NoError(t, WritePoints(dir, pts))
	before, err := os.ReadFile(filepath.Join(dir, PointsFile))
	require.NoError(t, err)
	require.NoError(t, SavePoints(dir, nil, []string{"x"}))
	after, err := os.ReadFile(filepath.Join(dir, PointsFile))
	require.NoError(t, err)
	require.Equal(t, string(before), string(after))
	recs := []Rec{{Part: "q", Params: map[string]string{"point": "b"}, Values: map[string]any{"x": 1.0}}}
	require.NoError(t, SavePoints(dir, recs, []string{"x"}))
	got, err := ReadPoints(dir)
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, "q", got[0].Part)
}

// A dotted name reaches into objects and arrays of a record's values: a study can
// keep each run of a point that holds its runs in an array (fattree's latencies).
func TestRecNumDotted(t *testing.T) {
	var vals map[string]any
	dec := json.NewDecoder(bytes.NewReader([]byte(`{"a": {"b": 2.5}, "xs": [3, 4, null, "s"], "n": 7}`)))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&vals))
	r := Rec{Values: vals}
	for name, want := range map[string]float64{"n": 7, "a.b": 2.5, "xs.0": 3, "xs.1": 4} {
		got, ok := r.Num(name)
		require.True(t, ok, name)
		require.Equal(t, want, got, name)
	}
	for _, name := range []string{"xs.2", "xs.3", "xs.4", "xs.-1", "xs.x", "a.c", "n.0", "m"} {
		_, ok := r.Num(name)
		require.False(t, ok, name)
	}
}

// Quotes passes a page that quotes its summary verbatim and names what differs
// otherwise: a stale table, a section the page leaves out, a marked table the
// summary lacks.
func TestQuotes(t *testing.T) {
	dir := t.TempDir()
	sum := "# s\n\n`a`\n\n| x |\n| --- |\n| 1 |\n\n`b`\n\ntext b\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "summary.md"), []byte(sum), 0o644))
	page := filepath.Join(dir, "page.md")
	write := func(s string) { require.NoError(t, os.WriteFile(page, []byte(s), 0o644)) }
	good := "P\n<!-- table a -->\n| x |\n| --- |\n| 1 |\n<!-- end -->\nQ\n<!-- table b -->\ntext b\n<!-- end -->\n"
	write(good)
	missing, err := Quotes(page, dir)
	require.NoError(t, err)
	require.Empty(t, missing)
	write(strings.Replace(good, "| 1 |", "| 2 |", 1))
	_, err = Quotes(page, dir)
	require.ErrorContains(t, err, "does not quote")
	write("P\n<!-- table a -->\n| x |\n| --- |\n| 1 |\n<!-- end -->\n")
	_, err = Quotes(page, dir)
	require.ErrorContains(t, err, "table b")
	write(good + "<!-- table c -->\n" + NotRun + "\n<!-- end -->\n")
	missing, err = Quotes(page, dir)
	require.NoError(t, err)
	require.Equal(t, []string{"c"}, missing)
}

// Unheld names every figure of the prose the summary does not hold: a number the
// summary has only as part of a longer one, a sign the summary lacks, a percentage
// whose share stands there only when shares count; Prose leaves the quoted tables out.
func TestFiguresUnheld(t *testing.T) {
	sum := "| 0.87 | 21.5% | 12.34 |"
	prose := "up 21.5% and +21.5%, 87%, 2.3 and 0.5\n<!-- table a -->\n9.99\n<!-- end -->\n"
	un, err := Figures{}.Unheld(Prose(prose), sum)
	require.NoError(t, err)
	require.Equal(t, []string{"87%", "2.3", "0.5"}, un)
	un, err = Figures{Signed: true, Shares: true, Known: map[string]bool{"0.5": true}}.Unheld(Prose(prose), sum)
	require.NoError(t, err)
	require.Equal(t, []string{"+21.5%", "2.3"}, un)
	_, err = Figures{}.Unheld("no figures", sum)
	require.Error(t, err)
}

// Points survive the compressed file as they were written, the same points give the
// same bytes (a committed file changes only with its points), writing removes an
// earlier plain points.jsonl, and a folder holding only the plain form is still read.
func TestPointsFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	pts := []Point{
		{Part: "p", Name: "a", Params: map[string]string{"rate": "0.1"}, Obs: []Obs{{Rep: 0, V: map[string]float64{"x": 0.010051038681948425}}}},
		{Part: "p", Name: "b", Params: map[string]string{"rate": "0.2"}, Obs: []Obs{{Rep: 1, Failed: "saturated"}}},
	}
	var plain bytes.Buffer
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	for _, p := range pts {
		require.NoError(t, enc.Encode(p))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "points.jsonl"), plain.Bytes(), 0o644))
	got, err := ReadPoints(dir)
	require.NoError(t, err)
	require.Equal(t, pts, got)

	require.NoError(t, WritePoints(dir, pts))
	require.NoFileExists(t, filepath.Join(dir, "points.jsonl"))
	first, err := os.ReadFile(filepath.Join(dir, PointsFile))
	require.NoError(t, err)
	require.Equal(t, []byte{0x1f, 0x8b}, first[:2], "gzip")
	got, err = ReadPoints(dir)
	require.NoError(t, err)
	require.Equal(t, pts, got)
	require.NoError(t, WritePoints(dir, pts))
	again, err := os.ReadFile(filepath.Join(dir, PointsFile))
	require.NoError(t, err)
	require.Equal(t, first, again)
}
