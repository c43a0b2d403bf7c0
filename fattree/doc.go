// Package fattree is wormlab's rerun of Greenberg and Oh's simulation study of
// routing on the butterfly fat-tree (seed 000, "Universal wormhole routing",
// section B): static injection of a closed batch on N = 4^h processors, the
// algorithms STORE, WORM, UNIV and SPLIT of section B.2, the path selections FP, RP
// and GP, the input scans FO, RR and FF, and the patterns random, complement and
// many-to-1 of section B.3. Every variation is a small interface with one
// implementation per file and a registry (Algorithms, Paths, Scans, Patterns).
//
// Two engines run the study:
//
//   - WORM runs on the cycle-level simulator (package sim, RunBatch) with one
//     virtual channel of q flits per link and the Ideal pipeline (one flit-step per
//     hop); FP gives every packet its fixed path, RP and GP route with
//     routing.UpDown (both up links offered, a random or the first free one taken).
//   - STORE, UNIV and SPLIT run on the packet-level step engine of this package
//     (store.go): each input of a node holds one packet (--store-queue: more), a
//     link carries one packet per packet-step, a packet-step of a packet of L
//     flits lasts L flit-steps (a SPLIT flit-packet of 1+a flits lasts 1+a), and
//     latencies are reported in flit-steps as the paper's Table I is.
//
// Readings of the copy (its numbers and several parameters were lost, see
// docs/fattree-study.md): one packet per processor in every pattern, L = 16 flits,
// q = 2, 10 runs per point (the study, experiments/fattree: 20), no initial delays
// unless asked (R = 1), UNIV priorities from [1, N]. UNIV is Leighton, Maggs and
// Rao's algorithm with its ghost packets (univ-ghost); univ is its rank rule alone.
//
// Costs: one STORE run is O(T * (N + S)) for T packet-steps and S switches; one
// WORM run is the simulator's cost, O(cycles * busy routers). Invariants: every
// packet follows a shortest path (climbs to the least common ancestor level, then
// descends), each input queue holds at most one packet (STORE) or q flits (WORM),
// each link carries at most one packet (STORE) or flit (WORM) per step. Runs are
// deterministic functions of their seed.
package fattree
