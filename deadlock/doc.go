// Package deadlock decides, for one topology, routing function, VC count and VC
// reallocation rule, whether wormhole routing can deadlock: exactly (Exact), or by
// the sufficient conditions of Dally and Seitz and of Duato (Check). docs/deadlock.md
// has the readings, the proofs and the figures.
//
// # The exact decision
//
// A deadlock configuration (config.go) is a set of packets, each holding a legal
// chain of VCs with its head stuck: under atomic reallocation every VC a head may
// request lies on a chain; under non-atomic reallocation (a VC is reused once the
// previous tail has left its router) every request is owned, or the head was
// granted a chain's full tail VC. Both are necessary and sufficient for a state of
// wormlab's router in which no flit ever moves again (Verbeek and Schmaltz, IEEE
// TPDS 22(12), 2011, give the first static necessary and sufficient condition,
// one that needs no analysis of network states and covers incoherent routing
// functions; the definitions here are wormlab's own, written for its router and
// proved in docs/deadlock.md). The decision:
//
//   - graph.go, hash.go: every packet state (router, VC held, header) reachable by
//     the routing's Starts, Route and Advance, merged by bisimilarity into a DAG of
//     classes; a routing's Canon (Canonical) clears the header fields it never
//     reads, so that merging happens before enumeration;
//   - fixpoint.go: the greatest set U* of VCs every configuration lies in, in
//     O(classes + edges); empty means deadlock-free, and its order of deletion is
//     the certificate; it empties for every routing Dally-Seitz or Duato proves;
//   - minimal.go: the request graph over U*, whose girth bounds the packets of any
//     configuration from below, and configurations along its shortest cycles
//     (under non-atomic reallocation one always exists when U* is not empty);
//   - encode.go, exact.go: the SAT formula of configurations (gini), for what the
//     rest leaves: existence, and the fewest packets by a counter (the problem is
//     co-NP-complete: Verbeek and Schmaltz 2011);
//   - replay.go: a configuration replayed in package sim from an empty network
//     (steered packets released by difference constraints, helper packets),
//     until sim's detector reports the deadlock;
//   - run.go: Exact, the whole of it, and its report; svg.go: the picture.
//
// Package certify checks the verdicts with its own enumeration (order, DRAT
// refutation, configuration and replay).
//
// # The sufficient conditions (check.go, cycle.go)
//
// Check enumerates every packet state and checks Dally and Seitz's condition (IEEE
// Trans. Computers C-36(5), 1987, Theorem 1: the channel dependency graph is
// acyclic) or, for a routing that declares its escape subfunction (Escaper),
// Duato's (IEEE TPDS 4(12), 1993, Theorem 1; 6(10), 1995: a connected escape
// subfunction whose extended dependency graph, with direct, indirect and cross
// dependencies, is acyclic), with a shortest cycle when it fails. Duato's
// condition is necessary as well only for a restricted class of routing
// functions (Schwiebert and Jayasimha, JPDC 32(1), 1996, say so; Verbeek and
// Schmaltz 2011 name incoherent routing functions as the case left open), so a
// cycle there does not mean a deadlock; Exact decides.
//
// # Cost
//
// Exact: one Route call per canonical state, O(classes + edges) for the fixpoint,
// O(classes x |U*| / 64) words for the request graph (in blocks bounded to 256 MB),
// exponential in the worst case for the formula. Duato's protocol on a 16x16 torus:
// 259,584 states, 194,304 classes, 0.2 CPU-s and about 80 MB. Check: O(S (P + V))
// for S states and P choices per state, with Go maps (12 CPU-s and 2.2 GB for the
// same routing).
package deadlock
