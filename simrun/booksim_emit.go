package simrun

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// ToBookSim writes the BookSim2 configuration that runs r with the same meaning
// (the inverse of FromBookSim on the keys it maps), or an error naming the
// parameter that BookSim2 has no counterpart for. The measurement plan is left to
// BookSim2's own (its periods and thresholds): the two simulators measure
// differently by design (docs/booksim.md).
func ToBookSim(r Run) (string, error) {
	b, err := r.Build()
	if err != nil {
		return "", err
	}
	var lines []string
	add := func(key, value string) { lines = append(lines, key+" = "+value+";") }
	var kind string
	switch net := b.Net.(type) {
	case *topology.Grid:
		k := net.Side(0)
		for i := range net.Dims() {
			if net.Side(i) != k {
				return "", errf("topology", "%s: BookSim2's tori and meshes have one radix k for every dimension", r.Topology)
			}
		}
		if net.Concentration() > 1 {
			// BookSim2's cmesh is another network class (c = 4 alone, its terminals
			// numbered on a grid of terminals, routing dor_no_express); a mesh of k^n
			// routers would have a quarter of the terminals
			return "", errf("topology", "%s: wormlab writes no BookSim2 configuration for a concentrated mesh (BookSim2's cmesh: docs/dragonfly.md)", r.Topology)
		}
		kind = "mesh"
		if net.Wrap() {
			kind = "torus"
		}
		add("topology", kind)
		add("k", strconv.Itoa(k))
		add("n", strconv.Itoa(net.Dims()))
	case *topology.Dragonfly:
		// BookSim2's dragonflynew is the balanced dragonfly of p alone
		if bal, err := topology.Parse(fmt.Sprintf("dragonfly:p=%d", net.P())); err != nil || bal.String() != net.String() {
			return "", errf("topology", "%s: BookSim2's dragonflynew is dragonfly:p=P alone (a = 2p, h = p, g = a h + 1, the absolute arrangement, channels of 10 and 100 cycles)", r.Topology)
		}
		kind = "dragonflynew"
		add("topology", kind)
		add("k", strconv.Itoa(net.P()))
		add("n", "1")
	default:
		return "", errf("topology", "%s: wormlab writes BookSim2 configurations for tori, meshes and dragonflies", r.Topology)
	}
	alg, vcAlloc := b.Alg.Name, "separable_input_first"
	if alg == "minadapt-booksim-islip" {
		// BookSim2's min_adapt under its islip VC allocator, which reads no
		// priorities: the adaptive VC not preferred to the escape (FromBookSim
		// reads it back as minadapt-booksim-islip)
		alg, vcAlloc = "minadapt-booksim", "islip"
	}
	rf := ""
	for name, ours := range bsRouting[kind] {
		if ours == alg && name != "dor" {
			rf = name
		}
	}
	if rf == "" || ((rf == "valiant" || rf == "min") && r.VCs != 2) {
		hint := ""
		switch {
		case b.Alg.Name == "dor" && kind == "torus":
			hint = " (BookSim2's dim_order on a torus is --routing dor-booksim)"
		case b.Alg.Name == "minadapt" || b.Alg.Name == "minadapt-islip":
			// BookSim2's OutputSet keeps one range per priority: its min_adapt
			// offers the adaptive VCs of one dimension alone
			hint = " (BookSim2's min_adapt offers the adaptive VCs of the lowest dimension still to correct alone: --routing " + strings.Replace(b.Alg.Name, "minadapt", "minadapt-booksim", 1) + ")"
		}
		return "", errf("routing", "%s on a %s has no BookSim2 routing function of the same meaning%s", b.Alg.Name, kind, hint)
	}
	if rf == "dim_order" && kind == "torus" && r.VCs%2 == 1 {
		// BookSim2's dim_order_torus shares the middle VC of an odd number
		// between its classes (FromBookSim refuses such a file too)
		return "", errf("vcs", "%d: BookSim2's dim_order on a torus puts the middle VC of an odd number in both dateline classes, dor-booksim's halves are disjoint; give an even number", r.VCs)
	}
	add("routing_function", rf)
	add("num_vcs", strconv.Itoa(r.VCs))
	add("vc_buf_size", strconv.Itoa(r.Buf))
	z := b.Sizes
	if len(z.Flits) == 1 {
		add("packet_size", strconv.Itoa(z.Flits[0]))
	} else {
		var ls, ws []string
		for i, l := range z.Flits {
			w := z.Weight[i]
			if w != math.Trunc(w) || w > 1e9 {
				return "", errf("flits", "%s: BookSim2's packet_size_rate takes whole weights", r.Flits)
			}
			ls = append(ls, strconv.Itoa(l))
			ws = append(ws, strconv.Itoa(int(w)))
		}
		// one class whose packets mix the sizes: {{a,b}} ({a,b} would be two classes)
		add("packet_size", "{{"+strings.Join(ls, ",")+"}}")
		add("packet_size_rate", "{{"+strings.Join(ws, ",")+"}}")
	}
	if r.MsgRate != 0 {
		add("injection_rate", bsReal(r.MsgRate))
		add("injection_rate_uses_flits", "0")
	} else {
		add("injection_rate", bsReal(r.Rate))
		add("injection_rate_uses_flits", "1")
	}
	switch r.Process {
	case "bernoulli":
		add("injection_process", "bernoulli")
	case "onoff":
		add("injection_process", "on_off")
		add("burst_alpha", bsReal(r.BurstAlpha))
		add("burst_beta", bsReal(r.BurstBeta))
		add("burst_r1", bsReal(r.BurstRate))
	default:
		return "", errf("process", "%s has no BookSim2 counterpart (bernoulli, onoff)", r.Process)
	}
	switch {
	case r.Traffic == "hotspot" && r.HotFraction == 1:
		hot := r.Hot
		if hot == "" {
			hot = "0"
		}
		// BookSim2's hot nodes are a list inside the list of parameters
		// (bsHotspot): hotspot({a,b}) would be node a of rate b
		add("traffic", "hotspot({{"+strings.ReplaceAll(hot, " ", "")+"}})")
	case r.Traffic == "hotspot":
		return "", errf("hot-fraction", "BookSim2's hotspot sends every packet to the hot nodes: give --hot-fraction 1")
	case indexOf(bsTraffic, r.Traffic) >= 0:
		add("traffic", r.Traffic)
	case r.Traffic == "worstcase" && kind == "dragonflynew":
		add("traffic", "bad_dragon")
	default:
		return "", errf("traffic", "%s has no BookSim2 counterpart", r.Traffic)
	}
	if r.Pipeline != "booksim" {
		return "", errf("pipeline", "%s: BookSim2's channels are the booksim preset's", r.Pipeline)
	}
	p := b.Config.Pipeline
	def := sim.BookSim(b.Net)
	add("routing_delay", strconv.Itoa(p.Route))
	add("vc_alloc_delay", strconv.Itoa(p.VCAlloc))
	add("sw_alloc_delay", strconv.Itoa(p.SwAlloc))
	add("st_final_delay", strconv.Itoa(p.Traverse))
	switch {
	case p.Link == def.Link:
		add("use_noc_latency", "1")
	case kind == "torus" && p.Link == 1:
		add("use_noc_latency", "0")
	default:
		return "", errf("link-delay", "%d: BookSim2's channels take %d cycles here (1 with use_noc_latency = 0)", p.Link, def.Link)
	}
	if p.Credit < p.Link {
		return "", errf("credit-delay", "%d: BookSim2's credits take the link's %d cycles and credit_delay more", p.Credit, p.Link)
	}
	add("credit_delay", strconv.Itoa(p.Credit-p.Link))
	if p.Inject != def.Inject {
		return "", errf("inject-delay", "%d: BookSim2's is %d (the cycle of creation and the injection channel)", p.Inject, def.Inject)
	}
	if p.Eject != def.Eject {
		return "", errf("eject-delay", "%d: BookSim2's ejection channel is %d cycle", p.Eject, def.Eject)
	}
	// BookSim2's separable_input_first (bsAllocators): exact only with its
	// arbiters' pointers, which wormlab's defaults (first, vc) do not keep
	sif := bsAllocators["separable_input_first"]
	if r.Select != sif.vcSelect {
		return "", errf("select", "%s has no BookSim2 counterpart (its separable_input_first VC allocator is --select %s)", r.Select, sif.vcSelect)
	}
	if r.SwitchInput != sif.swInput {
		return "", errf("switch-input", "%s has no BookSim2 counterpart (its separable_input_first switch allocator is --switch-input %s)", r.SwitchInput, sif.swInput)
	}
	if r.Arb != "round-robin" {
		return "", errf("arb", "%s has no BookSim2 counterpart (round_robin)", r.Arb)
	}
	add("vc_allocator", vcAlloc)
	add("sw_allocator", "separable_input_first")
	if b.Config.AtomicVC {
		add("wait_for_tail_credit", "1")
	} else {
		add("wait_for_tail_credit", "0")
	}
	if r.InjectLimit > 0 {
		return "", errf("inject-limit", "has no BookSim2 counterpart")
	}
	if r.ClassLimit > 0 {
		return "", errf("class-limit", "has no BookSim2 counterpart")
	}
	add("seed", strconv.FormatUint(r.Seed, 10))
	add("sim_type", "latency")
	head := []string{
		"// BookSim2 configuration written by wormlab sim --emit-config: the same network,",
		"// routers and traffic as the wormlab run below (docs/booksim.md maps the keys).",
		"// Seeds differ in meaning between the two simulators, and each measures by its",
		"// own rule (BookSim2: warm-up and sample periods; wormlab: MSER-5, batch means).",
		"// " + oneRunLine(r),
		"",
	}
	return strings.Join(append(head, lines...), "\n") + "\n", nil
}

// bsReal writes x as BookSim2's lexer (src/config.l) reads a real number,
// -?[0-9]*\.[0-9]+: with a point and digits after it, never an exponent. An
// integer literal given to a real key stops BookSim2 ("Unknown integer field").
func bsReal(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// oneRunLine is r as wormlab sim flags (those away from the defaults).
func oneRunLine(r Run) string {
	d := Default()
	parts := []string{"wormlab sim"}
	for _, p := range Params() {
		if v := p.get(&r); v != p.get(&d) {
			parts = append(parts, fmt.Sprintf("--%s %s", p.Name, v))
		}
	}
	return strings.Join(parts, " ")
}
