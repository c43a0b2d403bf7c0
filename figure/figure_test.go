package figure

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/vg"
)

func rowsOf(t *testing.T, s string) []Row {
	t.Helper()
	rows, err := ReadRows(strings.NewReader(s))
	require.NoError(t, err)
	return rows
}

func TestBuildMeansAndIntervals(t *testing.T) {
	rows := rowsOf(t, `{"rate":0.1,"algo":"b","lat":10}
{"rate":0.1,"algo":"b","lat":14}
{"rate":0.1,"algo":"b","lat":12}
{"rate":0.2,"algo":"b","lat":20}
{"rate":0.2,"algo":"a","lat":5}
{"rate":0.1,"algo":"a","lat":3}`)
	f, err := Build(rows, Options{X: "rate", Y: "lat", Series: "algo"})
	require.NoError(t, err)
	require.Len(t, f.Series, 2)
	require.Equal(t, "a", f.Series[0].Name)
	require.Equal(t, []Point{{X: 0.1, Y: 3, N: 1}, {X: 0.2, Y: 5, N: 1}}, f.Series[0].Points)
	b := f.Series[1].Points
	require.Len(t, b, 2)
	// mean 12, sample sd 2, n 3: half-width t(2) * 2 / sqrt(3) = 4.303 * 1.1547.
	require.Equal(t, 12.0, b[0].Y)
	require.InDelta(t, 4.303*2/math.Sqrt(3), b[0].Err, 1e-9)
	require.Equal(t, 3, b[0].N)
	require.Equal(t, Point{X: 0.2, Y: 20, N: 1}, b[1])
}

func TestBuildRecordsRatioErrCategories(t *testing.T) {
	rows := rowsOf(t, `{"key":"1","params":{"topology":"torus:16x16","makespan":99},"values":{"makespan":40,"lower_bound":20,"ci":{"half":1.5}},"status":"ok"}
{"key":"2","params":{"topology":"torus:4x4"},"values":{"makespan":12,"lower_bound":8,"ci":{"half":0.5}},"status":"ok"}
{"key":"3","params":{"topology":"torus:8x8"},"status":"failed","message":"timeout"}`)
	f, err := Build(rows, Options{X: "topology", Y: "makespan/lower_bound", Err: "ci.half"})
	require.NoError(t, err)
	require.Equal(t, []string{"torus:4x4", "torus:16x16"}, f.Categories, "natural order")
	require.Len(t, f.Series, 1)
	// A parameter named like a value wins: record 1's params.makespan is 99.
	require.Equal(t, []Point{{X: 0, Y: 1.5, Err: 0.5, N: 1}, {X: 1, Y: 99.0 / 20, Err: 1.5, N: 1}}, f.Series[0].Points)
	require.Equal(t, []string{"1 failed record(s)"}, f.Skipped)
}

func TestBuildWhere(t *testing.T) {
	rows := rowsOf(t, `{"n":1,"p":"a","rate":0.10,"y":1}
{"n":2,"p":"b","rate":0.1,"y":2}
{"n":3,"p":"a","rate":0.2,"y":3}
{"n":4,"p":"c","rate":0.1,"y":4}`)
	f, err := Build(rows, Options{X: "n", Y: "y", Where: map[string][]string{"rate": {"0.1"}, "p": {"a", "b"}}})
	require.NoError(t, err)
	require.Equal(t, []Point{{X: 1, Y: 1, N: 1}, {X: 2, Y: 2, N: 1}}, f.Series[0].Points)
	_, err = Build(rows, Options{X: "n", Y: "y", Where: map[string][]string{"p": {"z"}}})
	require.EqualError(t, err, `field "where": no row matches --where`)
}

// --series A+B makes a series of each pair of values of A and B, named by the two
// joined by a space; a field named "A+B" is itself; a part no row has is blamed.
func TestBuildSeriesPairs(t *testing.T) {
	rows := rowsOf(t, `{"inst":"m1","solver":"w","x":1,"y":5}
{"inst":"m1","solver":"c","x":1,"y":6}
{"inst":"m2","solver":"w","x":1,"y":7}
{"inst":"m1","solver":"w","x":2,"y":4}`)
	f, err := Build(rows, Options{X: "x", Y: "y", Series: "inst+solver"})
	require.NoError(t, err)
	var names []string
	for _, s := range f.Series {
		names = append(names, s.Name)
	}
	require.Equal(t, []string{"m1 c", "m1 w", "m2 w"}, names)
	require.Equal(t, []Point{{X: 1, Y: 5, N: 1}, {X: 2, Y: 4, N: 1}}, f.Series[1].Points)
	f, err = Build(rowsOf(t, `{"a+b":"z","a":"p","b":"q","x":1,"y":1}`), Options{X: "x", Y: "y", Series: "a+b"})
	require.NoError(t, err)
	require.Equal(t, "z", f.Series[0].Name)
	_, err = Build(rows, Options{X: "x", Y: "y", Series: "inst+nosuch"})
	require.EqualError(t, err, `field "nosuch": no row has it (--series)`)
	// an empty part is no field: the option is blamed as given, not --y (which
	// every row has)
	for _, series := range []string{"inst+", "+solver", "inst++solver", "+"} {
		_, err = Build(rows, Options{X: "x", Y: "y", Series: series})
		require.EqualError(t, err, fmt.Sprintf("field %q: no row has it (--series)", series))
	}
	for _, y := range []string{"y/", "/y"} {
		_, err = Build(rows, Options{X: "x", Y: y})
		require.EqualError(t, err, fmt.Sprintf("field %q: no row has it (--y)", y))
	}
	// two pairs whose joined names are one are refused, not drawn as one series
	_, err = Build(rowsOf(t, `{"a":"p q","b":"r","x":1,"y":1}
{"a":"p","b":"q r","x":2,"y":2}`), Options{X: "x", Y: "y", Series: "a+b"})
	require.EqualError(t, err, `line 2: field "a+b": the values ["p" "q r"] name the series "p q r" of ["p q" "r"] (line 1)`)
}

