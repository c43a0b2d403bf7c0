package sim

// Queue is the flits in the buffers downstream of output port port of router r
// (all its VCs), from the router's credit counts: the Congestion a Sensing routing
// reads. O(V).
func (e *engine) Queue(r, port int) int {
	o := (e.outBase[r] + int32(port)) << e.vs
	used := 0
	for v := range e.V {
		used += int(e.B - e.ov[o|v].credit)
	}
	return used
}

// bindRouting gives a Sensing routing the engine's state (and runs its cycles phase
// by phase: part.go's cycle), and keeps an Ejecting one's ejection rule.
func (e *engine) bindRouting() {
	if s, ok := e.cfg.Routing.(Sensing); ok {
		e.cfg.Routing = s.Sense(e)
		e.sensing = true
	}
	e.ejecting, _ = e.cfg.Routing.(Ejecting)
}
