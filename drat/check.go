package drat

// Forward checking of DRUP and DRAT proofs: reverse unit propagation (Goldberg and
// Novikov, 2003) and the RAT property of Wetzler, Heule and Hunt, "DRAT-trim:
// efficient checking and trimming using expressive clausal proofs" (SAT 2014).

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Stats counts what a check did.
type Stats struct {
	Steps            int // proof steps read (up to the conflict or the failure)
	Lemmas           int // lemmas checked
	RAT              int // lemmas that needed the RAT check (RUP failed, RAT held)
	Deletions        int // deletions honoured
	IgnoredDeletions int // deletions of clauses that may be top-level reasons, ignored
	MissingDeletions int // deletions of clauses not in the database, ignored
	Skipped          int // lemmas not needed by the refutation (CheckBackward only)
	// RefutedAt is the 1-based step after which unit propagation reached a
	// conflict (0: the formula alone is refuted by unit propagation; -1: never).
	RefutedAt int
}

// Failure names the first lemma that is not implied, or says the proof is
// incomplete (Lemma == 0: it ends with no conflict).
type Failure struct {
	Lemma  int    // 1-based number among the added lemmas; 0 for an incomplete proof
	Step   int    // 1-based number among all steps
	Pos    int64  // line (text) or byte offset (binary) of the step
	Format Format // the proof's encoding, to name Pos
	Clause []int
}

func (f *Failure) Error() string {
	if f.Lemma == 0 {
		return fmt.Sprintf("proof ends after %d steps without deriving the empty clause", f.Step)
	}
	where := fmt.Sprintf("line %d", f.Pos)
	if f.Format == Binary {
		where = fmt.Sprintf("byte offset %d", f.Pos)
	}
	var b strings.Builder
	for _, l := range f.Clause {
		fmt.Fprintf(&b, "%d ", l)
	}
	b.WriteString("0")
	rat := ""
	if len(f.Clause) > 0 {
		rat = fmt.Sprintf(", nor RAT on %d", f.Clause[0])
	}
	return fmt.Sprintf("lemma %d (step %d, %s) is not implied by unit propagation%s: %s", f.Lemma, f.Step, where, rat, b.String())
}

// Result is the outcome of a check: Verified, or the Failure.
type Result struct {
	Verified bool
	Failure  *Failure
	Stats    Stats
}

// MaxCheckVar is the largest variable Check accepts: its memory is proportional to
// the largest variable used (about 60 bytes per variable, so 500 MB at the limit).
const MaxCheckVar = 1 << 23

// Check checks the proof p against the formula f (see the package doc for what is
// checked). The error is non-nil only when ctx is cancelled or a literal exceeds
// MaxCheckVar.
func Check(ctx context.Context, f *CNF, p *Proof) (*Result, error) {
	ch, res, err := start(f, p)
	if err != nil || res.Verified {
		return res, err
	}
	st := &res.Stats
	buf := make([]int32, 0, 64)
	for i, s := range p.steps {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		st.Steps++
		buf = append(buf[:0], p.lits[s.start:s.end]...)
		if s.del {
			switch r, _ := ch.remove(buf); r {
			case removed:
				st.Deletions++
			case kept:
				st.IgnoredDeletions++
			case missing:
				st.MissingDeletions++
			}
			continue
		}
		st.Lemmas++
		buf, taut := ch.normalize(buf)
		ok, rat := ch.implied(buf, taut, false)
		if !ok {
			res.Failure = &Failure{Lemma: st.Lemmas, Step: i + 1, Pos: s.pos, Format: p.Format, Clause: p.clause(i)}
			return res, nil
		}
		if rat {
			st.RAT++
		}
		ch.add(buf)
		if ch.refuted {
			res.Verified, st.RefutedAt = true, i+1
			return res, nil
		}
	}
	res.Failure = &Failure{Step: len(p.steps), Format: p.Format}
	return res, nil
}

// clause is a clause of the database: its literals are arena[start : start+n].
type clause struct {
	start, n int32
	deleted  bool
	taut     bool
	marked   bool // needed by the refutation (backward checking)
}

type removal int

const (
	removed removal = iota
	kept
	missing
)

// checker is a clause database with two-watched-literal unit propagation.
// Literal l has index 2*|l| + (l < 0) in watches; values are per variable.
type checker struct {
	arena   []int32
	cls     []clause
	watches [][]watch // indexed by widx of the watched literal
	val     []int8    // indexed by widx: 0 unassigned, 1 true, -1 false
	trail   []int32   // assigned literals (true) in order
	qhead   int       // trail[:qhead] has been propagated
	byKey   map[uint64][]int32
	refuted bool // top-level conflict reached
	seen    []int32
	// reason[v] is the clause that propagated variable v (-1: assumed by a check);
	// conflict is the clause found false by the last conflict. Only backward
	// checking reads them.
	reason   []int32
	conflict int32
}

