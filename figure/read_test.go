package figure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// CSV as wormlab sim --csv writes it: a header, empty cells for a saturated
// point's latency (null), numbers kept as their text, a quoted size mix a string.
func TestReadCSV(t *testing.T) {
	rows := rowsOf(t, `topology,routing,flits,offered,latency,saturated,reason
mesh:8x8,dor,"1,16",0.1,25.5,false,
mesh:8x8,dor,"1,16",0.5,,true,"accepted 0.4 behind generated 0.5"
`)
	require.Len(t, rows, 2)
	require.Equal(t, 3, rows[1].Line)
	require.Equal(t, json.Number("0.1"), rows[0].Fields["offered"])
	require.Equal(t, "1,16", rows[0].Fields["flits"])
	require.Nil(t, rows[1].Fields["latency"])
	require.Equal(t, true, rows[1].Fields["saturated"])
	require.Equal(t, "mesh:8x8", rows[0].Fields["topology"])

	for text, msg := range map[string]string{
		"a,b\n1,2,3\n":  "line 2: not CSV: wrong number of fields",
		"a,a\n1,2\n":    `line 1: CSV header: column "a" appears twice`,
		"a,b\n":         "line 1: no CSV rows after the header",
		"a,\"b\n1,2\n":  "not CSV",
		",b\n1,2\n":     "line 1: CSV header: column 1 has no name",
		" {\"a\":1}\n{": "line 2: not JSON",
	} {
		_, err := ReadRows(strings.NewReader(text))
		require.ErrorContains(t, err, msg, "%q", text)
	}
}

// A null y (a saturated point) is left out and counted, naming the field and the
// first line; with ShowNull it is a mark at its x in its series. An all-null y is
// an error that says so.
func TestBuildNulls(t *testing.T) {
	rows := rowsOf(t, `{"offered":0.1,"routing":"dor","latency":20}
{"offered":0.2,"routing":"dor","latency":25}
{"offered":0.3,"routing":"dor","latency":null}
{"offered":0.4,"routing":"dor","latency":null}
{"offered":0.1,"routing":"xy2","latency":21}`)
	f, err := Build(rows, Options{X: "offered", Y: "latency", Series: "routing"})
	require.NoError(t, err)
	require.Equal(t, []string{`2 row(s) with "latency" null (first on line 3; a saturated point has no latency: --show-saturated marks them)`}, f.Skipped)
	require.Empty(t, f.Series[0].Marks)
	require.Equal(t, "offered load (flits/node/cycle)", f.XLabel)
	require.Equal(t, "latency (cycles)", f.YLabel)

	f, err = Build(rows, Options{X: "offered", Y: "latency", Series: "routing", ShowNull: true})
	require.NoError(t, err)
	require.Empty(t, f.Skipped)
	require.Equal(t, []float64{0.3, 0.4}, f.Series[0].Marks)
	require.Len(t, f.Series[0].Points, 2)
	var out bytes.Buffer
	require.NoError(t, Draw(&out, f, "svg", DefaultWidth, DefaultHeight))
	doc := parseSVG(t, out.Bytes())
	found := false
	for _, tx := range doc.texts {
		found = found || tx.text == "saturated (no latency)"
	}
	require.True(t, found, "the legend names the marks")

	_, err = Build(rowsOf(t, `{"offered":0.3,"latency":null}`), Options{X: "offered", Y: "latency"})
	require.EqualError(t, err, `field "latency": null in every row (1; --show-saturated marks them)`)
}

// Reading is linear in the input: issue 26's 50,000 rows took 12 s when every
// row's line number was counted from the start.
func BenchmarkReadRows50k(b *testing.B) {
	var in bytes.Buffer
	for i := range 50000 {
		fmt.Fprintf(&in, `{"offered":%g,"routing":"dor","latency":%d,"saturated":false}`+"\n", float64(i%20)/20, i)
	}
	data := in.Bytes()
	for b.Loop() {
		rows, err := ReadRows(bytes.NewReader(data))
		if err != nil || len(rows) != 50000 {
			b.Fatal(err)
		}
	}
}

// Line numbers stay right over many rows (counted incrementally).
func TestReadLineNumbers(t *testing.T) {
	var in strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&in, "{\"i\":%d,\n\"y\":1}\n", i)
	}
	rows := rowsOf(t, in.String())
	for i, r := range rows {
		require.Equal(t, 2*i+1, r.Line)
	}
	_, err := ReadRows(strings.NewReader(in.String() + "\n{\"i\": x}\n"))
	require.ErrorContains(t, err, "line 2002: not JSON")
}
