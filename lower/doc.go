// Package lower checks lower-bound arguments for wormhole routing; the search for
// instances that are hard for an algorithm is in lower/adversary.
//
// It holds the Omega(cd) construction of seed 002, section 5 (Prime, PrimeClaims:
// every claim of the paper measured on the built instance, and a repaired version),
// the butterfly lower bound of seed 002, section 3 (Butterfly, ButterflyRow: the
// phase argument of Lemma 4 and Theorem 2 made exact with independent-set and
// colouring searches), lower bounds for any instance beyond c + d (Bounds, Best:
// aligned clique, colouring and independence bounds, the prefix bound, the exact
// non-preemptive edge bound EdgeSequence, and Disjunctive, the wormhole model as a
// disjunctive program whose budgeted search refutes makespans and, when it
// completes, proves the optimum), and ParseNetwork, the network specs of the
// adversary's command.
//
// # The separation lemma
//
// Besides the per-edge facts of the model (a worm holds an edge it shares for at
// least L consecutive steps), the bounds here rest on one lemma, proved at
// AlignedConflicts: two messages
// that share an edge e with the same number r of hops left after it, r <= L - 1,
// are delivered at least L apart in every legal schedule (wormhole or bufferless).
// So a clique S of such messages needs sum_S L + min_S d - 1 steps, the deliveries
// inside any window of L steps are pairwise non-conflicting (the phases of Lemma
// 4), and a set U needs min_U(d + L - 1) + (chi(U) - 1) L steps. Its general form
// (Disjunctions) drops the alignment: if the leader i has r_i <= L_i - 1 hops left
// after the shared edge, D_j >= D_i + L_j + r_j - r_i. The leader condition is
// necessary (testdata/leader-condition.json).
//
// # Cost
//
// The conflict graph costs O(sum_e min(c_e^2, c_e M/64)) time and O(M^2/64) words
// (many worms sharing an edge are joined row by row). Maximum clique
// (MaxClique), independence number (MaxIndependentSet) and chromatic number
// (Chromatic) are exponential in the worst case; each search expands at most a
// given budget of nodes and then returns a valid but weaker bound, with Exact
// false (in BoundsWithin also at once when its context is cancelled, limit.stop:
// at every node and every stopCheck units of work inside one, the greedy clique,
// DSATUR's first colouring and the graphs' construction, so within a second of
// CPU time whatever the size).
// Bounds uses DefaultBudget nodes per search. EdgeSequence enumerates at
// most c_e! orders, for c_e <= MaxSequenceUsers; Disjunctive costs
// O(K + propagation) per node for K = O(sum_e c_e^2) disjunctions.
//
// # Invariants
//
// Every model.Bound that Bounds, BoundsBudget and Best return has a Value at most
// the makespan of every legal wormhole schedule of the instance (so of every
// bufferless one), whatever the budget: a search cut short returns a clique found,
// a clique partition or a refuted prefix of makespans, never a guess. MaxClique's
// Weight <= (heaviest clique) <= Upper, MaxIndependentSet's len(Set) <= alpha <=
// Upper and Chromatic's Lower <= chi <= Upper, with equality when Exact.
// Disjunctive's value is the optimum when exact is true. Each schedule the
// package builds (PhaseSchedule) has passed verify.Schedule.
//
// # Readings
//
// The paper's section 5 cannot be drawn literally; prime.go says how it is read and
// why it fails. "Conflict at aligned positions" is read as equal hops remaining
// after the shared edge, which on a levelled network with all destinations on the
// last level is the same as sharing an edge.
package lower
