// Package optimal finds schedules of least makespan, with a proof, for the wormhole
// and the bufferless models of MODEL.md, by SAT (github.com/go-air/gini).
//
// Sources: the model and the legality rule are MODEL.md's; the bufferless conflict
// condition is the colouring condition of Ranade, Schleimer and Wilkerson, "Nearly
// tight bounds for wormhole routing" (FOCS 1994, seed 002), section 4.1, made
// contiguous for L-flit worms as in section 4.5; the greedy upper bound is their
// section 4.2 algorithm; the aligned-clique bound generalises their section 5
// argument (all worms pairwise colliding, L >= d: no two in the network at once).
//
// # The question
//
// Encode(in, model, T) is a CNF that is satisfiable iff in has a legal schedule of
// makespan <= T in the model. Solve searches T. Notation: message i has path
// e_1 .. e_{d_i}, length L_i, head crossing times t_1 < ... < t_{d_i}; W_i = T - d_i -
// L_i + 2 is the number of values each of its times can take; n messages; R the
// number of shared runs (below); M_i(m) is its m-th move: t_m for m <= d_i, t_{d_i} +
// (m - d_i) after (the worm drains one flit a step). By MODEL.md rule 2, message i
// holds e_k during [t_k, M_i(k + L_i) - 1], and is delivered at t_{d_i} + L_i - 1.
//
// # Variables (order encoding)
//
//   - Wormhole: for each message i and hop k, t_k lies in [k, T - L_i + 1 - (d_i - k)]
//     (k steps to get there, d_i - k more hops and L_i - 1 drain steps before T); one
//     variable "t_k <= v" for each v but the last: d_i (W_i - 1) variables.
//   - Bufferless: t_k = t_1 + k - 1, so only t_1 in [1, T - d_i - L_i + 2]: W_i - 1
//     variables.
//   - One precedence variable per shared run and pair (wormhole) or per merged
//     forbidden interval and pair (bufferless), unless symmetry or the windows fix it.
//   - Cardinality auxiliaries (card.go): (n_S - 1) K per counter, at most 200,000.
//
// Values outside a window are constants, so no variable is wasted.
//
// # Clauses
//
//   - chain: "t <= v" -> "t <= v+1": W_i - 2 binary clauses per time variable.
//   - hop order (wormhole): t_k >= t_{k-1} + 1 as "t_k <= v" -> "t_{k-1} <= v-1":
//     W_i - 1 binary clauses per hop k >= 2 (the windows are shifted by one, so the
//     constraint is exact).
//   - conflicts: a difference constraint t_b >= t_a + c under a literal p is the
//     clauses (-p, -[t_b <= v], [t_a <= v - c]) for v in b's window, at most W_j + 1
//     clauses of at most three literals.
//     Wormhole: a run is a maximal sequence of edges that messages i and j traverse
//     consecutively together (i's hops k..k+N-1 are j's k'..k'+N-1). One variable p:
//     p means i releases every edge of the run before j takes it, t^j_{k'+q} >=
//     M_i(k+q+L_i) for q < N; -p the reverse. That is 2N difference constraints, so
//     at most 2N (W + 1) ternary clauses per run.
//     Bufferless: sharing e at hops k, k' forbids s_j - s_i in [a - L_j + 1,
//     a + L_i - 1], a = k - k'; a run has one a; intervals of a pair merge; one
//     variable per merged interval [lo, hi]: p means s_j - s_i >= hi + 1, -p means
//     s_j - s_i <= lo - 1: 2 (W + 1) ternary clauses.
//   - cardinality (card.go): sequential counters, about 2 (n_S - 1) K clauses each.
//   - busy slots (busy.go): at the lower bound, where a set S of an edge's users
//     (cut by a release and a tail) has zero slack, every step tau of its window
//     is held by one of them: one clause per step over variables h(i, tau), each
//     with two binary clauses h -> [t_k <= tau], h -> not [M_i(k+L_i) <= tau]:
//     at most 3 |S| |W| clauses per set, |W| = sum_S L_i, and at most 100,000
//     variables in all. Solve guards them with an activation literal assumed at
//     horizons up to the lower bound; Encode adds them outright at its horizon.
//
// Total for the wormhole model: sum_i d_i W_i variables and O(sum_i d_i W_i + sum over
// shared edges of W) clauses, i.e. O((sum_i d_i + sum_e c_e^2) (T - d - L)); with
// no sharing it is linear in the sum of path lengths times the slack.
//
// # Why it is correct
//
// Every assignment gives integers t_k in their windows, increasing along each path
// (hop order), delivered by T (the windows). Legality rule 2 is the pairwise
// disjointness of holdings of each shared edge: [t_k, M_i(k+L_i) - 1] and
// [t'_{k'}, M_j(k'+L_j) - 1] are disjoint iff M_i(k+L_i) <= t'_{k'} or
// M_j(k'+L_j) <= t_k, exactly the two sides of p. One literal serves a whole run
// because the order is the same on every edge of a run: if i goes first on e_k and j
// first on e_{k+1}, then M_i(k+1) <= M_i(k+L_i) <= t'_{k'} < M_j(k'+1+L_j) <=
// M_i(k+1), a contradiction. Different runs of one pair get different literals
// (a worm may overtake another between runs). In the bufferless model the same
// disjointness on every shared edge is the forbidden-difference condition.
// Conversely every legal schedule gives a model (set every "t <= v" by its value
// and every p by the order on its run).
//
// Symmetry: messages with the same path and length are interchangeable, so every
// legal schedule can be relabelled to one where they go in index order (fixed, no
// variable). Cardinality constraints and clique bounds hold in every legal schedule.
// Hence Encode(T) is unsatisfiable iff no schedule of makespan <= T exists.
//
// # The edge-set bound
//
// When the best schedule is above the lower bound, Solve runs the edge-set bound
// (edgeset.go; Options.NoEdgeSet): at T = lower, lower + 1, ... it takes the
// tight edges at T (slack at most 3), cuts them into groups no message links
// (at most 4 edges each, tightGroups), relaxes the instance to one group's
// constraints at a time, and searches the relaxation exhaustively (time forward
// over the edges' slots, per-edge earliest-deadline-first and counting tests, an
// exchange dominance between interchangeable worms, failed states remembered). A
// relaxation with no solution proves that no schedule of makespan <= T exists, and
// the bound becomes T + 1. It catches several saturated edges in series, which no
// one-edge bound and no SAT solver we tried sees: on issue 16's frontier tree the
// edge bound is 148, the edge-set bound proves 150 in 13 ms (bufferless) and 33 ms
// (wormhole), where cadical gave no answer in 600 s at 149 even on the three-edge
// relaxation. It costs about a millisecond where no edge is tight and stops after
// 2^20 search nodes over all its horizons (a count, so that the bound does not
// depend on the machine's load; about 4 s of CPU). With one worker it runs with
// 2^16 nodes before the schedule searches and again with the whole budget once
// the descent (below) has had its first answer, before the probes, which are
// what need it: on issue 27's 6x6 mesh of seed 1 the bound 78 took 779,432
// nodes, 2.5 s of CPU that delayed the first SAT schedule, before tightGroups
// (now 32,747 nodes in the wormhole model, within the first pass). Its proof is the search itself; certify checks it with a search of its own
// (or says it cannot).
//
// # The schedule search
//
// Before any formula is built, Solve runs constraint-programming searches for
// schedules (Options.NoCP switches them off): cp.go searches bufferless schedules
// (one start per message), cpwormhole.go wormhole schedules (one time per hop,
// heads may wait). Both treat each shared edge as a unary resource, propagate
// bounds through the pairwise conditions and check overload per edge, and search
// depth first, fixing the variable with the smallest possible value to that value
// (the search a scheduler uses; Gecode's int_search(starts, smallest, indomain_min)
// over one disjunctive constraint per edge is the same idea), with Luby restarts.
// A bufferless schedule is also a wormhole schedule, so the bufferless search
// serves both models and runs first. The searches run at the lower bound (20,000
// failures; the wormhole search a quarter of that), where a schedule is optimal at
// once with no SAT call, then, if they fail there, at each horizon below the best
// makespan (5,000 failures) until one fails; the SAT search starts from the best
// schedule found. In bufferless solves with the large-neighbourhood search
// (below) the bufferless search at the bound runs in two parts, one search
// (cpRestarts keeps its restarts, failures and random source between them,
// so it answers as one call does): its first 2,000 failures, then the steps
// and the neighbourhood search's first moves, then the rest of its budget
// (before the neighbourhood search where the steps end one above the bound).
// On issue 27's 10x10 mesh of seed 3 the search at the bound fails, and run
// first it delayed the neighbourhood search's first schedules past cadical's
// first answer on wormlab's formula (docs/solver.md). They are skipped above 20,000 variables (each node scans them)
// or when their pairs would exceed the memory budget. After the bufferless stage
// of a wormhole solve, the bufferless search is not run again where the stage
// settled it: below the stage's bufferless bound, and at the horizon where the
// stage's search with the first budget failed (the search is deterministic, so
// it would fail again; on issue 27's 8x8 mesh of 768 messages, seed 2, that
// repeat was 20,000 failures, seconds of CPU, before the wormhole SAT search).
//
// On the six instances of issue 16's table the optimum equals the lower bound and
// the bufferless search meets it within 119 failures, so no formula is built; on
// its frontier tree it finds the optimum 150 in 1,632 failures, and the edge-set
// bound proves it (docs/solver.md). The searches
// are used only to find schedules: a tree they exhaust proves nothing here, since
// nothing independent checks it (the SAT answers are checked by certify's DRAT
// checker).
//
// # The bufferless stage
//
// A bufferless schedule is a wormhole schedule, so a wormhole solve first runs
// the whole bufferless solve (stage.go; Options.NoStage skips it) and starts from
// its schedule: where that schedule meets the wormhole lower bound (the model's
// bounds and the aligned-clique bound, valid for the wormhole model), no wormhole
// schedule search or formula is needed, and the statistics say
// answered "bufferless". The bufferless lower bound is not used: a worm that
// waits can do better. With a deadline, or a limit Options.Left reports (wormlab
// solve --cpu-limit), the stage gets nine tenths of the time left and the
// wormhole bounds and search the rest (until issue 27's third session the stage
// had half of a deadline and the whole of a CPU limit, so that on the 6x6 mesh
// of seed 1 the wormhole edge-set bound never ran at 20 s of CPU). On
// issue 27's meshes with random shortest paths this makes the wormhole solve as
// fast as the bufferless one wherever their optima agree with the bound (5 of
// the 6 instances of its table); before, the wormhole search was 2-12 times
// slower there or did not finish in 60 s.
//
// # Search
//
// Solve builds one formula for H = (upper bound) - 1 and imposes T < H by the
// literals "t_{d_i} <= T - L_i + 1" (the chains propagate the rest): T = lower
// bound as assumptions on a second solver built fresh from the same clauses (the
// probe), and T = best - 1 downwards as unit clauses on the first (the descent),
// in turns of two million propagations each (about half a second of CPU on
// issue 27's 10x10 meshes). The descent goes first, alone, until its first
// answer (at most five turns); the probes then start and catch up to their
// share, so its head start is lent, not given. The probe is two solvers asking
// the same question in turns, one with gini's own initial phases and one with
// the saved phases of the best schedule so far (hint.go, with half the turn):
// a satisfiable CDCL call is heavy-tailed, and on issue 27's meshes each of
// the two answered where the other did not within 20 s of CPU. A gini call paused at the end of
// its turn goes on where it was at its next turn, so each solver's search is
// the same however the turns fall; which of the two answers first can depend on
// where gini pauses (every 20,000 propagations). A refuted probe raises the lower
// bound and the next probe starts on a fresh solver; once the descent reaches one
// above the probe's horizon, the probe runs alone. When the descent's next step
// is eight or more below the horizon of its formula, it encodes the formula
// again at the step's horizon (smaller, and the chains of every worm shorter)
// and goes on from there on a fresh solver with the best schedule's phases,
// its encoding charged to its share (issue 27: the committed family run,
// experiments/solver-random/results.jsonl, has the 10x10 mesh of seed 3 at 93
// in the wormhole model and 91 in the bufferless one at 20 s of CPU, 93 in both
// in the run before it; docs/solver.md). Optimal is set only when the
// horizon one below the makespan was proven unsatisfiable or the makespan meets a
// proven lower bound (model.Instance LowerBounds, the aligned-clique bound of
// clique.go, which is proven there, the edge-set bound, or a bound of package
// lower, below). Every schedule Solve returns has passed verify.Schedule.
//
// A formula over the memory budget (Options.MaxMemory, size.go) is not built
// (Stats.Skipped says so). Solve then computes the bounds of package lower that
// fit the budget (lower.BoundsWithin: the aligned-conflict bounds, the
// edge-sequence bound, the disjunctive search up to lower.MaxDisjunctions, each
// capped in search nodes), which nothing stronger replaces without a formula,
// and runs the schedule searches at the new bound; the best schedule is optimal
// when it meets it (three worms of 10^6 flits on a line of three nodes: the
// disjunctive bound 2000001, which the greedy schedule meets, where the formula
// would take 4.8 GB).
//
// In bufferless solves (so in a wormhole solve's stage) a large-neighbourhood
// search (lns.go; Options.NoLNS or NoCP skip it) runs after the schedule
// searches' steps (before the rest of the search at the bound, above), while
// it improves the best schedule, and then as a fourth lane
// of the SAT search's turns (beside the descent's head start while its turns
// improve the best schedule, then with half of the descent's share: 2 : 1 :
// 1 : 1; an idle lane's turns cost it up to 32 times more): each move fixes
// every worm but a few dozen near one
// that finishes last and asks the schedule search to finish them all a step
// earlier. The formula's horizon, the descent's first step and the hinted
// probe's phases are those the solve would have without it, so the probes
// search as before with a smaller share of the CPU, and the descent's later
// steps go from the better schedule.
//
// With Options.Workers = 2 (`wormlab solve --workers 2`) the probe at the lower
// bound and the descending search run at once on two solvers, and whichever
// settles the optimum first stops the other; the optimum is the same, but which
// optimal schedule is returned may differ from run to run.
//
// The upper bound is the best of Greedy (section 4.2's colouring with section 4.5's
// contiguous colours, three orders), Options.Upper, the schedule search and the
// large-neighbourhood search.
//
// # Structural aids
//
// Plain CDCL needs resolution proofs of exponential size when many worms pairwise
// conflict (the pigeonhole principle), and counting the steps of a saturated edge
// is the same argument; the busy-slot clauses (Options.NoBusy) state the count
// outright where it is tight. Three more aids, each switchable in Options:
// symmetry breaking between identical worms; the aligned-clique lower bound (a
// Jackson preemptive one-machine bound over a clique whose conflicts line up, see
// clique.go), which settles the all-pairs-colliding family of section 5 without a
// solver call; and sequential-counter cardinality constraints over the same cliques
// (card.go), which let the solver count instead of enumerate orders.
//
// Measured (2 cores, WORMLAB_LONG=1 go test -run TestExperimentAids / -bench .):
// on the repaired prime construction (p^2 worms, all pairwise colliding) the clique
// bound alone settles p = 11 (121 worms) in 0.07 s; with the bound off, the
// counters prove p = 5 (25 worms, L = 11) in 0.4-1.4 s where plain CDCL (every
// aid off) has not finished in 20 s, and cadical needs more than 600 s on the
// p = 5, L = 5 bufferless formula without counters (0.10 s with them).
// BenchmarkSolvePrime (p = 3): all aids 0.21 ms, no clique bound 8.8 ms, none
// 494 ms. Symmetry breaking pays on worms with identical paths (three copies of
// each p = 3, L = 3 worm: the lower-bound probe is refuted only with it) and costs
// a few conflicts on satisfiable horizons.
//
// # gini
//
// gini v1.0.4 exports no statistics; the conflict count is read by reflection
// (conflicts in solve.go). Two behaviours shape the search: Try leaves its deadline
// armed (so Solve runs through GoSolve, polled, and stopped on cancellation), and a
// Solve after an "unsatisfiable under assumptions" answer can return a model that
// violates a clause (gini's own check fails), so the assumption probe runs on a
// second solver, loaded afresh (gini's Copy loses the decision heuristic's decay
// settings, see run in solve.go), which is dropped after its one call. Decode checks every clause and Solve verifies every
// schedule, so such a fault cannot reach a caller.
//
// # Readings of MODEL.md
//
// A schedule of no messages has makespan 0 and is optimal. In the bufferless model
// Options.Upper must not wait (t_k = t_1 + k - 1). The formula for a horizon below
// some message's d + L - 1 is the single empty clause.
package optimal
