package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/internal/fixture"
	"github.com/wormlab/wormlab/lower/objective"
	"github.com/wormlab/wormlab/model"
)

// The corpus instances/hard: every entry re-checked from its files (instance,
// measures, certificate, the other side of its ratio), and the README's index is
// the one the entries give.
func TestHardCorpus(t *testing.T) {
	const dir = "../../../instances/hard"
	es, err := Load(dir)
	require.NoError(t, err)
	require.NoError(t, CheckIndex(dir))
	doc, err := os.ReadFile("../../../docs/adversary.md")
	require.NoError(t, err)
	for _, e := range es {
		t.Run(e.Name, func(t *testing.T) {
			require.NoError(t, Check(context.Background(), dir, e))
			require.Contains(t, string(doc), docRow(e), "docs/adversary.md's table of the corpus lacks this entry's row")
		})
	}
}

// docRow is an entry's row in docs/adversary.md's table of the corpus.
func docRow(e Entry) string {
	lengths := fmt.Sprint(e.LMin)
	if e.LMax != e.LMin {
		lengths = fmt.Sprintf("%d-%d", e.LMin, e.LMax)
	}
	return fmt.Sprintf("| %s | %s | %s | %d/%d = %.4f | %d | %d | %d | %s | %s | [%s](../instances/hard/%[12]s) |", e.Family, e.Size, e.Objective,
		e.Num.V, e.Den.V, e.Ratio, e.Worms, e.C, e.D, lengths, e.Proof, e.Name)
}

// Check and CheckIndex fail on an entry whose files disagree with its index row:
// a changed ratio, a changed measure, an edited schedule, an edited table.
func TestCheckCatchesTampering(t *testing.T) {
	dir := t.TempDir()
	in, _ := fixture.Example(t)
	r, err := objective.Lookup("opt/cd", model.Wormhole, 10*time.Second)
	require.NoError(t, err)
	sc, err := r.Score(context.Background(), in, 0)
	require.NoError(t, err)
	ms := in.Measure()
	e := Entry{Family: "example", Size: "3 worms", Objective: "opt/cd", Model: model.Wormhole, Ratio: sc.Ratio(),
		Num: sc.Num, Den: sc.Den, Proof: sc.Opt.Source, Worms: 3, C: ms.C, CL: ms.CL, D: ms.D, LMin: 2, LMax: 3, Command: "test"}
	_, added, err := Offer(context.Background(), dir, e, in, sc.Opt)
	require.NoError(t, err)
	require.True(t, added)
	es, err := Load(dir)
	require.NoError(t, err)
	require.Len(t, es, 1)
	require.NoError(t, Check(context.Background(), dir, es[0]))
	require.NoError(t, CheckIndex(dir))

	bad := es[0]
	bad.Num.V++
	require.ErrorContains(t, Check(context.Background(), dir, bad), "the ratio is")
	bad = es[0]
	bad.C++
	require.ErrorContains(t, Check(context.Background(), dir, bad), "the index says")

	readme := filepath.Join(dir, IndexFile)
	data, err := os.ReadFile(readme)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(readme, []byte(strings.Replace(string(data), "| example |", "| sample |", 1)), 0o644))
	require.Error(t, CheckIndex(dir))

	sched := filepath.Join(dir, es[0].Name, "schedule.json")
	data, err = os.ReadFile(sched)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(sched, []byte(strings.Replace(string(data), `"makespan": 7`, `"makespan": 6`, 1)), 0o644))
	require.Error(t, Check(context.Background(), dir, es[0]))

	// A result that does not beat the entry is not added; one that does replaces it.
	worse := e
	worse.Num.V--
	_, added, err = Offer(context.Background(), dir, worse, in, sc.Opt)
	require.NoError(t, err)
	require.False(t, added)
}
