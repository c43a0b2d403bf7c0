package draw_test

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/draw"
	"github.com/wormlab/wormlab/model"
)

func renderOpt(t *testing.T, in *model.Instance, s *model.Schedule, opt draw.Options) ([]element, *draw.Drawn) {
	t.Helper()
	var b bytes.Buffer
	dr, err := draw.Render(&b, in, s, opt)
	require.NoError(t, err)
	return parse(t, b.Bytes()), dr
}

// A chain of n worms over one edge, each 1 flit, crossing at times 1..n in
// instance order.
func chain(t *testing.T, n int) (*model.Instance, *model.Schedule) {
	return chainOrder(t, n, func(i int) int { return i })
}

// chainOrder is chain with worm i crossing at time pos(i) + 1.
func chainOrder(t *testing.T, n int, pos func(int) int) (*model.Instance, *model.Schedule) {
	var msgs, times []string
	for i := 0; i < n; i++ {
		msgs = append(msgs, fmt.Sprintf(`{"id":"w%d","path":["a","b"]}`, i))
		times = append(times, fmt.Sprintf(`{"id":"w%d","cross":[%d]}`, i, pos(i)+1))
	}
	in, err := model.ParseInstance([]byte(`{"network":{"edges":[["a","b"]]},"messages":[` + strings.Join(msgs, ",") + `]}`))
	require.NoError(t, err)
	s, err := model.ParseSchedule([]byte(`{"model":"wormhole","makespan":` + strconv.Itoa(n) + `,"messages":[` + strings.Join(times, ",") + `]}`))
	require.NoError(t, err)
	return in, s
}

// Beyond MaxBars the first messages that fit are drawn, and the picture and the
// result say what was left out.
func TestMaxBarsLeavesOutAndSays(t *testing.T) {
	in, s := chain(t, 50)
	els, dr := renderOpt(t, in, s, draw.Options{MaxBars: 10})
	require.Len(t, withClass(els, "bar"), 10)
	require.Equal(t, draw.Drawn{Bars: 10, BarsTotal: 50, Messages: 10, MessagesTotal: 50,
		LeftOut: `drew 10 of 50 bars: the first 10 of 50 messages (to "w9"); 40 messages left out (cap 10 bars; select with --messages, --edges, --time)`}, *dr)
	found := false
	for _, el := range withClass(els, "notes") {
		found = found || strings.Contains(el.text, "40 messages left out")
	}
	for _, el := range els {
		found = found || el.name == "text" && strings.Contains(el.text, "40 messages left out")
	}
	require.True(t, found, "no note in the picture")
	_, dr = renderOpt(t, in, s, draw.Options{})
	require.Empty(t, dr.LeftOut)
}

// Selecting messages, edges and a time window draws only those, clipped.
func TestSelection(t *testing.T) {
	in, s := example(t)
	els, dr := renderOpt(t, in, s, draw.Options{Messages: map[int]bool{0: true, 2: true}})
	for _, b := range withClass(els, "bar") {
		require.NotEqual(t, "m1", b.attr["data-msg"])
	}
	require.Equal(t, 2, dr.Messages)
	els, _ = renderOpt(t, in, s, draw.Options{Edges: map[int]bool{0: true}})
	for _, b := range withClass(els, "bar") {
		require.Equal(t, "0", b.attr["data-edge"])
	}
	// m1 holds b->c at 4..6; the window 5:6 clips it to 5..6 and drops m0 (1..3).
	els, _ = renderOpt(t, in, s, draw.Options{From: 5, To: 6})
	var m1 []string
	for _, b := range withClass(els, "bar") {
		require.NotEqual(t, "m0", b.attr["data-msg"])
		if b.attr["data-msg"] == "m1" {
			m1 = append(m1, strings.TrimSpace(b.text))
		}
	}
	require.Equal(t, []string{"m1 on b->c: times 5..6"}, m1)
	_, err := draw.Render(&bytes.Buffer{}, in, s, draw.Options{From: 6, To: 5})
	require.Error(t, err)
}

// The time axis is drawn above the rows as below them: every step label appears
// twice.
func TestAxisTopAndBottom(t *testing.T) {
	in, s := example(t)
	els := render(t, in, s)
	count := map[string]int{}
	top := 0
	for _, el := range els {
		if el.name == "text" && len(el.inside) > 0 && el.inside[len(el.inside)-1] == "axis" {
			count[el.text]++
		}
		if el.attr["class"] == "top" {
			top++
		}
	}
	for t0 := 1; t0 <= 8; t0++ {
		require.Equal(t, 2, count[strconv.Itoa(t0)], "label %d", t0)
	}
	require.Equal(t, 8, top)
}

