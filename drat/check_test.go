package drat

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// Pigeonhole formulas PHP(n+1, n) are unsatisfiable; gophersat's RUP proofs of them
// must verify, in text and in binary.
func TestPigeonholeGophersat(t *testing.T) {
	for n := 1; n <= 5; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			f := pigeonhole(n)
			data, unsat := gophersatProof(t, f)
			require.True(t, unsat)
			p := mustParse(t, data)
			r := check(t, f, p)
			require.True(t, r.Verified, "%v", r.Failure)
			assert.Nil(t, r.Failure)
			b := check(t, f, toBinary(t, p))
			assert.True(t, b.Verified)
			assert.Equal(t, r.Stats, b.Stats)
		})
	}
}

// cadical's DRAT proofs (binary by default, also text) verify; they contain
// deletions, which are honoured.
func TestPigeonholeCadical(t *testing.T) {
	for _, binary := range []bool{true, false} {
		for n := 3; n <= 6; n++ {
			t.Run(fmt.Sprint(n, binary), func(t *testing.T) {
				f := pigeonhole(n)
				p := mustParse(t, cadicalProof(t, f, binary))
				if binary {
					require.Equal(t, Binary, p.Format)
				} else {
					require.Equal(t, Text, p.Format)
				}
				r := check(t, f, p)
				require.True(t, r.Verified, "%v", r.Failure)
				if n >= 5 {
					assert.Positive(t, r.Stats.Deletions)
				}
			})
		}
	}
}

// A proof of a formula checked against the same formula with one clause removed
// must be rejected: PHP(n+1, n) without the clause "pigeon i sits somewhere" is
// satisfiable (leave pigeon i out), and no sound checker verifies a proof for a
// satisfiable formula.
func TestMismatchedProofRejected(t *testing.T) {
	f := pigeonhole(4)
	data, _ := gophersatProof(t, f)
	p := mustParse(t, data)
	for i := 0; i <= 4; i++ {
		g := &CNF{Vars: f.Vars}
		g.Clauses = append(g.Clauses, f.Clauses[:i]...)
		g.Clauses = append(g.Clauses, f.Clauses[i+1:]...)
		r := check(t, g, p)
		assert.False(t, r.Verified, "pigeon %d left out", i)
		require.NotNil(t, r.Failure)
		assert.Positive(t, r.Failure.Lemma)
	}
	// A proof for PHP(4,3) does not prove PHP(5,4).
	small, _ := gophersatProof(t, pigeonhole(3))
	r := check(t, pigeonhole(4), mustParse(t, small))
	assert.False(t, r.Verified)
}

// Cutting a proof just before the step that makes unit propagation conflict leaves
// an incomplete proof: every lemma holds but no conflict is reached.
func TestTruncatedProofRejected(t *testing.T) {
	f := pigeonhole(4)
	data, _ := gophersatProof(t, f)
	p := mustParse(t, data)
	full := check(t, f, p)
	require.True(t, full.Verified)
	require.Positive(t, full.Stats.RefutedAt)
	cut := &Proof{Format: p.Format, lits: p.lits, steps: p.steps[:full.Stats.RefutedAt-1]}
	r := check(t, f, cut)
	require.False(t, r.Verified)
	require.NotNil(t, r.Failure)
	assert.Zero(t, r.Failure.Lemma)
	assert.Contains(t, r.Failure.Error(), "without deriving the empty clause")
	// The same in binary, and cut in the middle of a step: malformed.
	var b bytes.Buffer
	require.NoError(t, cut.WriteBinary(&b))
	r = check(t, f, mustParse(t, b.Bytes()))
	assert.False(t, r.Verified)
	_, err := ParseProof(b.Bytes()[:b.Len()-1], Auto)
	assert.ErrorContains(t, err, "truncated")
	var txt bytes.Buffer
	require.NoError(t, cut.WriteText(&txt))
	_, err = ParseProof(txt.Bytes()[:txt.Len()-2], Auto)
	assert.ErrorContains(t, err, "truncated")
}

// Replacing the first lemma of a pigeonhole proof by the unit "pigeon 0 in hole 0",
// which is neither RUP nor RAT (the naive checker confirms it), fails at lemma 1,
// with the line (text) or byte offset (binary) of that step.
func TestCorruptedLemmaRejected(t *testing.T) {
	f := pigeonhole(4)
	data, _ := gophersatProof(t, f)
	p := mustParse(t, data)
	q := &Proof{Format: Text}
	q.Add(false, 1)
	for i := 1; i < p.Len(); i++ {
		s := p.Step(i)
		q.Add(s.Delete, s.Clause...)
	}
	ok, lemma, _ := naiveCheck(f, q)
	require.False(t, ok)
	require.Equal(t, 1, lemma)
	r := check(t, f, q)
	require.False(t, r.Verified)
	assert.Equal(t, 1, r.Failure.Lemma)
	assert.Equal(t, []int{1}, r.Failure.Clause)
	assert.Equal(t, "lemma 1 (step 1, line 1) is not implied by unit propagation, nor RAT on 1: 1 0", r.Failure.Error())
	rb := check(t, f, toBinary(t, q))
	assert.Equal(t, "lemma 1 (step 1, byte offset 0) is not implied by unit propagation, nor RAT on 1: 1 0", rb.Failure.Error())
}

