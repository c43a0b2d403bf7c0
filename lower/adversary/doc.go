// Package adversary searches for hard instances of wormhole routing: path sets on
// a fixed network that maximise a ratio such as optimum / lower bound, greedy /
// optimum or optimum / (c_L d), the last the Omega(cd) question of Ranade,
// Schleimer and Wilkerson (FOCS 1994, seed 002, section 5).
//
// # Parts
//
// The search is three kinds of values behind small interfaces, one file each,
// each kind with a registry:
//
//   - Move (move_*.go): change a candidate into a neighbour. Unstructured:
//     reroute, endpoint, length, add, remove, duplicate, swap. Structured, keeping
//     a property: meet-all (the moved worm meets every other, so all pairs keep
//     meeting; c does not rise), grow and reroute-fixed-c (the congestion does not
//     rise), tail-swap (every edge keeps its load), levelled (a shortest path to a
//     destination as far away: levelled paths stay levelled).
//   - Objective (objective.go, implemented in lower/objective): measure a
//     candidate's ratio, exactly where it can, or prove it below a floor cheaply.
//   - Strategy (strategy_*.go): hill climbing with restarts, simulated annealing,
//     a population search.
//   - Ranking (ranking_*.go): the order of candidates of equal ratio.
//
// A Space (space.go) says what may be built: the network, its terminals, the
// routers that make paths (router_*.go: the topology's routings, random simple
// paths, uniform shortest paths), the range of lengths and worm counts, and the
// measures held fixed (Keep). Search (engine.go) runs one Chain per worker.
//
// # Why meetings
//
// On a levelled network whose worms all end on the last level, two worms that
// share an edge are delivered at least L apart when L >= d (the separation lemma,
// lower.AlignedConflicts), so the optimum is chi(path graph) L + d - 1: the
// aligned-colouring bound, met by the phase schedule of a colouring. Hard
// instances there are dense path graphs at a low congestion: the repaired prime
// construction is p^2 pairwise-meeting worms at c = p. The structured moves route
// by a search for paths that meet many worms (meet.go). A Ranking orders
// candidates of equal ratio, where plateau walks go (ranking_*.go): fewest (fewer
// worms, then more meetings) for the ratios that move in steps, such as opt/cd;
// densest (more meetings, then more worms) for those that are 1 almost everywhere,
// such as opt/lower.
//
// # Determinism and parallelism
//
// Each chain has its own random source (seed, chain number). Every SyncEvery
// moves the chains synchronise: each publishes its best and waits for the others,
// and all see the best published (ties: the lower chain). So a search bounded by
// move counts (Config.Iterations) gives the same result for the same seed and
// number of workers, whatever the machine's load, as long as the objective is
// deterministic (the solver is not when it times out). Time and CPU budgets stop
// chains wherever they are. A cancelled context (Ctrl-C) stops every chain at its
// next step with the best measured so far.
//
// # Exactness
//
// A candidate's ratio is the objective's; the engine keeps only measured
// candidates (a Below answer, a ratio proven under the floor without measuring it
// exactly, is never kept). Result.Best carries the schedule behind a makespan
// numerator so that the caller can verify it, and the proven optimum behind a
// side (Score.Opt) so that it can certify it.
//
// # Cost
//
// A move costs O(sum d_i + edges) (copying the set, checking Keep); the meeting
// router O(hops * beamWidth * out-degree * worms / 64), the depth-first search at
// most dfsBudget nodes. Space.Prepare costs O(|Dests| (nodes + edges)) once. The
// objective dominates: see lower/objective.
package adversary
