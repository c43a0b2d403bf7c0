// Package online runs the online wormhole routing algorithms of seeds 002 and 000 on
// the flit-level engine of package engine and reports their schedules together with
// what their theorems claim.
//
//   - greedy (seed 002, section 2.1): every worm is released at time 0 and moves
//     whenever it can. Lemma 1: on a d-levelled network with all paths from level 0
//     to level d, the worms of a path-graph component C are delivered by d + |C| L,
//     whatever the arbitration.
//   - delayed-greedy (seed 000, section II, Algorithm A; AlgorithmA): worm i draws a
//     delay delta_i uniformly from [0, P - 1] and is released at time
//     delta_i T; phase p is the interval (pT, (p+1)T]. P follows the proof of
//     Theorem 4: ceil(k c L) phases when L <= d, and ceil(k c d) when d < L ("a
//     modified version of Algorithm A with kcd phases"; with k c L phases the time
//     would be O(c L^2 log P), above the theorem's O(c d L log P) when d < L), that
//     is P = ceil(k c min(L, d)). AlgorithmA.PerL (wormlab run --kcl) runs
//     ceil(k c L) phases always, as Algorithm A is first stated. Defaults, reconstructed from
//     the proofs of Lemma 3 and Theorem 4 (the extracted text lost the formulas): k =
//     32e (Theorem 5 uses O(32 e c ...) phases), T = 2d + L z with
//     z = 2 ceil(log2 max(n, 2)) for n worms (Lemma 3 bounds the probability that a
//     worm needs 2d + Lz steps after its release; Theorem 4 wants it O(1/n^2)). The
//     doubling schedule of Theorem 5 (AlgorithmA.Doubling) runs rounds r = 0, 1, ...
//     with T_r = 2^r T: each round draws fresh delays for the worms still to be
//     delivered, and at the end of each phase the worms of that phase that are not
//     delivered are removed (they keep phases from interfering, which the analysis
//     assumes) and retried in the next round. The plain random-delay variant of the
//     simulations (seed 000, B.2, STORE and WORM; RandomDelay, "delayed-random") releases
//     worm i at x_i U with x_i uniform in [0, R - 1] (defaults R = c, U = L).
//   - phased (seed 002, section 2.2): phase one gives each worm a colour uniform in
//     {1 .. K}, K = max(1, ceil(alpha Delta)), and runs K sub-phases of exactly
//     S = L lambda + d steps, lambda = max(1, ceil(log2 Delta)); in sub-phase j only
//     the worms of colour j are released (at its start), and at its end the worms of
//     that colour that are not delivered are removed: their flits leave the network
//     and they wait at their sources. The paper's "removed" is exactly this (its
//     section 2.2 explains how a source learns it when L >= d; its conclusion
//     suggests running the network backwards instead); the schedule records only the
//     attempt that delivers, and the counters keep the flit moves wasted on removed
//     attempts. Phase one lasts exactly K S steps whatever happens. Phase two
//     releases all undelivered worms at time K S and runs greedy to the end. The
//     paper's proof takes alpha = 128^2, which makes phase one last 128^2 Delta S
//     steps. The default alpha = 1/2 is measured, not proven (TestExperimentPhased:
//     Ranade's problems on butterflies with 64 and 256 inputs, L = log N, random
//     arbitration, 200 seeds): phase one then leaves 0.04-0.16% of the worms to
//     phase two, at a makespan 2.9-7.5 times the lower bound, against 9.9-30 times
//     for alpha = 2 (nothing left) and 1.5-2.4 times for alpha = 1/8 (2.3-8.4% left,
//     and on the 256-input butterfly a component of P1 above Lemma 3's
//     2 log2 M + log2 N in 173 of 200 runs).
//     Lemma 2: a worm undelivered after phase one lies in a monochromatic component
//     of more than lambda >= log2 Delta worms (by Lemma 1, a monochromatic component
//     of at most lambda worms is delivered within d + lambda L = S steps).
//   - store (seed 000, B.2, STORE): store-and-forward with unbounded queues, packets
//     released after a delay uniform in [0, R - 1] (default R = 1: no delay, as the
//     paper's experiments settled on); see engine.Store. Its schedule has model
//     "store-and-forward" and lists hop times, checked by engine.CheckHops, not by
//     the wormhole verifier.
//
// # The theorems' own bounds
//
// Each algorithm's theorem is exported as a function of an instance, with the
// paper's definitions (lemma1.go, theorem1.go, theorem4.go): GreedyBound (seed 002,
// Lemma 1: d + |C| L per path-graph component), PhasedBound (seed 002, Theorem 1:
// K S + d + (U0 - 1) L, failing with at most Lemma3Probability), AlgorithmABound
// (seed 000, Theorem 4 and Corollary 6: P T, failing with at most n 2^-z) and
// DoublingBound (seed 000, Theorem 5: the expected makespan with doubling). The
// whp bounds carry the probability with which the proof lets them fail.
//
// Seed 000's analysis assumes that any two paths meet in at most one contiguous run
// of edges; every Result says whether the instance satisfies it (Result.Meet).
//
// # Deadlock
//
// On paths whose channel dependency graph has a cycle the wormhole algorithms may
// deadlock; Run then returns the engine's *engine.Deadlock naming the wait cycle.
// The phased algorithm survives a deadlock inside a sub-phase (its worms are
// removed at its end) but not one in phase two. Algorithm A with doubling removes
// a phase's stuck worms at its end and retries them in the next round; once T
// exceeds the worms' total number of moves it reports the paths as deadlocking
// (an error wrapping ErrDeadlock).
// Options.Rotate lets a closed cycle of worms waiting for each other's tails shift,
// as MODEL.md's holding rule permits (engine.Config.Rotate).
// The package leaves it off (the zero Options is Dally and Seitz's reading); the
// command `wormlab run` turns it on by default, so that greedy moves every worm that
// MODEL.md lets move, and offers --rotate=false.
//
// # Algorithms as values
//
// Each algorithm is a value implementing Algorithm (Greedy, AlgorithmA,
// RandomDelay, Phased, StoreForward), one per file, carrying its own parameters;
// Run(ctx, in, alg, opt) routes with it under the shared Options (arbitration,
// seed, rotation). Each file registers its algorithm (Register) with the flags its
// parameters take, so that the command line maps a name to a value through
// Lookup. Trials keeps streaming statistics (Running: Welford's update), O(1)
// memory whatever the number of trials, and stops with the trials done when its
// context is cancelled. Report is the shape of the "online" field wormlab run
// writes.
//
// # Randomness and cost
//
// The algorithm's draws (delays, colours) come from a PCG source seeded by
// Options.Seed, the engine's arbitration from another one: the same configuration
// gives the same schedule bit for bit. A run costs the engine's time (see package
// engine) plus O(n) per phase boundary for the phased algorithms (and O(P) memory
// and time per round of Algorithm A with doubling, P phases) and
// O(sum_e c_e^2) for the path graph and the meeting measure. Release times beyond
// the clock (P T, or R U, near the range of int) are refused as bad input.
package online
