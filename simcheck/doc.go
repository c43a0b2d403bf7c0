// Package simcheck is the independent checker of the simulator's invariants. It
// reads a trace of flit and credit events (sim.Event, the only thing it shares with
// package sim) and the topology, and rebuilds from them, by its own bookkeeping:
//
//   - credits: every output VC starts with Buf credits, loses one per flit sent on
//     it and gains one per credit received; the count never falls below zero nor
//     rises above Buf (likewise for the source queues' injection VCs);
//   - buffers: every input VC's occupancy (arrivals minus departures) stays within
//     0 .. Buf;
//   - channels: at most one flit is sent per output port per cycle (the ejection
//     port excepted when Params.EjectAll), and one injected per injection port;
//   - links: the flits sent on a link arrive at the far end in the order sent, on
//     the same VC, Params.Hop cycles later when Hop is set (Hop - Params.Link +
//     the link's latency where the topology sets one, topology.Latency);
//   - order: on every VC the flits of one packet pass contiguously and in order
//     (head first, each flit the next of its packet), and they are delivered in
//     order, at the packet's destination, each exactly once;
//   - credits come back: the credit of a slot reaches the output VC upstream
//     Params.Credit cycles after the flit left the slot (one cycle for a source's
//     injection VC; Credit - Link + the link's latency, at least 1, on a link of
//     the topology's own), never for a slot that no flit left; after a drained batch
//     (FinishDrained) every credit count is back to Buf and every buffer and
//     link is empty;
//   - terminals (topology.TerminalsOf): a packet is generated at the router its
//     source terminal injects at, for the router its destination terminal ejects
//     at; where several terminals inject at a router each uses its own injection
//     port; a packet leaves by its destination terminal's ejection port;
//   - grants: a head is granted an output VC only after it was routed at the
//     front of its input VC, only one its Route event's choices allow (and below
//     Params.VCs), and it leaves by the output VC it was granted: a VC allocator
//     that ignored the routing's VC classes would break the routing's deadlock
//     freedom while every rule above still held;
//   - injection limit: with Params.InjectLimit, a source terminal never has more packets
//     in the network (head injected, tail not delivered) than the limit;
//   - accounting: at the end of every cycle (the simulator's Tick event) the
//     simulator's counts of packets generated, packets delivered and flits in
//     the network equal the checker's own from the events, so delivered + in
//     flight = generated holds cycle by cycle; every generated packet is
//     delivered whole or still in the network at the end;
//   - latency: with Params.Latencies, Report.Latencies lists every delivered
//     packet's latency (generation to tail delivery) and the links its head
//     crossed, rebuilt from the trace, for the caller to compare with the
//     simulator's statistics.
//
// Cost: O(1) amortised per event; memory O(routers * ports * VCs) plus the packets
// in flight.
package simcheck
