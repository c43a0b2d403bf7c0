package lower_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docs/experiments.md's paragraph on Ranade's butterfly problems quotes the study's
// figures (experiments/lower-butterfly/results.jsonl): the phase bound chi L + log N
// - 1 equals the best bound and the optimum on every problem, the form through the
// independence number ties it where the doc says and every "A against B at N = n
// load" pair is that form against the phase bound.
func TestExperimentsDocButterfly(t *testing.T) {
	f, err := os.Open("../experiments/lower-butterfly/results.jsonl")
	require.NoError(t, err)
	defer f.Close()
	type row struct{ BoundAlpha, BoundChi, Best, Optimum int }
	rows := map[string]row{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec struct {
			Params struct {
				N    int    `json:"n"`
				Load string `json:"load"`
			} `json:"params"`
			Values struct{ Rows []row } `json:"values"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		require.Len(t, rec.Values.Rows, 1)
		r := rec.Values.Rows[0]
		require.Equal(t, r.BoundChi, r.Best, "N=%d %s", rec.Params.N, rec.Params.Load)
		require.Equal(t, r.BoundChi, r.Optimum, "N=%d %s", rec.Params.N, rec.Params.Load)
		rows[fmt.Sprintf("%d %s", rec.Params.N, rec.Params.Load)] = r
	}
	require.NoError(t, sc.Err())
	require.Len(t, rows, 8)
	ties := map[string]bool{"8 light": true, "16 light": true, "8 heavy": true}
	for k, r := range rows {
		require.Equal(t, ties[k], r.BoundAlpha == r.BoundChi, "%s: ceil(M/alpha) form %d, chi form %d", k, r.BoundAlpha, r.BoundChi)
	}
	doc, err := os.ReadFile("../docs/experiments.md")
	require.NoError(t, err)
	text := strings.Join(strings.Fields(string(doc)), " ")
	pairs := regexp.MustCompile(`(\d+) against (\d+) at N = (\d+) (light|heavy)`).FindAllStringSubmatch(text, -1)
	require.NotEmpty(t, pairs)
	for _, p := range pairs {
		r, ok := rows[p[3]+" "+p[4]]
		require.True(t, ok, p[0])
		a, _ := strconv.Atoi(p[1])
		b, _ := strconv.Atoi(p[2])
		require.Equal(t, []int{r.BoundAlpha, r.BoundChi}, []int{a, b}, "docs/experiments.md: %q", p[0])
	}
}
