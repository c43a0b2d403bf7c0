// Package certify writes and checks certificates of optimality for schedules found
// by package optimal, and certificates of `wormlab deadlock`'s verdicts (deadlock.go:
// the fixpoint's order, a DRAT refutation, or a configuration with its replay and
// its minimality, checked by this package's own enumeration of the routing's
// states); what follows is about schedules. A schedule's certificate is a legal
// schedule of makespan T* together with a proof that no legal schedule of
// makespan T* - 1 exists, checkable by someone who trusts neither
// our solver nor our encoder's author, only the instance, MODEL.md and small
// checkers (verify, drat, and this package's edge-set search).
//
// # A certificate directory
//
//	manifest.json   what is claimed: instance name and SHA-256, model, makespan,
//	                kind, and the bound or the refutation with the files' SHA-256
//	instance.json   the instance (MODEL.md JSON, as model.WriteInstance writes it)
//	schedule.json   the optimal schedule (MODEL.md JSON)
//	horizon.cnf     (refutation only) the DIMACS CNF of horizon T* - 1
//	proof.drat      (refutation only) a DRUP/DRAT proof that horizon.cnf is
//	                unsatisfiable, text or binary
//
// Three kinds of lower-bound evidence:
//
//   - bound: T* equals a closed-form lower bound, stated with its witness and
//     arithmetic: dilation (a message: d + L - 1), edge (an edge e and a set S of
//     its users: min_S k + sum_S L + min_S (d - k) - 1, which covers c_L and the
//     per-edge bound of MODEL.md: by Carlier's theorem the best S gives exactly
//     model.Instance.EdgeBound), or aligned-clique (a set of messages pairwise in
//     aligned conflict: sum L + min d - 1, the separation lemma at
//     lower.AlignedConflicts; seed 002, section 5, for the all-colliding family),
//     or empty (an instance of no message, whose optimum 0 no CNF of horizon -1
//     could refute). No CNF is needed.
//   - refutation: horizon.cnf is optimal.Encode(instance, model, T* - 1) written by
//     WriteDIMACS after a three-line header that names the instance and its SHA-256,
//     the model, the horizon and optimal.EncodingVersion; proof.drat refutes it.
//   - edge-set: the relaxation of the instance to a few edges F (at most 4 with
//     root slack at most 3 at T* - 1 that no message links to the other tight
//     edges, chosen by the writer; the checker takes up to 16) has no solution at
//     horizon T* - 1; the manifest names F and the horizon, and the checker re-decides
//     the claim with its own exhaustive search (edgeset.go states the relaxation and
//     the lemma). It certifies the optima that package optimal proves with its
//     edge-set bound, where CDCL finds no refutation: on issue 16's frontier tree
//     (kary-tree --k 2 --depth 4 --traffic random --messages 128 --flits 4 --seed 1,
//     optimum 150, edge bound 148) cadical gives no answer for horizon 149 in 600 s,
//     while the check refutes it on F = {1->0, 0->2, 2->6} in 790 nodes (bufferless)
//     and 1,131 nodes (wormhole), a few milliseconds each.
//
// # What Check trusts
//
// Check re-reads everything from the directory and recomputes: the instance's hash;
// the schedule's legality and makespan with verify.Schedule; for a bound, its value
// from the instance alone (it does not call the code that found it: pairwise aligned
// conflicts and the edge sums are recomputed here), and an edge bound's edge_name
// against the instance's name of its edge (no other bound may name an edge); for a refutation, the CNF
// re-encoded from the instance by this build's optimal.Encode, byte for byte equal to
// the file and to the manifest's hash, and the proof checked by drat.CheckBackward. The
// certificate is therefore exactly as trustworthy as the encoder, and that is the
// weak link: the tests check optimal.Encode against a second encoding written
// independently (time-indexed, from MODEL.md), which must agree on satisfiability
// for every horizon of many small random instances, in both models.
//
// For an edge-set certificate Check trusts only edgeset.go: it validates the edges
// (they exist and have the names the manifest gives) and that the horizon is T* - 1,
// and runs its search, which imports nothing of package optimal's edge-set bound.
// Its tests compare it with brute force (every crossing vector judged by
// verify.Schedule) on tiny instances, and with optimal.Solve's verified optima on
// trees, meshes and fans: it never refutes a horizon that has a schedule, and in the
// bufferless model with F = every shared edge (where the relaxation is exact) it
// refutes every horizon below the optimum.
//
// A certificate names its encoding version; a build whose encoder differs says so
// instead of checking a formula it cannot reproduce.
//
// # Proof production
//
// A Prover writes the proof: Gophersat (github.com/crillab/gophersat v1.4.0, pure Go,
// RUP lemmas in text, no deletions) or Cadical (the cadical program of the Debian
// archive, binary DRAT with deletions). DefaultProver takes cadical when it is on
// PATH and gophersat otherwise, so the project builds, tests and certifies with Go
// alone; the manifest names the prover used.
//
// Measured on this kind of machine (2 shared cores), with TestExperimentProofs
// (WORMLAB_LONG=1) over the solver's benchmark families (3x3 and 4x4 meshes with
// 10-80 worms and L = 1, 2, 4, 8, butterflies of 8 and 16 inputs, binary trees, a
// 7x7 mesh with 90 worms, the repaired prime construction): 68 of the 91 optima
// found are closed-form bounds (no CNF); the 23 refutations (encoding
// wormlab-order-4) have formulas of up to 39,000 variables and 147,000 clauses,
// about half refuted by unit propagation alone (the cardinality constraints of the
// encoding), the largest proofs 2.5 KB (gophersat, 83 steps) and 36 KB (cadical,
// 5,139 steps with deletions), each produced in at most 0.4 s and checked in at
// most 0.2 s, against plain solve times of at most 0.04 s.
//
// On a horizon hard for plain CDCL, the repaired prime construction p = 5 with
// worms of 5 flits, wormhole, horizon 45 (10,190 variables, 37,605 clauses), in CPU
// seconds: cadical 26.8 s, a 10.1 MB binary proof (195,053 lemmas, 190,458
// deletions) that drat.CheckBackward checks in 26.3 s (104,027 lemmas needed;
// drat.Check, forward, 56.4 s); gophersat 26.8 s, a 13.8 MB text proof (82,400
// lemmas, no deletions) checked backward in 39.9 s. With the previous encoding
// (wormlab-order-3, 21,000 variables) the same horizon took cadical 9.0 s (2.9 MB)
// and gophersat 45 s (15.9 MB).
//
// # Cost
//
// Write: one Encode (O(size of the formula)), one SAT solve with proof logging, one
// pass over the proof to hash it. Check: one Encode, O(size of the formula) for the
// hash, and the proof check of package drat. A closed-form certificate costs
// O(M^2 d + sum_e c_e^3) to find and O(|S|^2 d) to check. An edge-set certificate
// costs one search to write (the writer confirms its claim) and one to check:
// exponential in the worst case, O(|F| (K^2 + T)) per node for K kinds of job.
package certify
