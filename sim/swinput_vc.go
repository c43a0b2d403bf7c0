package sim

// ByVC is wormlab's input stage (the default, Config.SwitchInput nil): the
// port's bidding VC first at or after its VC pointer wins, whatever output it
// asks for. The engine runs it inline (allocFlat's pickAt, the fast path); any
// other rule takes allocRouter, which calls it through the SwitchInput hook.
// This value is the default's rule through that hook, which tests compare with
// the inline one.
type ByVC struct{}

var _ SwitchInput = ByVC{}

func init() { RegisterSwitchInput("vc", ByVC{}) }

func (ByVC) pick(bid uint64, _ []inVC, vcPtr, _ int32) int32 { return pickAt(vcPtr, bid) }