func TestLookupPaths(t *testing.T) {
	rows := rowsOf(t, `{"params":{"n":8},"values":{"rows":[{"Best":34,"a.b":1}]},"seed":5}`)
	r := rows[0]
	for path, want := range map[string]string{"n": "8", "rows.0.Best": "34", "rows.0.a.b": "1", "seed": "5"} {
		v, ok := r.Lookup(path)
		require.True(t, ok, path)
		require.Equal(t, want, label(v), path)
	}
	for _, path := range []string{"rows.1.Best", "rows.x", "rows.-1.Best", "params.m", "Best"} {
		_, ok := r.Lookup(path)
		require.False(t, ok, path)
	}
}

func TestBuildErrors(t *testing.T) {
	rows := rowsOf(t, "{\"a\":1,\"b\":0}\n{\"a\":2,\"b\":\"x\"}\n")
	_, err := Build(rows, Options{X: "a", Y: "c"})
	require.EqualError(t, err, `field "c": no row has it (--y)`)
	// the culprit is the field no row has, whichever option names it (issue
	// 26: --err and --series blamed the --y field)
	_, err = Build(rows[:1], Options{X: "a", Y: "b", Err: "nosuch"})
	require.EqualError(t, err, `field "nosuch": no row has it (--err)`)
	_, err = Build(rows[:1], Options{X: "a", Y: "b", Series: "nosuch"})
	require.EqualError(t, err, `field "nosuch": no row has it (--series)`)
	_, err = Build(rows[:1], Options{X: "nosuch", Y: "b"})
	require.EqualError(t, err, `field "nosuch": no row has it (--x)`)
	_, err = Build(rows[:1], Options{X: "a", Y: "b/nosuch"})
	require.EqualError(t, err, `field "nosuch": no row has it (--y)`)
	_, err = Build(rows, Options{X: "a", Y: "b"})
	require.EqualError(t, err, `line 2: field "b": "x" is not a finite number`)
	// an error bar is a half-width: a negative one is refused, not drawn as its
	// absolute value
	_, err = Build(rowsOf(t, "{\"a\":1,\"b\":1,\"e\":0}\n{\"a\":2,\"b\":1,\"e\":-0.5}\n"), Options{X: "a", Y: "b", Err: "e"})
	require.EqualError(t, err, `line 2: field "e": -0.5 is negative (--err)`)
	_, err = Build(rows[:1], Options{X: "a", Y: "b", LogY: true})
	require.EqualError(t, err, `line 1: field "b": 0 is not positive (--logy)`)
	_, err = Build(rows[:1], Options{X: "a", Y: "a/b"})
	require.EqualError(t, err, `line 1: field "b": is zero (denominator of --y)`)
	f, err := Build(rowsOf(t, "{\"a\":1,\"b\":1}\n{\"b\":2}\n"), Options{X: "a", Y: "b"})
	require.NoError(t, err)
	require.Equal(t, []string{`1 row(s) without "a" (first on line 2)`}, f.Skipped)
}

func TestReadRows(t *testing.T) {
	rows := rowsOf(t, "{\n  \"a\": 1\n}\n\n{\"a\": 2}\n[{\"a\":3},{\"a\":4}]\n")
	require.Len(t, rows, 4)
	require.Equal(t, []int{1, 5, 6, 6}, []int{rows[0].Line, rows[1].Line, rows[2].Line, rows[3].Line})
	for _, c := range []struct{ in, err string }{
		{"{\"a\":1}\n{\"a\":\n", "line 2: not JSON: unexpected EOF"},
		{"{\"a\":1}\n42\n", "line 2: not a JSON object"},
		{"", "line 1: no JSON objects"},
		{"{\"a\":1}\n{\"a\" 1}\n", "line 2: not JSON: invalid character '1' after object key"},
	} {
		_, err := ReadRows(bytes.NewReader([]byte(c.in)))
		require.EqualError(t, err, c.err, "input %q", c.in)
	}
}

