package routing

// The header fields each routing's Route and Advance never read, cleared by Canon
// (package deadlock's Canonical): the deadlock checker then merges states that
// differ only there before enumerating below them. Every routing reads the
// source only in Start (a tie drawn, an intermediate node), so Canon clears Src;
// Hops too, except where Route reads it (positive-hop and any-min take the VC of
// the hop count, UGAL decides at the first hop). Class and Aux are the routings'
// own state and stay. package deadlock's TestCanonical checks, for every routing
// here, that the graph built with Canon is the graph built without it.

import "github.com/wormlab/wormlab/sim"

func clearSrcHops(h *sim.Header) { h.Src, h.Hops = 0, 0 }

func (d *Duato) Canon(h *sim.Header)      { clearSrcHops(h) }
func (d *DuatoDP) Canon(h *sim.Header)    { clearSrcHops(h) }
func (d *DOR) Canon(h *sim.Header)        { clearSrcHops(h) }
func (d *DORBookSim) Canon(h *sim.Header) { clearSrcHops(h) }
func (m *MinAdapt) Canon(h *sim.Header)   { clearSrcHops(h) }
func (r *RedRover) Canon(h *sim.Header)   { clearSrcHops(h) }
func (n *NBC) Canon(h *sim.Header)        { clearSrcHops(h) }
func (n *NegHop) Canon(h *sim.Header)     { clearSrcHops(h) }
func (p *Pn) Canon(h *sim.Header)         { clearSrcHops(h) }
func (t *Turn) Canon(h *sim.Header)       { clearSrcHops(h) }
func (u *UpDown) Canon(h *sim.Header)     { clearSrcHops(h) }
func (v *Valiant) Canon(h *sim.Header)    { clearSrcHops(h) }
func (t *Table) Canon(h *sim.Header)      { clearSrcHops(h) }
func (u *AnyUpDown) Canon(h *sim.Header)  { clearSrcHops(h) }
func (r *HXDOR) Canon(h *sim.Header)      { clearSrcHops(h) }
func (r *HXDAL) Canon(h *sim.Header)      { clearSrcHops(h) }
func (r *FlyTag) Canon(h *sim.Header)     { clearSrcHops(h) }
func (r *DFMin) Canon(h *sim.Header)      { clearSrcHops(h) }
func (r *DFValiant) Canon(h *sim.Header)  { clearSrcHops(h) }
func (p *PosHop) Canon(h *sim.Header)     { h.Src = 0 }
func (m *AnyMin) Canon(h *sim.Header)     { h.Src = 0 }
func (r *DFUGAL) Canon(h *sim.Header)     { h.Src = 0 }

// EscapeTable's Canon is its Table's (promoted).