// watch is a clause watching a literal, with a blocker: another literal of the
// clause; when the blocker is true the clause is satisfied and need not be read. A
// binary clause has its id tagged with binaryTag and its other literal as blocker,
// so propagating it never reads the clause.
type watch struct {
	id      int32
	blocker int32
}

const binaryTag = -1 << 31

func newChecker(maxVar int) *checker {
	ch := &checker{
		watches: make([][]watch, 2*maxVar+2),
		val:     make([]int8, 2*maxVar+2),
		byKey:   map[uint64][]int32{},
		seen:    make([]int32, maxVar+1),
		reason:  make([]int32, maxVar+1),
	}
	return ch
}

func widx(l int32) int32 {
	if l < 0 {
		return -2*l + 1
	}
	return 2 * l
}

func (ch *checker) value(l int32) int8 { return ch.val[widx(l)] }

func (ch *checker) assign(l, why int32) {
	ch.val[widx(l)] = 1
	ch.val[widx(-l)] = -1
	if l < 0 {
		ch.reason[-l] = why
	} else {
		ch.reason[l] = why
	}
	ch.trail = append(ch.trail, l)
}

func (ch *checker) lits(c int32) []int32 {
	k := &ch.cls[c]
	return ch.arena[k.start : k.start+k.n]
}

// key is a hash of the set of literals, independent of their order.
func key(lits []int32) uint64 {
	var h uint64
	for _, l := range lits {
		x := uint64(uint32(l)) + 0x9e3779b97f4a7c15
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		h += x ^ x>>31
	}
	return h
}

// normalize removes repeated literals in place (keeping the first occurrence, so
// the RAT pivot stays first) and reports whether the clause is a tautology.
// seen[v] records the signs of v met so far (bit 1 positive, bit 2 negative), so
// that a repeat is dropped even after the complement has been seen: (1 -1 1)
// becomes (1 -1), the clause a deletion of (1 -1) must find.
func (ch *checker) normalize(lits []int32) ([]int32, bool) {
	out := lits[:0]
	taut := false
	for _, l := range lits {
		v, bit := l, int32(1)
		if v < 0 {
			v, bit = -v, 2
		}
		if ch.seen[v]&bit != 0 {
			continue
		}
		if ch.seen[v] != 0 {
			taut = true
		}
		ch.seen[v] |= bit
		out = append(out, l)
	}
	for _, l := range out {
		if l < 0 {
			ch.seen[-l] = 0
		} else {
			ch.seen[l] = 0
		}
	}
	return out, taut
}

// add puts a clause into the database at the top level and propagates.
func (ch *checker) add(in []int32) {
	lits, taut := ch.normalize(in)
	id := int32(len(ch.cls))
	start := int32(len(ch.arena))
	ch.arena = append(ch.arena, lits...)
	ch.cls = append(ch.cls, clause{start: start, n: int32(len(lits)), taut: taut})
	k := key(lits)
	ch.byKey[k] = append(ch.byKey[k], id)
	if taut {
		return
	}
	c := ch.lits(id)
	switch len(c) {
	case 0:
		ch.refuted, ch.conflict = true, id
		return
	case 1:
		switch ch.value(c[0]) {
		case -1:
			ch.refuted, ch.conflict = true, id
		case 0:
			ch.assign(c[0], id)
			ch.refuted = !ch.propagate()
		}
		return
	}
	nf := ch.attach(id)
	switch {
	case nf == 0:
		ch.refuted, ch.conflict = true, id
	case nf == 1 && ch.value(c[0]) == 0:
		ch.assign(c[0], id)
		ch.refuted = !ch.propagate()
	}
}

// attach watches clause id (at least two literals): it moves up to two non-false
// literals to the front, true ones first, watches the first two literals and
// returns how many non-false ones it moved there (0, 1 or 2).
func (ch *checker) attach(id int32) int {
	c := ch.lits(id)
	nf := 0
	for _, want := range []int8{1, 0} {
		for j := nf; j < len(c) && nf < 2; j++ {
			if ch.value(c[j]) == want {
				c[nf], c[j] = c[j], c[nf]
				nf++
			}
		}
	}
	wid := id
	if len(c) == 2 {
		wid |= binaryTag
	}
	ch.watches[widx(c[0])] = append(ch.watches[widx(c[0])], watch{wid, c[1]})
	ch.watches[widx(c[1])] = append(ch.watches[widx(c[1])], watch{wid, c[0]})
	return nf
}

// remove deletes one copy of the clause from the database and returns its id
// (-1 when missing).
func (ch *checker) remove(in []int32) (removal, int32) {
	lits, _ := ch.normalize(in)
	k := key(lits)
	ids := ch.byKey[k]
	want := slices.Clone(lits)
	slices.Sort(want)
	for j, id := range ids {
		got := slices.Clone(ch.lits(id))
		slices.Sort(got)
		if !slices.Equal(got, want) {
			continue
		}
		if ch.unitSatisfied(ch.lits(id)) {
			return kept, id
		}
		ch.cls[id].deleted = true
		ids[j] = ids[len(ids)-1]
		if len(ids) == 1 {
			delete(ch.byKey, k)
		} else {
			ch.byKey[k] = ids[:len(ids)-1]
		}
		return removed, id
	}
	return missing, -1
}

