package optimal

import (
	"reflect"
	"testing"

	"github.com/go-air/gini"
	"github.com/stretchr/testify/require"
	"github.com/wormlab/wormlab/internal/fixture"
)

// decayMax reads gini v1.0.4's internal decision-heuristic setting
// xo.S.Guess.decayMax by reflection (gini exports no statistics); ok is false when
// the layout differs (another gini version).
func decayMax(g *gini.Gini) (v float64, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	x := reflect.ValueOf(g).Elem().FieldByName("xo").Elem().FieldByName("Guess").Elem().FieldByName("decayMax")
	if !x.IsValid() || x.Kind() != reflect.Float64 {
		return 0, false
	}
	return x.Float(), true
}

// The lower-bound probe must run on a solver whose decision heuristic works. gini
// v1.0.4's Copy leaves decayMax (and decayMin, decayMaxMax, decayMaxDecay) at zero,
// so after one solve bumpDecay is 0 and bumpInc +Inf: activity stops guiding the
// search. load builds a fresh solver with the settings intact. If a later gini
// fixes Copy, the second assertion fails and solve.go's comment should be revisited
// (the fresh solver stays correct either way).
func TestCopyLosesDecay(t *testing.T) {
	in, _ := fixture.Example(t)
	f, err := Encode(in, "bufferless", 7)
	require.NoError(t, err)
	fresh := load(f, nil)
	v, ok := decayMax(fresh)
	if !ok {
		t.Skip("gini's internal layout differs from v1.0.4")
	}
	require.Greater(t, v, 0.0, "a fresh solver has its decay settings")
	c, _ := decayMax(fresh.Copy())
	require.Zero(t, c, "gini v1.0.4's Copy drops decayMax")
}
