package sim

// EventKind names a traced event. The trace is what package simcheck reads: it
// checks the simulator's invariants from these events alone.
type EventKind uint8

// The events of a trace. Ports and VCs are the router's own numbers; a router's
// injection input ports are numbered from InPorts(node) and its ejection output
// ports from Ports(node), one per terminal attached (topology.TerminalMap's
// InPort and OutPort added).
const (
	// Generate: packet Packet of Flit flits is created at source Node for Dst,
	// from terminal From to terminal To (topology.TerminalsOf).
	Generate EventKind = iota
	// Inject: flit Flit of Packet leaves source Node's queue for VC VC of the
	// injection input port InPort.
	Inject
	// Arrive: the flit is written into Node's input buffer (Port, VC).
	Arrive
	// Send: the flit leaves Node's input buffer (InPort, InVC) by output port Port
	// on output VC VC (Port >= Ports(Node): into a terminal's ejection sink).
	Send
	// Credit: a credit reaches Node for output (Port, VC); Port = -1 is a credit of
	// the source queue feeding injection input port InPort, VC VC.
	Credit
	// Deliver: the flit is consumed at Node, its destination.
	Deliver
	// Route: the head of Packet at the front of Node's input (InPort, InVC) gets
	// its Choices (output ports and the VCs allowed on each).
	Route
	// Grant: the head of Packet at Node's input (InPort, InVC) is granted output
	// VC VC of output port Port (Port = Ports(Node): the ejection port).
	Grant
	// Tick ends cycle Cycle with the simulator's own counts (Generated,
	// Delivered, InNet), for the checker to compare with its own.
	Tick
)

// Event is one flit or credit event of cycle Cycle. Injection input ports are
// numbered after the network's: InPorts(Node) (and up, with InjectPerPort).
type Event struct {
	Kind         EventKind
	Cycle        int64
	Node         int32
	Port, VC     int32
	InPort, InVC int32
	Packet       int64
	Flit         int32
	Dst          int32
	// From and To are a Generate event's source and destination terminals.
	From, To int32
	// Choices are a Route event's choices (nil for other kinds).
	Choices []Choice
	// Tick only: packets generated and delivered whole since the start, and
	// flits injected and not yet delivered, as the simulator counts them.
	Generated, Delivered, InNet int64
}
