// Package verify decides whether a schedule is legal for an instance, exactly as
// MODEL.md ("Time and movement", "Legality", "The bufferless model", "Interchange
// formats") defines it, and reports every violation precisely: the rule, the edge,
// the time and both messages.
//
// It imports only package model, and of model only the types, the JSON parsing and
// Instance.Validate: holdings, delivery times and the makespan are recomputed here
// from Message.Path, Message.L and the schedule's cross lists, so that every schedule
// any wormlab algorithm produces is checked by code that shares nothing with it.
//
// # Holding intervals (derived from the "h moves" rule of MODEL.md)
//
// Let message i have path e_1 .. e_d, length L and head crossing times
// t_1 < ... < t_d. Its moves are numbered m = 1 .. d+L; move m happens in step
//
//	M(m) = t_m            for m <= d   (the head crosses e_m)
//	M(m) = t_d + (m - d)  for m > d    (draining, one flit per step; the last
//	                                    move, in step t_d + L, empties the path)
//
// M is strictly increasing. At time t (after step t) the worm has made
// h(t) = #{m : M(m) <= t} moves and holds e_k iff max(1, h-L+1) <= k <= min(h, d),
// i.e. iff k <= h and h <= k+L-1. Because M is increasing,
//
//	k <= h(t)       iff  M(k) <= t      iff  t >= t_k,
//	h(t) <= k+L-1   iff  M(k+L) > t     iff  t <= M(k+L) - 1.
//
// So message i holds e_k exactly during the closed interval [t_k, M(k+L) - 1], and
// a schedule is legal (rule 2) iff on every edge the intervals of the messages using
// it are pairwise disjoint. MODEL.md's example checks out: m0 (L = 2, cross [1, 2])
// holds edge 1 = e_2 during [t_2, M(4) - 1] = [2, t_2 + 2 - 1] = [2, 3]; m1 (L = 3,
// cross [4]) holds it during [4, M(4) - 1] = [4, 4 + 3 - 1] = [4, 6]; m2 (cross
// [6, 7], L = 2) during [7, 8]; the makespan max_i t_d + L - 1 is 8.
//
// # What is checked
//
//   - the instance is valid (Instance.Validate) and neither argument is nil, else
//     RuleInstance and nothing more;
//   - the model is "wormhole" or "bufferless" (RuleModel; the rest is then checked
//     as in the wormhole model);
//   - every schedule entry names an instance message (RuleUnknownID), at most once
//     (RuleDuplicateID; the first entry counts), and every instance message has an
//     entry (RuleMissing);
//   - rule 1: d crossing times (RuleCrossCount), each >= 1 (RuleNonPositive),
//     strictly increasing (RuleNotIncreasing), and t_d + L <= MaxTime so that the
//     arithmetic stays exact (RuleRange). A message failing these has no holdings
//     and takes no further part;
//   - "start", when present, equals t_1 - 1 (RuleStart); a message that may not wait
//     (every message of a bufferless schedule, and any message with "start", which
//     MODEL.md says marks a message that never waits) has t_k = t_1 + k - 1
//     (RuleWaits);
//   - rule 2: no edge is held by two messages at one time (RuleConflict), reported
//     once per edge and pair of messages, at the first time both hold it;
//   - the claimed makespan equals max_i t_d + L_i - 1 (RuleMakespan; checked only
//     when every message has well-formed times, else the makespan is undefined, and
//     only when the schedule claims one: MODEL.md does not require the field, and a
//     schedule read without it (Schedule.NoMakespan) is judged by its own makespan);
//   - claims, for consistency only: lower_bound is at most the makespan
//     (RuleLowerBound), and optimal = true with a lower_bound requires the bound to
//     equal the makespan (RuleOptimal). Whether a claimed bound is true is not
//     decidable here; that is what a solver's certificate is for.
//
// # Store-and-forward schedules
//
// A schedule of model "store-and-forward" (wormlab run --algo store) lists for each
// message the step t_k in which its packet starts to cross e_k; the packet's L flits
// cross e_k in steps t_k .. t_k + L - 1 and it is stored whole at the head of e_k
// before it moves on. The verifier checks them with the same rules but for two:
// t_k >= t_{k-1} + L (RuleStoreHop, reported with the crossing-time rules), and a
// packet occupies e_k during [t_k, t_k + L - 1] only (RuleConflict), queues being
// unbounded. This is written here independently of engine.CheckHops, which checks
// the same rules for the engine's tests; verify still imports only model.
//
// Holdings returns the intervals themselves (for drawing, and for tests that compare
// them with a step-by-step simulation).
//
// # Order
//
// Violations come in this order: RuleInstance; RuleModel; per schedule entry, in
// schedule order, its id, time, start and no-wait violations; RuleMissing in instance
// order; conflicts sorted by (time, edge, instance index of Msg, of Other) with Msg
// the message of smaller index; RuleMakespan; RuleLowerBound or RuleOptimal.
// Schedule returns the first of All.
//
// # Cost
//
// With n messages, E edges and H = sum_i d_i holdings, Schedule costs
// O(n + E + H log H) time and O(n + E + H) memory; All adds O(K log K) for K
// reported conflicts. Neither depends on the makespan.
package verify
