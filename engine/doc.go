// Package engine is wormlab's flit-level simulator: a deterministic step function for
// the wormhole model of MODEL.md (a static batch of worms on fixed paths, one-flit
// buffers, whole worms moving together, pipelining) and a store-and-forward mode for
// comparison. The online algorithms of package online drive it; it knows nothing of
// them.
//
// Sources: seed 002 (Ranade, Schleimer, Wilkerson), section 1.2 (the model: a head
// advances when its link is free and the buffer unoccupied, and the whole worm moves
// with it); seed 000 (Greenberg, Oh), section II (nodes scan their input queues and
// send a head out when its outgoing edge is not held by another worm) and section
// B.2 (STORE: greedy store-and-forward).
//
// # State
//
// Worm i with path e_1 .. e_d and length L has made h_i moves (0 <= h_i <= d + L).
// Its move m happens in step M(m), where M(m) = t_m (the head crosses e_m) for
// m <= d and M(m) = t_d + (m - d) afterwards (the worm drains into its destination).
// Move d + L - 1 is the tail crossing e_d: the worm is delivered at t_d + L - 1.
// Move d + L is bookkeeping: it happens in step t_d + L, moves no flit, and releases
// e_d, as MODEL.md's rule 2 counts it. Between moves the worm holds
//
//	e_k for max(1, h - L + 1) <= k <= min(h, d),
//
// i.e. it holds e_k at times [M(k), M(k+L) - 1]. Its tail edge is e_{h-L+1} (when
// that index is in 1..d): the edge whose buffer holds the worm's last flit.
//
// # The step rule (derived from MODEL.md)
//
// Step t moves the worms of a set S chosen as follows. A worm is draining when
// h >= d; a draining worm always moves (its head has arrived: "it can no longer be
// blocked"). Any other released worm requests its next edge f = e_{h+1}. The edge
// is available in step t when
//
//   - nobody holds f, or
//   - f is held by worm i whose tail edge is f (h_i = k + L - 1 where f = e_k of i)
//     and i moves in step t: i's move k + L releases f in the same step in which the
//     new head enters it (pipelining: "a head may follow another worm's tail with no
//     gap").
//
// If f is held by a worm whose tail is not on f, f cannot be available in step t.
// Among the heads that request f, the arbitration policy picks one winner before
// availability is known (the switch grants the output to one input); only the winner
// may enter, and it enters iff f is available. A winner's move may therefore depend
// on the holder's move, which may depend on another holder, and so on: the engine
// follows these chains. A chain that closes on itself (every worm of a cycle winning
// the edge that holds the tail of the next) does NOT move by default: the engine
// treats a cyclic wait as a wait, as Dally and Seitz's deadlock condition does (a
// router cannot learn that a full ring of buffers empties as it fills). MODEL.md's
// holding rule also allows the whole cycle to shift by one edge; Config.Rotate lets
// it. Either way a step with no move repeats itself until a worm is released or
// removed, except under the random policy with Rotate, where another draw may let a
// cycle win all its edges: there the engine keeps stepping while such a cycle of
// requests exists. This makes deadlock detection exact: a *Deadlock means that no
// worm can move again under the configured policy.
//
// The set S satisfies MODEL.md's legality rule by construction: an edge is entered
// only when free or released in the same step, and at most one head enters it.
//
// # The step function
//
// Engine.step simulates one step in five named phases, each a method: request
// (draining worms move, the others ask for their next edge or sleep on it),
// arbitrate (the policy's Arbiter picks one winner per edge), resolveWinners (a
// winner moves iff its edge is free or freed in this step, following chains of
// tails: resolve), apply (tails leave before heads enter, so a head may follow a
// tail with no gap) and settleRequesters (losers sleep or stay awake: settle). The
// per-worm marks of one step are named (mark: resolving, moves, waits,
// settledAwake, settledAsleep, settling) and cleared at its end.
//
// # Arbitration policies
//
// Ties among heads requesting one edge f with tail node u are broken by a policy, a
// value implementing Policy (one file arb_*.go per policy, each registered by name
// for the command line: Register, Lookup, Policies; Config.Policy takes any value):
//
//   - "message": the smallest message index wins (a fixed order by message);
//   - "input": the head arriving on the input edge of smallest index wins, heads still
//     at their source come last (a fixed order by input edge, seed 000's "fixed
//     order" scan FO), ties by message index;
//   - "random": uniform among the requesters (listed by message index), drawn from
//     the engine's PCG source;
//   - "round-robin": each edge f keeps a pointer over the input ports of u (its
//     input edges in the order of Network.In(u), then the injection port); the first
//     requesting port at or after the pointer wins and the pointer moves past it when
//     the winner enters (seed 000's RR scan); ties at the injection port by message
//     index;
//   - "farthest": the head with the most hops still to go (d - h) wins (farthest
//     destination first, seed 000's FF); ties by message index;
//   - "oldest": the worm released earliest wins (ties by message index).
//
// # Injection queues
//
// The worms released at one source that wait for the same first edge f form an
// injection queue ordered as the policy would order them (all share the injection
// port): by message index, or most hops first (farthest), or earliest release
// (oldest; random serves its injection queue oldest first). Only the queue's first
// worm requests f; for every policy but random this picks exactly the winner the
// policy would pick among all waiting worms, and it keeps a step's work independent
// of how many worms wait at the sources.
//
// # Cost
//
// The engine is event-driven. A worm sleeps on edge f while f's holder cannot free
// it in the next step (its tail is elsewhere, or it is itself asleep); it is woken
// when the holder's tail arrives on f, when the holder wakes, or when f is freed. A
// step therefore costs O(a) where a is the number of awake worms (worms that move, or
// whose request could be granted in this step), plus O(1) per woken worm and
// O(log q) per injection-queue operation; idle stretches between release times are
// skipped in O(log n). Counters.Examined / Counters.WormMoves measures it: 1.25-1.3
// on a 1024-input butterfly and 1.3-1.8 on a 32 x 32 mesh with 10^4-10^5 worms,
// where an engine looking at every released worm in every step would do 5.6-181
// times the number of moves (Counters.Resident; BenchmarkGreedy). Memory is
// O(n + |E| + sum_i d_i) for n worms, the recorded crossing times included.
//
// # Determinism
//
// Every iteration order is fixed (by insertion, from a deterministic start), and the
// only randomness is a math/rand/v2 PCG source seeded by Config.Seed: the same
// instance, configuration and driver calls give the same schedule bit for bit.
//
// # Drivers
//
// The engine does not decide who may try: its driver does, through Release (worm i
// may start after time t) and Remove (take a worm off the network: a delivered worm
// finishes, an undelivered one loses its flits and waits at its source again). Run
// advances the clock to a time limit or to the end; a permanent stall with nothing
// left to release is a *Deadlock naming the wait cycle.
//
// # Store-and-forward
//
// Store runs seed 000's STORE: a packet of L flits is received whole at every node
// before it is forwarded, node queues are unbounded, and an edge carries one packet
// at a time, so a hop occupies its edge for L consecutive steps. The result is a list
// of hop times (the step in which the packet's first flit crosses each edge), which
// CheckHops verifies by its own rules: hop times are positive, t_{k+1} >= t_k + L,
// and on every edge the intervals [t, t + L - 1] of distinct packets are disjoint.
// With L = 1 this is MODEL.md's store-and-forward model: one packet per edge per step.
package engine
