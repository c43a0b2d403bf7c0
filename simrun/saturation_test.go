package simrun

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// The bisection ends with an interval no wider than the tolerance whose bottom is
// a stable load and whose top a saturated one (each rerun alone to check), with
// the probes the schedule says (4, then 3 a round); the throughput mode's
// figure is the accepted load of a run offered the most; and the result does not
// depend on the number of workers.
func TestSaturate(t *testing.T) {
	var runs []Run
	for _, rt := range []string{"dor", "westfirst"} {
		r := Default()
		for k, v := range map[string]string{"topology": "mesh:4x4", "routing": rt, "vcs": "2", "flits": "4", "max-cycles": "4000", "min-cycles": "3000"} {
			require.NoError(t, r.Set(k, v))
		}
		runs = append(runs, r)
	}
	one, err := Saturate(context.Background(), runs, SatOptions{Tolerance: 0.05, Workers: 1})
	require.NoError(t, err)
	two, err := Saturate(context.Background(), runs, SatOptions{Tolerance: 0.05, Workers: 2})
	require.NoError(t, err)
	require.Equal(t, one, two)
	for i, s := range one {
		require.True(t, s.Done)
		require.NotNil(t, s.Hi)
		require.LessOrEqual(t, *s.Hi-s.Lo, 0.05+1e-9)
		require.Equal(t, 4+3*roundsFor(0.25, 0.05), s.Probes)
		at := func(x float64) (sat bool, acc float64) {
			r := runs[i]
			r.Rate = x
			res, err := RunOne(context.Background(), r, nil)
			require.NoError(t, err)
			return res.Saturated, res.Accepted
		}
		sat, acc := at(s.Lo)
		require.False(t, sat, "stable at %g", s.Lo)
		require.Equal(t, s.AcceptedLo, acc)
		sat, _ = at(*s.Hi)
		require.True(t, sat, "saturated at %g", *s.Hi)
		sat, acc = at(1)
		require.True(t, sat)
		require.Equal(t, s.Throughput, acc)
		require.Greater(t, s.Lo, 0.3)
	}
}

// A configuration still stable at the most its process can offer has no top.
func TestSaturateNeverSaturated(t *testing.T) {
	r := Default()
	for k, v := range map[string]string{"topology": "mesh:4x4", "vcs": "2", "flits": "1", "process": "onoff", "burst-alpha": "0.02", "burst-beta": "0.5", "max-cycles": "4000", "min-cycles": "4000"} {
		require.NoError(t, r.Set(k, v))
	}
	require.InDelta(t, 0.02/0.52, r.Upper(), 1e-12)
	s, err := Saturate(context.Background(), []Run{r}, SatOptions{})
	require.NoError(t, err)
	require.Nil(t, s[0].Hi)
	require.Equal(t, r.Upper(), s[0].Lo)
	require.Equal(t, 4, s[0].Probes)
}
