package sim_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docs/booksim.md's crossbar rows are those of the committed run of
// scripts/booksim-compare.sh crossbar (docs/booksim/crossbar.csv, OUT=docs/booksim):
// BookSim2's one 10x10 crossbar against wormlab's --config run of the same file
// with its default switch input stage and VC selection, --select rotate,
// --switch-input output and both. The test formats each row and the page's
// summary of the loads run from the file and checks the page quotes them, and
// checks the claim the page makes of them: with --switch-input output wormlab's
// latency is within 5% of BookSim2's at every load and seed, with its default not
// at the highest load.
func TestCrossbarDocFigures(t *testing.T) {
	data, err := os.ReadFile("../docs/booksim.md")
	require.NoError(t, err)
	doc := string(data)
	flat := strings.Join(strings.Fields(doc), " ")
	rows := readCSV(t, "../docs/booksim/crossbar.csv")
	cols := []string{"vc", "rotate", "output", "rotate_output"}
	type sums struct {
		n int
		v map[string]float64
	}
	byRate := map[string]*sums{}
	var rates []string
	top := ""
	for _, r := range rows {
		b := num(t, r, "booksim")
		line := fmt.Sprintf("| %s | %s | %.2f |", r["rate"], r["seed"], b)
		s := byRate[r["rate"]]
		if s == nil {
			s = &sums{v: map[string]float64{}}
			byRate[r["rate"]] = s
			rates = append(rates, r["rate"])
		}
		s.n++
		s.v["booksim"] += b
		for _, c := range cols {
			x := num(t, r, c)
			d := 100 * (x - b) / b
			line += fmt.Sprintf(" %.2f (%+.1f%%) |", x, d)
			s.v[c] += x
			if c == "output" || c == "rotate_output" {
				require.Less(t, d, 5.0, "crossbar.csv at %s seed %s: %s's latency within 5%% of BookSim2's", r["rate"], r["seed"], c)
				require.Greater(t, d, -5.0, "crossbar.csv at %s seed %s: %s's latency within 5%% of BookSim2's", r["rate"], r["seed"], c)
			}
		}
		line += " " + r["load"] + " |"
		require.True(t, strings.Contains(doc, line), "docs/booksim.md should quote the committed crossbar run:\n%s", line)
		top = r["rate"]
	}
	for _, rate := range rates {
		s := byRate[rate]
		m := func(c string) float64 { return s.v[c] / float64(s.n) }
		want := fmt.Sprintf("at %s BookSim2 %.2f cycles, wormlab %.2f with its defaults, %.2f with `--select rotate`, %.2f with `--switch-input output` and %.2f with both",
			rate, m("booksim"), m("vc"), m("rotate"), m("output"), m("rotate_output"))
		require.True(t, strings.Contains(flat, want), "docs/booksim.md should say:\n%s", want)
		if rate == top {
			require.Greater(t, 100*(m("vc")-m("booksim"))/m("booksim"), 5.0, "the page says wormlab's default is not within 5%% at %s", rate)
		}
	}
}
