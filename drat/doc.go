// Package drat checks clausal proofs of unsatisfiability (DRUP and DRAT) against a
// CNF formula. It is wormlab's own checker: it shares no code with any SAT solver, so
// a proof that one step less than an optimal makespan is infeasible (package certify)
// can be trusted without trusting the solver that wrote it.
//
// References: Wetzler, Heule and Hunt, "DRAT-trim: efficient checking and trimming
// using expressive clausal proofs" (SAT 2014), for the DRAT proof format and the RAT
// property; Goldberg and Novikov (2003) for reverse unit propagation (RUP).
//
// # Formats
//
// ReadCNF reads DIMACS CNF ("p cnf V C" header, clauses ended by 0, comment lines
// starting with c). ReadProof reads a proof in either of the two DRAT encodings and
// detects which by its bytes:
//
//   - text: one step per clause, integers ended by 0, a leading "d" for a deletion,
//     comment lines starting with c;
//   - binary: each step is the byte 'a' (0x61, addition) or 'd' (0x64, deletion),
//     then each literal l as the variable-length unsigned integer 2*|l| + (l < 0),
//     seven bits per byte, least significant first, high bit set on all bytes but the
//     last, then a 0 byte.
//
// A binary proof starts with 'a' or contains a 0 byte; a text proof does neither
// (every binary step ends with a 0 byte, and text has none), so the test is exact
// for every non-empty proof.
//
// # What is checked (forward checking)
//
// The checker keeps a clause database F, initially the formula, and reads the proof
// in order. For an added lemma C it asks, in order:
//
//  1. RUP: assign every literal of C false and run unit propagation on F; a conflict
//     means F implies C.
//  2. RAT on the first literal p of C (DRAT only needs it when RUP fails): for every
//     clause D of F that contains -p, the resolvent C ∪ (D \ {-p}) must be RUP.
//     Then F and F ∪ {C} are equisatisfiable.
//
// The first lemma that passes neither check is reported (Failure: its 1-based lemma
// number, step number, line or byte offset, and the clause); nothing after it is
// read. A deletion removes one copy of the clause from F. The proof is VERIFIED as
// soon as unit propagation on F reaches a conflict at the top level: when the empty
// clause is added, or earlier when a unit lemma already makes F inconsistent (then
// the rest of the proof is not needed and not checked). A proof that ends without a
// conflict is rejected as incomplete.
//
// Soundness does not depend on which deletions are honoured: each addition keeps F
// satisfiable if it was, each deletion does too, so a conflict in F refutes the
// formula. Two kinds of deletion are therefore ignored and counted, much as
// drat-trim does by default: of a clause that is not in F (MissingDeletions), and of
// a clause that at the top level has one true literal and all others false
// (IgnoredDeletions; unit clauses and every clause that propagated a top-level
// literal are such), because removing a reason would require undoing top-level
// propagation. This rule depends on the top-level assignment only, which unit
// propagation reaches the same whatever its order, so the result of a check is a
// function of the formula and the proof.
//
// CheckBackward checks only the lemmas the refutation needs, latest first, as
// DRAT-trim does (see its doc): it accepts more proofs (an unneeded lemma that is
// not implied is skipped) and is as sound; the failure it names is the latest needed
// lemma that fails. On a 62,000-lemma cadical proof it checked half the lemmas and
// took 2.2 times less CPU than Check.
//
// # Cost
//
// Unit propagation uses two watched literals per clause of two or more literals. A
// RUP check costs O(propagation), at most O(total size of F) per lemma; a RAT check
// scans F for the clauses containing -p and runs one RUP check per such clause.
// Memory is O(size of formula + size of proof): the proof is read whole.
//
// # Invariants
//
// Between steps every clause of F with two or more literals is watched by its first
// two literals, and top-level propagation is at a fixpoint with no conflict.
// Temporary assignments made by a check are undone before the next step.
package drat