// Flipping one literal of a lemma in the middle of a real proof: the checker fails
// exactly where the naive reference checker says the first non-implied lemma is.
func TestFlippedLiteralMidProof(t *testing.T) {
	f := pigeonhole(4)
	data, _ := gophersatProof(t, f)
	p := mustParse(t, data)
	for k := p.Len() / 2; k < p.Len(); k++ {
		if len(p.Step(k).Clause) < 2 {
			continue
		}
		q := &Proof{Format: Text}
		for i := 0; i < p.Len(); i++ {
			s := p.Step(i)
			if i == k {
				s.Clause[len(s.Clause)-1] *= -1
			}
			q.Add(s.Delete, s.Clause...)
		}
		ok, lemma, refuted := naiveCheck(f, q)
		r := check(t, f, q)
		require.Equal(t, ok, r.Verified)
		if !ok {
			require.Equal(t, lemma, r.Failure.Lemma)
			require.Equal(t, k+1, r.Failure.Lemma, "first failure is the flipped lemma")
			return
		}
		require.Equal(t, refuted, r.Stats.RefutedAt)
	}
	t.Fatal("no flipped lemma was rejected")
}

// Extended resolution by RAT: x = 3 defined as 1 and 2 by (-3 1), (-3 2), (3 -1 -2).
// The first two are RAT on -3 (no clause contains 3 yet) and not RUP; the third is
// RUP. A DRUP-only checker would reject the first lemma.
func TestRAT(t *testing.T) {
	f := &CNF{Vars: 2, Clauses: [][]int{{1, 2}, {-1, -2}}} // satisfiable
	p := &Proof{Format: Text}
	p.Add(false, -3, 1)
	p.Add(false, -3, 2)
	p.Add(false, 3, -1, -2)
	p.Add(false, 3, 4) // RAT on 3: resolvents (4 1), (4 2) are not RUP
	r := check(t, f, p)
	require.False(t, r.Verified)
	assert.Equal(t, 2, r.Stats.RAT)
	assert.Equal(t, 4, r.Failure.Lemma)
	// Not RAT: -1 with pivot -1 against (1 2) and (1 -2): the resolvents (2) and
	// (-2) are not RUP.
	g := &CNF{Vars: 2, Clauses: [][]int{{1, 2}, {1, -2}}}
	q := &Proof{Format: Text}
	q.Add(false, -1)
	r = check(t, g, q)
	require.False(t, r.Verified)
	assert.Equal(t, 1, r.Failure.Lemma)
	assert.Equal(t, 1, r.Failure.Step)
}

// Deletions are honoured: deleting a clause the refutation needs makes a later
// lemma fail. Deleting a unit (a top-level reason) is ignored and counted.
func TestDeletionHonoured(t *testing.T) {
	f := &CNF{Vars: 2, Clauses: [][]int{{1, 2}, {1, -2}, {-1, 2}, {-1, -2}}}
	p := &Proof{Format: Text}
	p.Add(true, 1, -2)
	p.Add(false, 1)
	r := check(t, f, p)
	require.False(t, r.Verified)
	assert.Equal(t, 1, r.Stats.Deletions)
	assert.Equal(t, 1, r.Failure.Lemma)

	// (1 2), (1 -2), (-1 3), (-3 4 5) is satisfiable; the unit 1 is RUP and
	// propagates 3.
	g := &CNF{Vars: 6, Clauses: [][]int{{1, 2}, {1, -2}, {-1, 3}, {-3, 4, 5}}}
	q := &Proof{Format: Text}
	q.Add(false, 1)
	q.Add(true, 1)     // the reason of 1: kept
	q.Add(true, 3, -1) // the reason of 3 (literals in another order): kept
	q.Add(true, 1, 2)  // satisfied, but 2 is unassigned: removed
	q.Add(true, 5, 6)  // not in the database
	r = check(t, g, q)
	require.False(t, r.Verified)
	assert.Zero(t, r.Failure.Lemma)
	assert.Equal(t, Stats{Steps: 5, Lemmas: 1, Deletions: 1, IgnoredDeletions: 2, MissingDeletions: 1, RefutedAt: -1}, r.Stats)
}

// A formula refuted by unit propagation alone needs no proof.
func TestRefutedByUnitPropagation(t *testing.T) {
	f := &CNF{Vars: 2, Clauses: [][]int{{1}, {-1, 2}, {-2}}}
	r := check(t, f, &Proof{})
	require.True(t, r.Verified)
	assert.Zero(t, r.Stats.RefutedAt)
	r = check(t, &CNF{Vars: 2, Clauses: [][]int{{1, 2}}}, &Proof{})
	require.False(t, r.Verified)
	assert.Zero(t, r.Failure.Lemma)
}

