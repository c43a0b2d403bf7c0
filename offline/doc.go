// Package offline computes bufferless schedules offline by colouring paths, after
// Ranade, Schleimer and Wilkerson, "Nearly tight bounds for wormhole routing"
// (seed 002, section 4). A message's colour is its start delay s_i: it then crosses
// its k-th edge in step s_i + k and never waits (MODEL.md, the bufferless model).
// For trees and k-dimensional meshes the colorers reach O(c + d) steps, which
// matches the congestion + dilation lower bound up to a constant.
//
// # Pieces
//
//   - Colorer and Greedy: the greedy colorer of section 4.2. Messages are taken in a
//     total order; each gets the smallest start at which, on every edge of its path,
//     its L_i contiguous steps are free (section 4.5). Two messages on a common edge
//     at positions k_i, k_j conflict iff their holding intervals
//     [s_i + k_i, s_i + k_i + L_i - 1] and [s_j + k_j, s_j + k_j + L_j - 1] meet,
//     i.e. iff |(s_i + k_i) - (s_j + k_j)| < L of the earlier one (MODEL.md).
//   - Plan: an order in parts with its entrance sets (Definition 3). TreePlan (section
//     4.3, 2-entrant), MeshPlan (section 4.4, k-entrant per class, Lemma 7), AnyPlan
//     (any network, d-entrant). Choose picks one; Color runs it.
//   - MinEntrances and CheckEntrances: entrance sets as data, for any order, so that
//     Lemmas 6 and 7 can be checked directly.
//   - Improve and Compact: beyond the paper, never longer than what they are given.
//
// # Bounds (readings of the paper)
//
// The paper numbers colours from 1; starts here are 0-based (start = colour - 1).
// Lemma 6 (L = 1): with a k-entrant order every colour is at most k(c - 1) + 1, i.e.
// every start is at most k(c - 1). Section 4.5 (L flits, contiguous colours): every
// earlier path met on an entrance edge forbids a window of 2L - 1 starts, so
// every start is at most (2L - 1) k (c - 1); the paper states it as "the maximum
// colour used is (2L - 1) k (c - 1) + L", the last of the message's L colours. With
// messages of different lengths, an earlier p forbids L_p + L_q - 1 starts of q,
// and the bound holds with L the largest length. Delivery adds d_i + L_i - 1, so
// for one part (PartBound)
//
//	makespan <= (2L - 1) K (c - 1) + d + L - 1.
//
// The count needs the problem to be simple (two paths sharing edges forbid each
// other one window), which holds on trees and within a mesh class because there
// two paths share one contiguous piece, run at a fixed offset. The generic order
// takes every path edge as entrance, and then the count holds on any network.
//
// Section 4.4 schedules the 2^k k! mesh classes "separately and then combines them"
// and counts 2^k k! (k(c - 1) + 1) colours. Colours of different classes cannot just
// be stacked: two paths of different classes may share an edge at different
// distances from their initial points, so disjoint colour ranges do not keep them
// apart (testdata/stacked-classes.json is a two-message counterexample under the
// paper's own conflict rule d_p(e) + C(p) = d_q(e) + C(q)). Here each class starts when the previous one has been delivered; the
// proven bound (Plan.Bound) is the sum over the non-empty classes of
// (2L - 1) k (c_j - 1) + d_j + L - 1, at most 2^k k! ((2L - 1) k (c - 1) + L + d - 1):
// the d term is multiplied by the number of classes too, still O(c + d) for fixed k.
//
// # Cost
//
// Per edge the occupied steps are a timeline: disjoint runs of busy steps sorted in
// chunks of at most B = 128 runs (one chunk on most edges), each chunk keeping its
// largest free gap, the chunks' last steps side by side for the binary search; a
// block that touches a run of its chunk joins it, so a packed stretch is one run
// however many messages fill it. For an edge with r_e <= c_e runs, finding the
// first free block of L steps from time t costs O(log r_e + B + g), g the chunks
// skipped whole (a placement resumes each edge's search where the last one
// stopped, so most searches cost O(1)); insertion and removal cost O(log r_e + B +
// r_e / B). A placement records its spans unsorted (O(1) each) and an edge takes
// them in when it is next searched: one by one when they are few, else sorted and
// merged with its runs in one pass, O(r_e + p log p) for p pending spans. Plan.Colour
// records a span only on an edge that a later message searches. Placing message q
// searches only its entrance edges (at most K of them; exact by Lemma 6's proof, see
// Colorer.PlaceChecking), round robin from the busiest; each push of its start
// skips at least one span that forbids it, so the pushes r_q are at most the
// number of (p, e) pairs with p meeting q on an entrance edge e, at most K(c - 1).
// Placing q costs O((K + r_q K)(log c + B)) for the search and O(d_q) to record its
// spans, whose merging costs at most the insertions it replaces, O(d_q (log c + B +
// c / B)). The colouring of N messages thus costs
// O(sum_q (d_q + K r_q)(log c + B + c / B)), worst case O(N K^2 c (log c + B) +
// sum_q d_q (log c + B + c / B)); memory is at most 8 bytes per (message, edge)
// pair, less where runs merge, plus one chunk header per busy edge. With the
// generic order K = d_q and every edge is searched.
//
// Plan.Colour keeps a heavily used edge's busy steps in a bitline instead (one
// bit a step up to the plan's bound B, with one summary bit per 64-step word
// that is all busy): an edge read by some message whose load c_e is at least
// its number of words, B/64 + 1, so that the bitset is no larger than its runs.
// There a push of the start costs O(1) word operations, or O(w/64) to skip w
// packed words, and recording a span O(L/64 + 1). At 10^6 paths those edges
// (every link of a 32 x 32 mesh, the links near a tree's root) take most of the
// pushes: 43 and 93 tries a placement on average. Plan.Colour also copies each
// block of messages' paths and entrance positions side by side in colouring
// order before placing them, so that the random places the order visits are
// fetched together rather than one placement at a time.
//
// The parts of a plan (the mesh classes) do not meet in time: each starts when
// the one before it has been delivered. Plan.Colour colours each part alone
// from step 0, on a colorer of its own, the parts on up to GOMAXPROCS
// goroutines at once (the largest first), and shifts each by the lengths of
// the parts before it: the same starts as one colorer taking the parts in
// turn, on any number of cores. A span is then recorded only where a later
// message of the same part reads it, and an edge's steps are kept only for the
// parts that read it, its bitline sized for the part's own bound.
//
// The tree order's messages come by the depth of their highest points, and a
// path's edges off its entrance set lie below its highest point, where only
// deeper highest points search. With a second core and more than 4,096
// messages (twice gatherBlock), Plan.Colour records those spans on another
// goroutine while the placements go on (the entrance spans, which the next
// placements read, where they are placed), and waits for it before each
// depth's messages: the same busy steps at every search.
//
// MinEntrances costs O(sum_q sum_{e in q} c_e) plus sorting. Improve runs the greedy
// colorer three more times and Compact (at most 8 rounds of N removals and
// placements) four times.
//
// # Determinism
//
// Nothing is random: ties are broken by message and node index, so the same
// instance gives the same schedule, bit for bit.
package offline
