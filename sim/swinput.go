package sim

// The input stage of the switch allocator (separable, input first: swalloc.go).
// Every input port forwards one of its bidding VCs to the output arbiters; which
// one is a rule of its own, apart from the arbitration (Config.Arbiter) that
// keeps the pointers. wormlab's default arbitrates over the port's VCs; BookSim2's
// separable_input_first allocator (allocators/separable_input_first.cpp, with
// routers/iq_router.cpp's requests) arbitrates over the output ports the VCs ask
// for (docs/booksim.md).

import (
	"fmt"
	"strings"
)

// SwitchInput chooses which of an input port's bidding VCs goes on to the output
// arbiters of switch allocation. The engine keeps two pointers per input port,
// vcPtr over its VCs and outPtr over its router's output ports, each moved past
// the VC and the output of a used grant when the arbitration rotates
// (round-robin) and left at 0 otherwise (fixed). The method is unexported: the
// rules are the engine's own, registered in this package.
type SwitchInput interface {
	// pick is the VC of bid (not 0) that goes on; vcs are the port's input
	// VCs, whose op is the output port (numbered at the router) a bidding VC
	// asks for.
	pick(bid uint64, vcs []inVC, vcPtr, outPtr int32) int32
}

var switchInputs = map[string]SwitchInput{}

// RegisterSwitchInput adds an input stage rule to the registry (from init).
func RegisterSwitchInput(name string, s SwitchInput) {
	if _, dup := switchInputs[name]; dup {
		panic("sim: switch input rule registered twice: " + name)
	}
	switchInputs[name] = s
}

// LookupSwitchInput returns the named input stage rule.
func LookupSwitchInput(name string) (SwitchInput, error) {
	s, ok := switchInputs[name]
	if !ok {
		return nil, fmt.Errorf("unknown switch input rule %q (want one of %s)", name, strings.Join(SwitchInputNames(), ", "))
	}
	return s, nil
}

// SwitchInputNames lists the registered input stage rules.
func SwitchInputNames() []string { return names(switchInputs) }

// customInput is s unless it is the default the engine runs inline (nil or
// ByVC), then nil: the rule Config.check vets and the engine calls through its
// hook.
func customInput(s SwitchInput) SwitchInput {
	if s == (SwitchInput(ByVC{})) {
		return nil
	}
	return s
}

// inputGranted moves input port in's pointer over the output ports of router r
// past output o (numbered at r), which granted it, when the input stage keeps
// one (a rotating arbitration).
func (e *engine) inputGranted(r, in int32, o int) {
	if e.inOut != nil {
		e.inOut[in] = nextPointer(int32(o), e.outBase[r+1]-e.outBase[r])
	}
}