func TestCancelled(t *testing.T) {
	f := pigeonhole(3)
	data, _ := gophersatProof(t, f)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Check(ctx, f, mustParse(t, data))
	assert.ErrorIs(t, err, context.Canceled)
}

// Property: the watched-literal checker and the naive reference checker (package
// doc rules, implemented by rescanning) agree on every small formula and proof:
// same verdict, same first failing lemma, same refutation step. Random proofs mix
// RUP lemmas, RAT lemmas, non-implied lemmas and deletions, text or binary.
func TestAgreesWithNaive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, p := randomCase(t, 12, 14)
		if rapid.Bool().Draw(t, "binary") {
			var b bytes.Buffer
			if err := p.WriteBinary(&b); err != nil {
				t.Fatal(err)
			}
			var err error
			if p, err = ParseProof(b.Bytes(), Auto); err != nil {
				t.Fatal(err)
			}
		}
		ok, lemma, refuted := naiveCheck(f, p)
		r, err := Check(context.Background(), f, p)
		if err != nil {
			t.Fatal(err)
		}
		if r.Verified != ok {
			t.Fatalf("verified %v, naive %v (failure %v)", r.Verified, ok, r.Failure)
		}
		if ok && r.Stats.RefutedAt != refuted {
			t.Fatalf("refuted at %d, naive %d", r.Stats.RefutedAt, refuted)
		}
		if !ok && r.Failure.Lemma != lemma {
			t.Fatalf("fails at lemma %d, naive %d", r.Failure.Lemma, lemma)
		}
	})
}

// The proofs kept in testdata (PHP(5,4) by gophersat, text RUP; by cadical, binary
// DRAT with deletions) verify against their formula and not against PHP(4,3).
func TestTestdataProofs(t *testing.T) {
	read := func(name string) []byte { return readFile(t, "testdata/"+name) }
	php4, err := ReadCNF(bytes.NewReader(read("php4.cnf")))
	require.NoError(t, err)
	php3, err := ReadCNF(bytes.NewReader(read("php3.cnf")))
	require.NoError(t, err)
	for name, format := range map[string]Format{"php4.gophersat.drup": Text, "php4.cadical.drat": Binary} {
		p, err := ReadProof(bytes.NewReader(read(name)))
		require.NoError(t, err)
		assert.Equal(t, format, p.Format)
		assert.True(t, check(t, php4, p).Verified, name)
		assert.False(t, check(t, php3, p).Verified, name)
	}
}

// A literal beyond MaxCheckVar is refused before any memory is allocated for it.
func TestTooManyVariables(t *testing.T) {
	p := &Proof{}
	p.Add(false, MaxCheckVar+1)
	_, err := Check(context.Background(), &CNF{Vars: 1, Clauses: [][]int{{1}}}, p)
	assert.ErrorContains(t, err, "more than 8388608 variables")
}

// BenchmarkCheckPigeonhole checks gophersat's RUP proof of PHP(8,7): 56 variables,
// 204 clauses, about 7,000 lemmas and 390 KB of text.
func BenchmarkCheckPigeonhole(b *testing.B) {
	f := pigeonhole(7)
	data, unsat := gophersatProof(b, f)
	require.True(b, unsat)
	p := mustParse(b, data)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if r := check(b, f, p); !r.Verified {
			b.Fatal("not verified")
		}
	}
}

// A repeated literal after its complement is dropped like any repeat: the formula
// clause (1 -1 1) is the tautology (1 -1), so deleting (1 -1 1) twice removes it and
// the lemma (1 -1) added before; then nothing contains -1 and the unit (1) is RAT on
// 1, as the naive checker says. (Found by TestAgreesWithNaive; before the fix the
// formula clause kept both 1s, the second deletion missed the lemma, and the
// checkers disagreed.)
func TestTautologyRepeatedLiteral(t *testing.T) {
	f := &CNF{Vars: 1, Clauses: [][]int{{1, -1, 1}}}
	p := &Proof{Format: Text}
	p.Add(false, 1, -1)
	p.Add(true, 1, -1, 1)
	p.Add(true, 1, -1, 1)
	p.Add(false, 1)
	r := check(t, f, p)
	require.NotNil(t, r.Failure)
	assert.Equal(t, 0, r.Failure.Lemma, "every lemma holds; the proof is only incomplete")
	assert.Equal(t, 2, r.Stats.Deletions)
	assert.Equal(t, 0, r.Stats.MissingDeletions)
	assert.Equal(t, 1, r.Stats.RAT)
	ok, lemma, _ := naiveCheck(f, p)
	assert.False(t, ok)
	assert.Equal(t, 0, lemma)
}
