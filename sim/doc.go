// Package sim is wormlab's cycle-level network simulator: input-queued wormhole
// routers with virtual channels and credit-based flow control over any
// topology.Network, open-loop traffic with steady-state statistics, closed batches,
// and the theory model of MODEL.md as the special case V = 1, B = 1, Ideal
// pipeline, fixed paths.
//
// # The router
//
// Every node is a router. Each input port (the network's input ports and one
// injection port per terminal attached, at least one) has V virtual channels of B
// flits; each output port (the network's and one ejection port per terminal
// attached, at least one) has V output VCs, each with a credit count of the free
// slots of the downstream VC. Terminals are apart from routers
// (topology.TerminalsOf): a concentrated network attaches several to a router, a
// butterfly injects at its first stage and ejects at its last; packets go from a
// terminal to a terminal, routings see the routers (Header.Src and Dst), and
// loads, patterns and per-node statistics count terminals. A topology may set a
// link's latency (topology.Latency: a dragonfly's local and global channels); it
// replaces Pipeline.Link on that link, and the credit coming back takes
// Pipeline.Credit - Pipeline.Link + that latency (at least one cycle).
//
// A VC is allocated to a packet when its head wins VC allocation and released when
// its tail leaves (BookSim2's default); one flit crosses each channel per cycle; a
// terminal consumes one flit per cycle (any number with Config.EjectAll).
//
// # The cycle
//
// One cycle is a few named phases, each a method of the engine, in this order:
//
//	generate     open-loop arrivals join their source queues (open.go) or a batch's
//	             released packets (batch.go)
//	receive      flits, credits and deliveries due this cycle take effect (engine.go)
//	inject       each source sends one flit into its router's injection VCs (engine.go)
//	route        heads at the front of idle VCs get their choices (route.go)
//	allocVCs     separable VC allocation: selection at the input, arbitration at
//	             each output VC (vcalloc.go)
//	allocSwitch  separable switch allocation, input then output arbiters, and the
//	             traversal of every grant (swalloc.go)
//
// (Generating first or after receiving is the same: arrivals only join queues.)
// The packets delivered whole in a cycle reach the run's statistics at its end, in
// router order (part.go).
//
// Delays (Pipeline) are whole cycles; Pipeline.ZeroLoad is the latency of a packet
// alone in the network, exact when Buf >= Pipeline.MinBuf():
//
//	T0 = Inject + (h+1)(Route + VCAlloc + SwAlloc + Traverse) + h Link + Eject + (L - 1)
//
// # Variation
//
// Routing (routing.go: Start, Route, Advance) is the routing function (a packet
// ends at its destination unless the routing is an Arriver that says it goes on,
// as Valiant's first phase does; a Sensing one, UGAL, reads the queues behind a
// router's output ports through Congestion); Selector
// (select.go: first, random, credits) picks among the free output VCs of the
// lowest Choice.Pri; Arbitration (arbiter.go: round-robin, fixed, random) makes the
// arbiters of switch inputs, switch outputs and output VCs. Each has a registry.
//
// # Determinism and cost
//
// A run is a function of Config.Seed: each purpose (arrivals, destinations, sizes,
// routing, selection, arbitration) draws from its own math/rand/v2 PCG stream, and
// selection and arbitration from one per router. The context is looked at by
// work, not by cycles: once the cycles since the last look have visited about a
// thousand busy routers and sources (every cycle of a large busy network, every
// 1,024 cycles of an idle one), so that a cancellation acts within a cycle at any
// size. Each phase visits routers in increasing order, and of a router only what
// can act: routing the input VCs with an unrouted head, VC allocation those
// waiting for a VC, switch allocation the input ports holding a flit, whose bids
// it reads from four masks per port (VCs holding a flit, holding an output VC,
// with a credit, past their VC allocation delay) kept where a VC changes (bit
// masks per router, per port and per VC): O(busy routers + busy ports) per cycle
// plus O(1) per grant. So only the order of what happens in one cycle depends on
// the visiting order: deliveries of one cycle reach the statistics in router
// order. With the registered arbitrations but random (arb_flat.go) the switch's
// arbiters are one int32 each and pick from bit masks of requesters (allocFlat);
// random, another Arbitration, or Latch, takes the general path (allocRouter),
// which a test holds equal to allocFlat where both apply. Events are kept on one wheel per kind
// (flits to buffers, flits to sinks, credits), each the least power of two above
// the pipeline's longest delay, with buckets apart per delay (a dragonfly's local
// and global channels), so that a bucket's array, reused when taken, is the next
// one written by events of its own delay; buffers and request lists are allocated once, so
// the cycle loop allocates only when a source queue or the packet table grows. VC
// numbers leave a power of two per port. Memory: O(ports V B) flits per router;
// EngineBytes, OpenBytes and BatchBytes estimate a run's memory before it
// allocates, and a run above Config.MaxMemory is refused with a *MemoryError
// (limits.go). An open-loop run keeps its source queues within Measure.MaxQueue
// packets: a queue past it ends the point as saturated.
//
// # Threads
//
// A run takes Config.Threads threads (by default one per core from
// ParallelRouters routers on): its routers are cut into as many partitions of
// whole 64-router words (part.go), each with its own wheels of the events it
// schedules and its own sources, and the partitions run each cycle's phases at
// once. What crosses partitions is an event at least a cycle ahead, read by the
// receiving partition in a later cycle; deliveries, counts, the deadlock test and
// the arrivals are done by one thread at the cycle's end. With every router's
// draws its own, a run is the same, bit for bit, whatever its threads
// (TestThreadsSameRun); a traced run and Latch take one. A routing that reads the
// network's state (Sensing, UGAL-G: other routers' queues) makes each cycle run
// phase by phase over all routers, so that every head routed in a cycle reads the
// same state, the credits after the cycle's arrivals (part.go's cycle).
//
// An open-loop run whose cycle touches more state than the caches hold
// (blockFrom, 3 MB: a 48x48 torus and up) takes blocks (block.go): each word
// of 64 routers runs as many cycles in a row as the shortest delay between two
// routers allows (a credit's or a link's: two on the booksim torus), then the next
// word the same cycles, so its state is loaded once a block instead of once a
// cycle. Deliveries still reach the run cycle by cycle in router order and the
// block's later arrivals are drawn ahead in cycle order, so a run is the same,
// bit for bit, with blocks or without (TestBlocksSameRun,
// TestPropertyBlocksSameRun). A block that meets a routing error has run other
// words' cycles past it, so such a run is run again without blocks. On several
// threads a run takes blocks whatever its size: each partition runs a block's
// cycles over its own words at once with the others, with a barrier per block
// instead of per cycle (no router reads in a block what another writes in it).
//
// # Open loop, batches, the theory model
//
// RunOpen measures a steady state: MSER-5 warm-up, batch means with a 95% interval,
// the stop rule by relative half-width within a cycle budget, and saturation
// declared with its reason (accepted load behind generated beyond the packets a
// steady state holds in flight, latencies growing, or no warm-up end); a
// saturated Result carries no latency. Its record of deliveries (stats.go) keeps
// every latency up to Measure.Exact packets (2^20 by default; 6 bytes each and 24
// a block of five), where every statistic equals package steady's on the whole
// series; past it the record streams: at most 2^16 blocks of b packets (the sums
// of their latencies and flits, b doubling as blocks merge), MSER on block means,
// batch means over whole blocks, and 64 segments each with a latency histogram
// (steady.Histogram: exact below 1024 cycles, within 0.2% above) and latency sums
// by hop count, read from the first segment at or after the warm-up cut. So
// memory is flat in run length, and the stop rule sorts nothing. RunBatch routes a
// closed batch; a batch's packet may carry its routing state at the source
// (Packet.Start) and a preferred VC per hop (Packet.Steer, taken whenever it is
// free, so a steered head never waits while a VC it is offered is free): package
// deadlock replays a deadlock configuration that way, from an empty network.
// Theory is MODEL.md's model (V = B = 1, Ideal, fixed paths, EjectAll,
// InjectPerPort and Latch: a flit may enter a buffer in the cycle its occupant
// leaves, and a head takes an output VC only in the cycle it moves); under FixedOrder
// (RoundRobin) its schedule is package engine's greedy run with the input
// (round-robin) policy, crossing time by crossing time, with or without Rotate
// (theory_test.go). docs/simulator.md has the details.
//
// # Deadlock
//
// When no flit has moved for Config.DeadlockCycles cycles while flits are in the
// network, the run ends with a *DeadlockError carrying a cycle of the wait-for graph
// of input VCs (router, port, VC, packet). An open-loop run (RunOpen) also looks
// every DeadlockCycles cycles for a deadlock of part of the network while other
// flits move: a closed set of waiting input VCs (each holds a routed flit whose
// every move another member bars), found at two looks in a row with the same
// flits at their fronts, ends the run with a *DeadlockError whose StuckVCs is
// the set's size (deadlock.go). A batch that can no longer end (packets
// undelivered with nothing in the network, queued or due, or past
// BatchOptions.MaxCycles) ends with a *StallError; a delivered batch runs on until
// the last credits are back, so that its trace ends with the network drained.
//
// # API
//
//	RunBatch(ctx, cfg, []Packet, BatchOptions) (*BatchResult, error)
//	RunOpen(ctx, cfg, Workload, Measure) (*Result, error)
//	Theory(ctx, *model.Instance, Arbitration, seed) (*model.Schedule, *BatchResult, error)
//
// Invariants (checked from the trace by package simcheck): credits stay within
// 0..Buf and come back Credit cycles after their slot is freed, buffers within Buf,
// one flit per channel per cycle, flits of a packet contiguous and in order on
// every VC, the injection limit, every generated packet delivered or still in
// flight at the end of every cycle (the Tick event carries the simulator's own
// counts), every credit back to Buf once a batch has drained.
package sim
