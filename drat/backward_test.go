package drat

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

func checkBackward(t testing.TB, f *CNF, p *Proof) *Result {
	t.Helper()
	r, err := CheckBackward(context.Background(), f, p)
	require.NoError(t, err)
	return r
}

// satisfiable decides a formula on at most 20 variables by trying every assignment.
func satisfiable(f *CNF) bool {
	for a := 0; a < 1<<f.Vars; a++ {
		ok := true
		for _, c := range f.Clauses {
			sat := false
			for _, l := range c {
				v := l
				if v < 0 {
					v = -v
				}
				if (a>>(v-1)&1 == 1) == (l > 0) {
					sat = true
					break
				}
			}
			if !sat {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// naiveImpliedAt replays steps 0..i-1 without checking (as CheckBackward's forward
// pass does) and says whether lemma i is RUP or RAT there.
func naiveImpliedAt(f *CNF, p *Proof, i int) bool {
	n := &naive{}
	for _, c := range f.Clauses {
		n.db = append(n.db, dedupe(c))
	}
	for k := 0; k < i; k++ {
		s := p.Step(k)
		if !s.Delete {
			n.db = append(n.db, dedupe(s.Clause))
			continue
		}
		n.remove(s.Clause)
	}
	return n.implied(dedupe(p.Step(i).Clause))
}

// Properties of backward checking, on random small formulas and proofs:
//   - soundness: a proof it verifies refutes the formula (brute force finds no
//     model), and so for forward checking;
//   - it accepts every proof forward checking accepts;
//   - a lemma it reports is indeed neither RUP nor RAT against the database of
//     its step (naive reference checker).
func TestBackwardProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, p := randomCase(t, 14, 16)
		fw, err := Check(context.Background(), f, p)
		if err != nil {
			t.Fatal(err)
		}
		bw, err := CheckBackward(context.Background(), f, p)
		if err != nil {
			t.Fatal(err)
		}
		sat := satisfiable(f)
		if (fw.Verified || bw.Verified) && sat {
			t.Fatalf("satisfiable formula verified: forward %v backward %v", fw.Verified, bw.Verified)
		}
		if fw.Verified && !bw.Verified {
			t.Fatalf("forward verifies, backward fails: %v", bw.Failure)
		}
		if bw.Failure != nil && bw.Failure.Lemma > 0 && naiveImpliedAt(f, p, bw.Failure.Step-1) {
			t.Fatalf("backward reports %v, but it is implied", bw.Failure)
		}
		if fw.Verified != bw.Verified && bw.Stats.Skipped == 0 {
			t.Fatalf("verdicts differ with no lemma skipped")
		}
	})
}

func TestBackwardPigeonhole(t *testing.T) {
	for n := 2; n <= 6; n++ {
		f := pigeonhole(n)
		data, _ := gophersatProof(t, f)
		p := mustParse(t, data)
		for _, q := range []*Proof{p, toBinary(t, p)} {
			r := checkBackward(t, f, q)
			require.True(t, r.Verified, "n=%d: %v", n, r.Failure)
			assert.Equal(t, r.Stats.Lemmas+r.Stats.Skipped, r.Stats.RefutedAt, "every lemma up to the conflict is checked or skipped")
		}
		// Soundness on a mismatched proof: PHP without a pigeon is satisfiable.
		g := &CNF{Vars: f.Vars, Clauses: f.Clauses[1:]}
		assert.False(t, checkBackward(t, g, p).Verified)
	}
}

func TestBackwardCadical(t *testing.T) {
	for n := 3; n <= 7; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			f := pigeonhole(n)
			p := mustParse(t, cadicalProof(t, f, true))
			r := checkBackward(t, f, p)
			require.True(t, r.Verified, "%v", r.Failure)
			fw := check(t, f, p)
			require.True(t, fw.Verified)
			assert.LessOrEqual(t, r.Stats.Lemmas, fw.Stats.Lemmas)
		})
	}
}

// A needed lemma that is not implied is reported; an unneeded one is skipped.
func TestBackwardFailure(t *testing.T) {
	f := &CNF{Vars: 4, Clauses: [][]int{{1, 2}, {1, -2}, {-1, 2}, {-1, -2}}}
	p := &Proof{Format: Text}
	p.Add(false, 3)     // RAT on a fresh variable
	p.Add(false, -3, 4) // neither RUP nor RAT (the resolvent (4) is not RUP), not needed
	p.Add(false, 1)     // RUP, and unit propagation then conflicts
	r := checkBackward(t, f, p)
	require.True(t, r.Verified, "%v", r.Failure)
	assert.Equal(t, 2, r.Stats.Skipped)
	assert.Equal(t, 1, r.Stats.Lemmas)
	fw := check(t, f, p)
	require.False(t, fw.Verified)
	assert.Equal(t, 2, fw.Failure.Lemma)

	g := &CNF{Vars: 3, Clauses: [][]int{{1, 2, 3}, {-1, 2}, {-2, 3}}} // satisfiable
	q := &Proof{Format: Text}
	q.Add(false, 3)  // RUP: -3 gives -2, -1, then (1 2 3) false
	q.Add(false, -3) // not implied, and needed for the empty clause
	q.Add(false)
	r = checkBackward(t, g, q)
	require.False(t, r.Verified)
	require.NotNil(t, r.Failure)
	assert.Equal(t, 2, r.Failure.Lemma)
}
