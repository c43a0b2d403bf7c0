package fattree

// Limits of a study's numbers and its memory estimate (issue 26: a SPLIT of 10^11
// flits panicked in makeslice, --overhead 10^18 printed a negative latency, --flits
// 99999999999 would have run for weeks).

import (
	"unsafe"

	"github.com/wormlab/wormlab/internal/satarith"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// MaxFlits bounds Flits, Queue, Delay and Overhead: 2^16. The study's figures use
// packets of 4 to 64 flits and delays of a few steps; with every number within
// these bounds and N within topology.MaxNodes, a latency in flit-steps stays far
// below 2^63 (at most about N log N steps of at most 2^17 flit-steps each, times
// the delay's 2^16).
const MaxFlits = 1 << 16

// MaxRuns bounds Runs: a study keeps every run's latency and congestion.
const MaxRuns = 1 << 20

// topologyBytes is the memory NewFatTree allocates per processor, measured:
// 183 to 221 bytes from 4,096 to 262,144 processors.
const topologyBytes = 224

// TopologyBytes estimates the memory of the fat-tree of n processors, before it is
// built.
func TopologyBytes(n int) int64 { return int64(n) * topologyBytes }

// Bytes estimates the memory of a study of c on ft: the network, one run's
// packets and its algorithm's tables (SPLIT: a packet per flit; WORM: the
// simulator's engine with queues of Queue flits and a batch of one packet per
// processor with its path), and every run's figures.
func (c *Config) Bytes(ft *topology.FatTree) int64 {
	n := int64(ft.Processors())
	slots := int64(0)
	for v := range ft.Nodes() {
		slots += int64(ft.InPorts(v))
	}
	pairs := n * int64(unsafe.Sizeof(Pair{})+4)
	per := n * int64(unsafe.Sizeof(sfPacket{})+4)
	switch c.Algo.(type) {
	case Split:
		per = satarith.Mul(satarith.Mul(n, int64(c.Flits)), int64(unsafe.Sizeof(sfPacket{})+4))
	case Worm:
		cfg := sim.Config{Net: ft, VCs: 1, Buf: c.Queue, Pipeline: sim.Ideal()}
		hops := n * 2 * int64(ft.Height())
		per = satarith.Add(sim.BatchBytes(&cfg, n, hops), satarith.Mul(n, int64(unsafe.Sizeof(sim.Packet{}))), hops*8)
	}
	return satarith.Add(TopologyBytes(int(n)), pairs, per, slots*(4+8+4), satarith.Mul(int64(c.Runs), 16))
}
