package figure

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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

// endsAfterFirstLook is a context that ends once it has been looked at once.
type endsAfterFirstLook struct {
	context.Context
	looks int
}

func (c *endsAfterFirstLook) Err() error {
	if c.looks++; c.looks > 1 {
		return context.Canceled
	}
	return nil
}

// ReadRowsContext stops when its context ends (wormlab plot's Ctrl-C): on 10,000
// rows with a context that ends after the look before reading, it returns the
// context's error and the rows before its next look (4,095), in JSON Lines and in
// CSV alike; a cancelled context reads no row.
func TestReadRowsContextStops(t *testing.T) {
	var js, cs strings.Builder
	cs.WriteString("rate,latency\n")
	for i := range 10000 {
		fmt.Fprintf(&js, "{\"rate\": %d, \"latency\": 1}\n", i)
		fmt.Fprintf(&cs, "%d,1\n", i)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, in := range []string{js.String(), cs.String()} {
		if rows, err := ReadRowsContext(cancelled, strings.NewReader(in)); !errors.Is(err, context.Canceled) || len(rows) != 0 {
			t.Fatalf("cancelled: %d rows, %v", len(rows), err)
		}
		rows, err := ReadRowsContext(&endsAfterFirstLook{Context: context.Background()}, strings.NewReader(in))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
		if len(rows) != 4095 {
			t.Fatalf("%d rows before the first look, want 4095", len(rows))
		}
		all, err := ReadRowsContext(context.Background(), strings.NewReader(in))
		if err != nil || len(all) != 10000 {
			t.Fatalf("uncancelled: %d rows, %v", len(all), err)
		}
	}
}
