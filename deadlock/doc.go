// Package deadlock proves, for one topology, routing function and VC count, that
// wormhole routing cannot deadlock, or finds the dependency cycle that can.
//
// Channels are virtual channels: (router, output port, VC). The checker enumerates
// every packet a routing can carry: for every ordered pair of terminals, every
// initial state the routing's Start can produce (Starts), and every state reachable
// from there by Route, Advance and the simulator's own header update (Hops, Port,
// InPort, VC), in a breadth-first search that merges identical (router, held
// channel, header) states. The enumeration is exhaustive for that size: nothing is
// sampled.
//
// Two theorems are checked:
//
//   - Dally and Seitz (IEEE Trans. Computers C-36(5), 1987, Theorem 1): a routing
//     function is deadlock-free if its channel dependency graph is acyclic. An edge
//     c1 -> c2 says that some packet holding c1 may request c2 next.
//   - Duato (IEEE TPDS 4(12), 1993, Theorem 1; the wormhole form of IEEE TPDS
//     6(10), 1995): an adaptive routing function is deadlock-free if it has a
//     connected routing subfunction R1 (the escape choices, declared by the routing
//     through Escaper, choice by choice) whose extended channel dependency graph is
//     acyclic. C1 is every channel R1 supplies to some packet. The checker builds
//     the extended graph over C1 with an edge e1 -> e2 whenever some packet that
//     holds e1 (taken by any choice R allows: the cross dependencies) can request
//     e2 as an R1 choice either at once (a direct dependency) or after a run of
//     channels outside C1 (an indirect one), as Duato defines them. Connected: at every reachable state R offers at least one escape
//     channel, and from every reachable state the escape channels alone lead to the
//     destination.
//
// An acyclic verdict comes with a topological order (its number of levels, the
// longest dependency chain); a cyclic one with a shortest cycle, found by a
// breadth-first search from every channel of the graph's non-trivial strongly
// connected components.
//
// Cost: O(S * (P + V)) for S reachable states and P choices per state, with a hash
// set of states; the cycle search O(C * E) over the C channels and E dependencies of
// the cyclic components only.
package deadlock
