package drat

// Backward checking, after DRAT-trim (Wetzler, Heule and Hunt, SAT 2014): check
// only the lemmas the refutation depends on, latest first.

import (
	"context"
	"fmt"
)

// CheckBackward checks the proof p against the formula f like Check, but only the
// lemmas the refutation needs:
//
//  1. a forward pass adds every lemma and applies the deletions (by the rules of
//     Check) without checking anything, up to the first step after which unit
//     propagation conflicts at the top level;
//  2. the clauses of that conflict and, recursively, the reasons of its literals
//     are marked;
//  3. the steps are undone latest first (deleted clauses come back, each lemma
//     leaves the database together with the top-level assignments it caused), and
//     each marked lemma is checked (RUP, else RAT on its first literal) against
//     the database as it was when the lemma was added; the clauses its check uses
//     are marked in turn.
//
// It is as sound as Check (every lemma the refutation uses is checked against the
// database of its time) and accepts every proof Check accepts, and more: a lemma
// that is not implied but not needed is not reported. The Failure it reports is the
// latest failing lemma the refutation needs, not the first of the file. Stats.Lemmas
// counts the lemmas checked, Stats.Skipped those not needed.
//
// Cost: the forward pass is top-level propagation only; each needed lemma costs
// one RUP check plus a walk over the implication graph of its conflict.
func CheckBackward(ctx context.Context, f *CNF, p *Proof) (*Result, error) {
	ch, res, err := start(f, p)
	if err != nil || res.Verified {
		return res, err
	}
	st := &res.Stats
	// trail[i] is the trail length before step i, ids[i] the clause the step added
	// or (for an honoured deletion) removed, -1 otherwise.
	trail := make([]int, 0, len(p.steps))
	ids := make([]int32, 0, len(p.steps))
	lemmaNo := make([]int, 0, len(p.steps))
	buf := make([]int32, 0, 64)
	refuted := -1
	lemmas := 0
	for i, s := range p.steps {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		st.Steps++
		buf = append(buf[:0], p.lits[s.start:s.end]...)
		trail = append(trail, len(ch.trail))
		lemmaNo = append(lemmaNo, lemmas)
		if s.del {
			r, id := ch.remove(buf)
			switch r {
			case removed:
				st.Deletions++
				ch.detach(id)
			case kept:
				st.IgnoredDeletions++
				id = -1
			case missing:
				st.MissingDeletions++
			}
			ids = append(ids, id)
			continue
		}
		lemmas++
		lemmaNo[i] = lemmas
		ids = append(ids, int32(len(ch.cls)))
		ch.add(buf)
		if ch.refuted {
			refuted = i
			break
		}
	}
	if refuted < 0 {
		res.Failure = &Failure{Step: len(p.steps), Format: p.Format}
		return res, nil
	}
	st.RefutedAt = refuted + 1
	ch.mark(ch.conflict)
	for i := refuted; i >= 0; i-- {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		s := p.steps[i]
		id := ids[i]
		if s.del {
			if id >= 0 {
				ch.undelete(id)
			}
			continue
		}
		ch.backtrack(trail[i])
		ch.refuted = false
		ch.detach(id)
		if !ch.cls[id].marked {
			st.Skipped++
			continue
		}
		st.Lemmas++
		lits, taut := ch.normalize(append(buf[:0], p.lits[s.start:s.end]...))
		ok, rat := ch.implied(lits, taut, true)
		if !ok {
			res.Failure = &Failure{Lemma: lemmaNo[i], Step: i + 1, Pos: s.pos, Format: p.Format, Clause: p.clause(i)}
			return res, nil
		}
		if rat {
			st.RAT++
		}
	}
	res.Verified = true
	return res, nil
}

// start builds the checker for f and adds its clauses; res.Verified is set when
// unit propagation on f alone conflicts.
func start(f *CNF, p *Proof) (*checker, *Result, error) {
	maxVar := 0
	for _, c := range f.Clauses {
		for _, l := range c {
			maxVar = max(maxVar, l, -l)
		}
	}
	for _, l := range p.lits {
		maxVar = max(maxVar, int(l), -int(l))
	}
	if maxVar > MaxCheckVar {
		return nil, nil, fmt.Errorf("drat: variable %d: more than %d variables are not supported", maxVar, MaxCheckVar)
	}
	ch := newChecker(maxVar)
	res := &Result{Stats: Stats{RefutedAt: -1}}
	for _, c := range f.Clauses {
		lits := make([]int32, len(c))
		for k, l := range c {
			lits[k] = int32(l)
		}
		ch.add(lits)
		if ch.refuted {
			res.Verified, res.Stats.RefutedAt = true, 0
			break
		}
	}
	return ch, res, nil
}

// detach removes clause id from the database now: out of its watch lists and
// marked deleted.
func (ch *checker) detach(id int32) {
	k := &ch.cls[id]
	k.deleted = true
	if k.taut || k.n < 2 {
		return
	}
	c := ch.lits(id)
	for _, l := range c[:2] {
		ws := ch.watches[widx(l)]
		j := 0
		for _, w := range ws {
			if w.id&^binaryTag != id {
				ws[j] = w
				j++
			}
		}
		ch.watches[widx(l)] = ws[:j]
	}
}

// undelete puts a clause removed by a deletion back, watched by two literals that
// are not false (it has them: a clause with one true literal and the others false
// is never removed, and top-level propagation was at a fixpoint when it was).
func (ch *checker) undelete(id int32) {
	k := &ch.cls[id]
	k.deleted = false
	if k.taut || k.n < 2 {
		return
	}
	ch.attach(id)
}

// mark marks clause id and every clause that propagated a literal of it,
// recursively: the part of the implication graph a conflict rests on.
func (ch *checker) mark(id int32) {
	stack := []int32{id}
	var seen []int32
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ch.cls[c].marked = true
		for _, l := range ch.lits(c) {
			v := l
			if v < 0 {
				v = -v
			}
			if ch.val[widx(l)] == 0 || ch.seen[v] != 0 {
				continue
			}
			ch.seen[v] = 1
			seen = append(seen, v)
			if r := ch.reason[v]; r >= 0 && r != c {
				stack = append(stack, r)
			}
		}
	}
	for _, v := range seen {
		ch.seen[v] = 0
	}
}

// markLit marks the reasons behind an assigned literal.
func (ch *checker) markLit(l int32) {
	v := l
	if v < 0 {
		v = -v
	}
	if r := ch.reason[v]; r >= 0 {
		ch.mark(r)
	}
}