// A waiting head is hatched: m0 of MODEL.md's example crossing a->b at 1 and b->c
// at 4 waits in steps 2..3, on both edges it holds then; a worm that never waits
// has no hatch.
func TestWaitingIsHatched(t *testing.T) {
	in, _ := example(t)
	s, err := model.ParseSchedule([]byte(`{"model":"wormhole","makespan":9,"messages":[
	  {"id":"m0","cross":[1,4]},{"id":"m1","cross":[6]},{"id":"m2","start":7,"cross":[8,9]}]}`))
	require.NoError(t, err)
	els := render(t, in, s)
	var waits []string
	for _, w := range withClass(els, "wait") {
		waits = append(waits, w.attr["data-msg"]+": "+strings.TrimSpace(w.text))
	}
	require.Equal(t, []string{"m0: m0 waits: times 2..3"}, waits)
}

// rgbDist is the largest channel difference of two #rrggbb colours.
func rgbDist(a, b string) int {
	d := 0
	for k := 1; k < 7; k += 2 {
		x, _ := strconv.ParseUint(a[k:k+2], 16, 8)
		y, _ := strconv.ParseUint(b[k:k+2], 16, 8)
		d = max(d, int(x)-int(y), int(y)-int(x))
	}
	return d
}

// minVisible is the channel difference below which two fills read as one colour.
const minVisible = 30

// Bars that meet in a row get clearly different colours, whatever their message
// indices: 63 worms through one edge in the order w0, w21, w42, w1, w22, ...
// (colours by index with the golden angle made w0, w21 and w42 almost the same,
// m7/m28/m49 purple in the issue: hsl(0) against hsl(7.7 degrees) at one
// lightness differ by less than minVisible).
func TestNeighboursDiffer(t *testing.T) {
	n := 63
	in, s := chainOrder(t, n, func(i int) int { return (i%21)*3 + i/21 })
	els := render(t, in, s)
	bars := withClass(els, "bar")
	require.Len(t, bars, n)
	byTime := map[string]string{}
	for _, b := range bars {
		byTime[strings.TrimSpace(b.text)] = b.attr["fill"]
	}
	var fills []string
	for tm := 1; tm <= n; tm++ {
		for _, b := range bars {
			if strings.HasSuffix(strings.TrimSpace(b.text), fmt.Sprintf("times %d..%d", tm, tm)) {
				fills = append(fills, b.attr["fill"])
			}
		}
	}
	require.Len(t, fills, n)
	for k := 1; k < n; k++ {
		require.GreaterOrEqual(t, rgbDist(fills[k-1], fills[k]), minVisible, "steps %d and %d: %s, %s", k, k+1, fills[k-1], fills[k])
	}
}

// Conflict marks never cross out a label: every label lies outside the marked
// cells of its row.
func TestMarksOffLabels(t *testing.T) {
	in, _ := example(t)
	s, err := model.ParseSchedule([]byte(`{"model":"wormhole","makespan":9,"messages":[
	  {"id":"m0","cross":[1,4]},{"id":"m1","cross":[3]},{"id":"m2","cross":[5,8]}]}`))
	require.NoError(t, err)
	els := render(t, in, s)
	marks := withClass(els, "mark")
	require.NotEmpty(t, marks)
	var cells [][4]float64
	for _, el := range els {
		if el.name == "line" && len(el.inside) > 0 && el.inside[len(el.inside)-1] == "mark" {
			x1, _ := strconv.ParseFloat(el.attr["x1"], 64)
			x2, _ := strconv.ParseFloat(el.attr["x2"], 64)
			y1, _ := strconv.ParseFloat(el.attr["y1"], 64)
			y2, _ := strconv.ParseFloat(el.attr["y2"], 64)
			cells = append(cells, [4]float64{min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)})
		}
	}
	labels := 0
	for _, el := range els {
		if el.name != "text" || len(el.inside) == 0 || el.inside[len(el.inside)-1] != "labels" {
			continue
		}
		labels++
		x, _ := strconv.ParseFloat(el.attr["x"], 64)
		y, _ := strconv.ParseFloat(el.attr["y"], 64)
		half := float64(len(el.text)) * 7.2 / 2
		for _, c := range cells {
			inRow := y-4 >= c[2] && y-4 <= c[3]
			require.False(t, inRow && x+half > c[0] && x-half < c[1], "label %q at %.1f crosses a mark at %.1f..%.1f", el.text, x, c[0], c[1])
		}
	}
	require.Positive(t, labels)
}
