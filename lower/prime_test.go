package lower

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/model"
	"github.com/wormlab/wormlab/verify"
)

func claimMap(cs []Claim) map[string]Claim {
	m := map[string]Claim{}
	for _, c := range cs {
		m[c.Claim] = c
	}
	return m
}

func TestPrimeRejects(t *testing.T) {
	for _, tc := range []struct{ p, L int }{{4, 9}, {1, 3}, {0, 5}, {9, 19}, {3, 6}, {2, 4}} {
		_, err := Prime(tc.p, tc.L, false)
		assert.Error(t, err, "p=%d L=%d", tc.p, tc.L)
	}
}

// Seed 002, section 5, as stated: the counts hold, the pairwise collision fails for
// p * C(p,2) pairs, and the p^2 L bound is refuted by a verified schedule.
func TestPrimePaperClaims(t *testing.T) {
	for _, p := range []int{2, 3, 5, 7} {
		L := 2*p + 1
		in, err := Prime(p, L, false)
		require.NoError(t, err)
		require.NoError(t, in.Validate())
		cs := claimMap(PrimeClaims(in, p, L))
		for _, name := range []string{"levelled network", "worms", "message congestion", "flit congestion", "dilation", "L >= d"} {
			assert.True(t, cs[name].Holds, "p=%d %s: %s", p, name, cs[name].Detail)
		}
		pair := cs["every pair of paths shares an edge"]
		assert.False(t, pair.Holds)
		assert.Equal(t, p*p*(p-1)/2, pair.Value, "p=%d", p)
		mk := cs["makespan >= p^2 L"]
		assert.False(t, mk.Holds)
		// the colouring bound proves the optimum is exactly c_L + d - 1 = pL + 2p - 1.
		assert.Equal(t, p*L+2*p-1, mk.Value, "p=%d: %s", p, mk.Detail)
		assert.Contains(t, mk.Detail, "refuted")
	}
}

// The repaired construction: every claim holds, and the proven bound is p^2 L + 2p.
func TestPrimeRepairedClaims(t *testing.T) {
	for _, p := range []int{2, 3, 5, 7} {
		for _, L := range []int{2*p + 1, 3 * p} {
			in, err := Prime(p, L, true)
			require.NoError(t, err)
			require.NoError(t, in.Validate())
			for _, c := range PrimeClaims(in, p, L) {
				assert.True(t, c.Holds, "p=%d L=%d %s: %v %s", p, L, c.Claim, c.Value, c.Detail)
			}
			assert.Equal(t, p*p*L+2*p, Best(in).Value)
			// and sending the worms one by one attains it.
			col := make([]int, p*p)
			for i := range col {
				col[i] = i
			}
			s, err := PhaseSchedule(in, col)
			require.NoError(t, err)
			require.NoError(t, verify.Schedule(in, s), "p=%d L=%d: the phase schedule", p, L)
			assert.Equal(t, p*p*L+2*p, s.Makespan)
		}
	}
}

// Lengths near the model's limit: Prime refuses an L whose p^2 worms' lengths sum
// past model.MaxTotalFlits (it built them unchecked, and c_L = p L wrapped), and
// the Omega(cd) claim 3 best >= c_L d is decided without overflow. On the
// repaired p = 3 with L = 4 * 10^17 (lengths 3.6 * 10^18, within the limit) the
// bound p^2 L + 2p is 0.4286 c_L d, so the claim holds; 3 best passed 2^63 and
// wrapped negative, so it was reported failing (and near the limit c_L d wrapped
// too, printing a negative ratio).
func TestPrimeHugeL(t *testing.T) {
	_, err := Prime(31, model.MaxTotalFlits/961+1, false)
	require.Error(t, err)
	_, err = Prime(3, model.MaxTotalFlits/9+1, true)
	require.Error(t, err)
	for _, L := range []int{400_000_000_000_000_000, model.MaxTotalFlits / 9} {
		in, err := Prime(3, L, true)
		require.NoError(t, err)
		require.NoError(t, in.Validate())
		for _, c := range PrimeClaims(in, 3, L) {
			assert.True(t, c.Holds, "L=%d %s: %v %s", L, c.Claim, c.Value, c.Detail)
			if c.Claim == "Omega(cd): bound >= c_L d / 3" {
				assert.Equal(t, "0.4286", c.Value, "L=%d", L)
			}
		}
	}
}