// unitSatisfied reports whether, at the top level, exactly one literal of c is true
// and all the others are false. Every clause that propagated a top-level literal is
// such a clause; the set does not depend on the order of propagation, so which
// deletions are ignored is a function of the proof alone.
func (ch *checker) unitSatisfied(c []int32) bool {
	trues := 0
	for _, l := range c {
		switch ch.value(l) {
		case 0:
			return false
		case 1:
			trues++
		}
	}
	return trues == 1
}

// propagate runs unit propagation from qhead; false means a conflict.
func (ch *checker) propagate() bool {
	for ch.qhead < len(ch.trail) {
		f := -ch.trail[ch.qhead] // the literal that became false
		ch.qhead++
		ws := ch.watches[widx(f)]
		j := 0
		conflict := false
		for i := 0; i < len(ws); i++ {
			w := ws[i]
			if conflict || ch.val[widx(w.blocker)] == 1 {
				ws[j] = w
				j++
				continue
			}
			if w.id < 0 { // binary: the blocker is the other literal
				if ch.cls[w.id&^binaryTag].deleted {
					continue
				}
				ws[j] = w
				j++
				if ch.val[widx(w.blocker)] == -1 {
					conflict, ch.conflict = true, w.id&^binaryTag
				} else {
					ch.assign(w.blocker, w.id&^binaryTag)
				}
				continue
			}
			k := &ch.cls[w.id]
			if k.deleted {
				continue
			}
			c := ch.arena[k.start : k.start+k.n]
			if c[0] == f {
				c[0], c[1] = c[1], c[0]
			}
			if ch.val[widx(c[0])] == 1 {
				ws[j] = watch{w.id, c[0]}
				j++
				continue
			}
			moved := false
			for x := 2; x < len(c); x++ {
				if ch.val[widx(c[x])] != -1 {
					c[1], c[x] = c[x], c[1]
					ch.watches[widx(c[1])] = append(ch.watches[widx(c[1])], watch{w.id, c[0]})
					moved = true
					break
				}
			}
			if moved {
				continue
			}
			ws[j] = watch{w.id, c[0]}
			j++
			if ch.val[widx(c[0])] == -1 {
				conflict, ch.conflict = true, w.id
			} else {
				ch.assign(c[0], w.id)
			}
		}
		ch.watches[widx(f)] = ws[:j]
		if conflict {
			return false
		}
	}
	return true
}

// backtrack undoes the assignments after trail position mark.
func (ch *checker) backtrack(mark int) {
	for _, l := range ch.trail[mark:] {
		ch.val[widx(l)] = 0
		ch.val[widx(-l)] = 0
	}
	ch.trail = ch.trail[:mark]
	ch.qhead = mark
}

// rup reports whether assigning the literals false leads to a conflict by unit
// propagation; it leaves the assignment in place (the caller backtracks). When
// marking (backward checking), it marks the clauses behind the conflict it finds.
func (ch *checker) rup(lits []int32, marking bool) bool {
	for _, l := range lits {
		switch ch.value(l) {
		case 1:
			if marking {
				ch.markLit(l)
			}
			return true
		case 0:
			ch.assign(-l, -1)
		}
	}
	if ch.propagate() {
		return false
	}
	if marking {
		ch.mark(ch.conflict)
	}
	return true
}

// implied reports whether lemma c is RUP, or else RAT on its first literal, with
// respect to the database (and whether RAT was needed). c and taut are what
// normalize returned. When marking (backward checking), it also marks the clauses
// each successful check used.
func (ch *checker) implied(c []int32, taut, marking bool) (ok, rat bool) {
	if taut {
		return true, false
	}
	mark := len(ch.trail)
	defer ch.backtrack(mark)
	if ch.rup(c, marking) {
		return true, false
	}
	if len(c) == 0 {
		return false, false
	}
	// RAT on the pivot p = c[0]: every resolvent on p with a clause containing -p.
	p := c[0]
	mark2 := len(ch.trail)
	for id := range ch.cls {
		k := &ch.cls[id]
		if k.deleted {
			continue
		}
		d := ch.lits(int32(id))
		if !slices.Contains(d, -p) {
			continue
		}
		rest := make([]int32, 0, len(d)-1)
		for _, l := range d {
			if l != -p {
				rest = append(rest, l)
			}
		}
		ok := ch.rup(rest, marking)
		ch.backtrack(mark2)
		if !ok {
			return false, false
		}
		if marking {
			k.marked = true
		}
	}
	return true, true
}