func TestNaturalLess(t *testing.T) {
	require.True(t, naturalLess("torus:4x4", "torus:16x16"))
	require.True(t, naturalLess("p2", "p10"))
	require.False(t, naturalLess("p10", "p2"))
	require.True(t, naturalLess("a", "b"))
	require.True(t, seriesLess("0.1", "0.05") == false)
	require.True(t, seriesLess("4", "16"))
}

// A figure's size is a positive finite length up to MaxSize: NaN, infinities,
// zero and negatives are refused before drawing (issue 26: --width NaN wrote
// width="NaNpt", --height NaN panicked in the PNG encoder).
func TestDrawSizeChecked(t *testing.T) {
	f, err := Build(rowsOf(t, "{\"a\":1,\"b\":1}\n{\"a\":2,\"b\":3}\n"), Options{X: "a", Y: "b"})
	require.NoError(t, err)
	for _, bad := range []vg.Length{vg.Length(math.NaN()), vg.Length(math.Inf(1)), vg.Length(math.Inf(-1)), 0, -1, MaxSize + 1} {
		for _, format := range []string{"svg", "png"} {
			var b bytes.Buffer
			require.Error(t, Draw(&b, f, format, bad, DefaultHeight), "width %v %s", bad, format)
			require.Error(t, Draw(&b, f, format, DefaultWidth, bad), "height %v %s", bad, format)
			require.Error(t, DrawColumn(&b, []*Figure{f}, format, DefaultWidth, bad), "column height %v %s", bad, format)
		}
	}
	var b bytes.Buffer
	require.NoError(t, Draw(&b, f, "png", DefaultWidth, DefaultHeight))
}

// Values near the largest float64. A range of y wider than it (-1e308 to 1e308)
// cannot be an axis (gonum divides by its width): Draw refuses it, naming the
// axis, where it drew an empty plot. Two replications of 1.7e308 have the mean
// 1.7e308 (their sum overflowed, and the point was refused as infinite), drawn
// inside the axes; replications whose error bar passes the largest float64 are
// refused, naming the field and the row (the err field's with --err).
func TestHugeValues(t *testing.T) {
	build := func(text string) (*Figure, error) {
		rows, err := ReadRows(strings.NewReader(text))
		require.NoError(t, err)
		return Build(rows, Options{X: "x", Y: "y"})
	}
	f, err := build("{\"x\": 1, \"y\": 1e308}\n{\"x\": 2, \"y\": -1e308}\n")
	require.NoError(t, err)
	var out bytes.Buffer
	err = Draw(&out, f, "svg", DefaultWidth, DefaultHeight)
	require.ErrorContains(t, err, "the y values run from -1e+308 to 1e+308, a range wider than the largest float64")

	f, err = build("{\"x\": 1, \"y\": 1.7e308}\n{\"x\": 1, \"y\": 1.7e308}\n{\"x\": 2, \"y\": 1.6e308}\n")
	require.NoError(t, err)
	require.Equal(t, 1.7e308, f.Series[0].Points[0].Y)
	require.Zero(t, f.Series[0].Points[0].Err)
	out.Reset()
	require.NoError(t, Draw(&out, f, "svg", DefaultWidth, DefaultHeight))
	doc := parseSVG(t, out.Bytes())
	xAxis, yAxis := doc.axes(t)
	colours := doc.seriesColours()
	require.Len(t, colours, 1)
	for c := range colours {
		gs := doc.glyphs(c)
		require.Len(t, gs, 2, "two points")
		for _, g := range gs {
			cx, cy := (g.x0+g.x1)/2, (g.y0+g.y1)/2
			require.True(t, cx >= xAxis.x0 && cx <= xAxis.x1 && cy >= yAxis.y0 && cy <= yAxis.y1,
				"glyph at (%.1f, %.1f) outside the axes", cx, cy)
		}
	}

	_, err = build("{\"x\": 1, \"y\": 1.7e308}\n{\"x\": 1, \"y\": 1.6e308}\n")
	require.ErrorContains(t, err, `line 1: field "y": the error bar of the 2 rows at x = 1 passes the largest float64`)
	// with --err the bar is the err field's: the refusal names it (it named y)
	rows, err := ReadRows(strings.NewReader("{\"x\": 1, \"y\": 1e308, \"e\": 1.7e308}\n{\"x\": 1, \"y\": 1e308, \"e\": 1.7e308}\n"))
	require.NoError(t, err)
	_, err = Build(rows, Options{X: "x", Y: "y", Err: "e"})
	require.ErrorContains(t, err, `line 1: field "e": the error bar of the 2 rows at x = 1 passes the largest float64`)
}
