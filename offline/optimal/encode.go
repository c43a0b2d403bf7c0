package optimal

// The CNF encoding of "is there a legal schedule of makespan at most T?" for the
// wormhole and bufferless models of MODEL.md. The bufferless conflict condition is
// the contiguous-colour condition of Ranade, Schleimer and Wilkerson (FOCS 1994,
// sections 4.1 and 4.5) for messages of any lengths. See doc.go for the variables,
// clause families, their counts and the correctness argument.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/wormlab/wormlab/model"
)

// EncodingVersion names the encoding Encode produces. It changes whenever the
// formula for some instance and horizon changes, so that certificates can name the
// exact formula they were checked against.
const EncodingVersion = "wormlab-order-5"

// Formula is the CNF for one instance, model and horizon, with DIMACS literals
// (variable v > 0 true is v, false is -v).
type Formula struct {
	Model   string
	Horizon int
	Vars    int
	Clauses [][]int
	// Comments map variables to messages and times; WriteDIMACS writes them as the
	// "c" header.
	Comments []string
	// Orders counts the precedence variables, Fixed the precedences fixed by symmetry
	// breaking or by the windows, Cards the cardinality constraints added, Busy the
	// tight sets given busy-slot clauses (busy.go).
	Orders, Fixed, Cards, Busy int

	in     *model.Instance
	chains []chain // the order-encoded time variables
	first  []int   // first[i]: index in chains of message i's first chain
	empty  bool    // the formula holds the empty clause
	// busyAct (0: none) is the activation literal of the busy-slot clauses, which
	// hold at horizons up to busyT (busy.go); horizonLits includes it.
	busyAct, busyT int
}

// chain is one integer time t in [lo, hi] in order encoding: variable base+(v-lo)
// means t <= v, for v = lo .. hi-1; t <= hi always holds, so it has no variable. In
// the wormhole model t is t_k, the step in which message msg's head crosses its k-th
// edge (hop k); in the bufferless model there is one chain per message, for t_1.
type chain struct {
	msg, hop int
	lo, hi   int
	base     int
}

// encodeOptions switch the structural aids of the encoding.
type encodeOptions struct {
	// symmetry fixes the order of messages with identical paths and lengths.
	symmetry bool
	// cards adds cardinality constraints on over-loaded edges (card.go).
	cards bool
	// busy adds the busy-slot clauses (busy.go) of horizon busyAt under an
	// activation literal, or outright when busyAt is 0 or the formula's horizon.
	busy   bool
	busyAt int
	// budget is the memory budget in bytes (0: DefaultMaxMemory), see size.go.
	budget int64
	// ctx, when set, is looked at between the clause families and every 1,024
	// conflicts; encode returns errEncodeCancelled once it is done (building a
	// large formula takes seconds of CPU, and Solve must stop within a second).
	ctx context.Context
}

// errEncodeCancelled is encode's answer when encodeOptions.ctx is cancelled.
var errEncodeCancelled = errors.New("optimal: encoding cancelled")

// cancelled reports whether opt.ctx is done.
func (opt encodeOptions) cancelled() bool { return opt.ctx != nil && opt.ctx.Err() != nil }

// The constants true and false inside the clause builder; they never reach a
// Formula.
const (
	litTrue  = math.MaxInt32
	litFalse = -litTrue
)

// Encode returns the CNF whose models are the legal schedules of in, in model
// modelName ("" means model.Wormhole), of makespan at most horizon. It is
// satisfiable iff such a schedule exists: the only constraints beyond MODEL.md's
// are symmetry breaking between identical messages, which keeps one schedule of
// every class, and cardinality constraints (card.go) and busy-slot clauses (busy.go)
// that every legal schedule satisfies. Encode is deterministic: the same arguments give the same formula. A
// formula whose estimated size exceeds DefaultMaxMemory is refused with a
// *SizeError (size.go); EncodeWithin takes another budget.
func Encode(in *model.Instance, modelName string, horizon int) (*Formula, error) {
	return EncodeWithin(in, modelName, horizon, 0)
}

// EncodeWithin is Encode with a memory budget in bytes (0: DefaultMaxMemory).
func EncodeWithin(in *model.Instance, modelName string, horizon int, budget int64) (*Formula, error) {
	return encode(in, modelName, horizon, encodeOptions{symmetry: true, cards: true, busy: true, budget: budget})
}

func encode(in *model.Instance, modelName string, horizon int, opt encodeOptions) (*Formula, error) {
	if modelName == "" {
		modelName = model.Wormhole
	}
	if modelName != model.Wormhole && modelName != model.Bufferless {
		return nil, fmt.Errorf("optimal: model %q is neither %q nor %q", modelName, model.Wormhole, model.Bufferless)
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	if horizon < 1 {
		return nil, fmt.Errorf("optimal: horizon %d is below 1", horizon)
	}
	f := &Formula{Model: modelName, Horizon: horizon, in: in}
	f.comment("wormlab optimal encoding %s", EncodingVersion)
	f.comment("instance %q model %s horizon %d messages %d", in.Name, modelName, horizon, len(in.Messages))
	for i := range in.Messages {
		m := &in.Messages[i]
		if d := len(m.Path); d+m.L-1 > horizon {
			f.comment("message %q needs d + L - 1 = %d > horizon %d: unsatisfiable", m.ID, d+m.L-1, horizon)
			f.Vars, f.Clauses, f.empty = 0, [][]int{{}}, true
			return f, nil
		}
	}
	if err := checkSize(in, modelName, horizon, opt.budget); err != nil {
		return nil, err
	}
	f.makeChains()
	if modelName == model.Wormhole {
		f.hopOrder()
		f.wormholeConflicts(opt)
	} else {
		f.bufferlessConflicts(opt)
	}
	if opt.cancelled() {
		return nil, errEncodeCancelled
	}
	if opt.cards {
		f.cardinality()
	}
	if opt.busy {
		T, act := horizon, litTrue
		if opt.busyAt > 0 && opt.busyAt < horizon {
			T, act = opt.busyAt, f.newVar()
			f.comment("busy: variable %d activates the busy-slot clauses of horizon %d", act, T)
		}
		if f.busy(T, act) > 0 && act != litTrue {
			f.busyAct, f.busyT = act, T
		}
	}
	if opt.cancelled() {
		return nil, errEncodeCancelled
	}
	return f, nil
}

func (f *Formula) comment(format string, a ...any) {
	f.Comments = append(f.Comments, fmt.Sprintf(format, a...))
}

// newVar allocates a variable.
func (f *Formula) newVar() int { f.Vars++; return f.Vars }

// clause adds the clause of lits, dropping false constants; a clause with a true
// constant is dropped whole. All literals false gives the empty clause.
func (f *Formula) clause(lits ...int) {
	c := make([]int, 0, len(lits))
	for _, l := range lits {
		switch l {
		case litTrue:
			return
		case litFalse:
			continue
		}
		c = append(c, l)
	}
	if len(c) == 0 {
		f.empty = true
	}
	f.Clauses = append(f.Clauses, c)
}

// makeChains allocates the time variables: in the wormhole model hop k of message i
// has t_k in [k, T - L_i + 1 - (d_i - k)] (the head needs k steps to get there and
// d_i - k more plus L_i - 1 to drain before the horizon); in the bufferless model t_1
// in [1, T - d_i - L_i + 2]. Both windows hold W_i = T - d_i - L_i + 2 values.
func (f *Formula) makeChains() {
	in := f.in
	f.first = make([]int, len(in.Messages))
	for i := range in.Messages {
		m := &in.Messages[i]
		d := len(m.Path)
		f.first[i] = len(f.chains)
		hops := d
		if f.Model == model.Bufferless {
			hops = 1
		}
		for k := 1; k <= hops; k++ {
			c := chain{msg: i, hop: k, lo: k, hi: f.Horizon - m.L + 1 - (d - k)}
			if c.hi > c.lo {
				c.base = f.Vars + 1
				f.Vars += c.hi - c.lo
				what := fmt.Sprintf("t_%d", k)
				if f.Model == model.Bufferless {
					what = "t_1 = start + 1"
				}
				f.comment("time %d..%d: message %q hop %d (edge %s): variable %d+(v-%d) means %s <= v for v = %d..%d",
					c.base, c.base+c.hi-c.lo-1, m.ID, k, in.Net.EdgeName(m.Path[k-1]), c.base, c.lo, what, c.lo, c.hi-1)
			} else {
				f.comment("time -: message %q hop %d: t_%d = %d fixed", m.ID, k, k, c.lo)
			}
			f.chains = append(f.chains, c)
		}
	}
	// Chain clauses: t <= v implies t <= v+1.
	for _, c := range f.chains {
		for v := c.lo; v < c.hi-1; v++ {
			f.clause(-f.le(c, v), f.le(c, v+1))
		}
	}
}

// le is the literal "t <= v" of chain c, or a constant outside its window.
func (f *Formula) le(c chain, v int) int {
	switch {
	case v < c.lo:
		return litFalse
	case v >= c.hi:
		return litTrue
	}
	return c.base + v - c.lo
}

// chainOf returns the chain of message i's hop k (wormhole) or its start (bufferless).
func (f *Formula) chainOf(i, k int) chain {
	if f.Model == model.Bufferless {
		return f.chains[f.first[i]]
	}
	return f.chains[f.first[i]+k-1]
}

// hopOrder adds t_k >= t_{k-1} + 1 for every message and hop k >= 2.
func (f *Formula) hopOrder() {
	for i := range f.in.Messages {
		for k := 2; k <= len(f.in.Messages[i].Path); k++ {
			f.diff(litTrue, diff{a: f.chainOf(i, k-1), b: f.chainOf(i, k), c: 1})
		}
	}
}

// diff is the difference constraint t_b >= t_a + c between two chains.
type diff struct {
	a, b chain
	c    int
}

// always reports whether every pair of values in the windows satisfies d.
func (d diff) always() bool { return d.b.lo >= d.a.hi+d.c }

// never reports whether no pair of values in the windows satisfies d.
func (d diff) never() bool { return d.b.hi < d.a.lo+d.c }

// diff adds p -> (t_b >= t_a + c) as the clauses (-p, -[t_b <= v], [t_a <= v-c])
// for v in b's window: at most hi_b - lo_b + 1 clauses of at most three literals.
func (f *Formula) diff(p int, d diff) {
	for v := d.b.lo; v <= d.b.hi; v++ {
		if v-d.c >= d.a.hi {
			break // [t_a <= v-c] is true from here on
		}
		f.clause(-p, -f.le(d.b, v), f.le(d.a, v-d.c))
	}
}

// side is one of the two ways a conflict can be resolved: all its constraints hold.
type side []diff

func (s side) always() bool {
	for _, d := range s {
		if !d.always() {
			return false
		}
	}
	return true
}

func (s side) never() bool {
	for _, d := range s {
		if d.never() {
			return true
		}
	}
	return false
}

// choose adds "first or second" with one precedence variable p (p: first holds,
// -p: second holds), or none when the windows decide. fixFirst (symmetry breaking)
// imposes first. It returns the variable, or 0 when none was needed.
func (f *Formula) choose(first, second side, fixFirst bool, what, rev string) int {
	if first.always() || second.always() && !fixFirst {
		return 0
	}
	p := litTrue
	var fixed string
	switch {
	case fixFirst:
		fixed = "fixed by symmetry"
	case first.never() && second.never():
		f.clause() // no schedule in this horizon
		f.comment("order -: neither %s nor %s fits", what, rev)
		return 0
	case first.never():
		first, second, what = second, nil, rev
		fixed = "fixed by the windows"
	case second.never():
		second = nil
		fixed = "fixed by the windows"
	default:
		p = f.newVar()
		f.Orders++
		f.comment("order %d: %s; false: %s", p, what, rev)
	}
	if p == litTrue {
		f.Fixed++
		f.comment("order -: %s: %s", what, fixed)
	}
	for _, d := range first {
		f.diff(p, d)
	}
	for _, d := range second {
		f.diff(-p, d)
	}
	return p
}

// release returns the chain and offset of M_i(m), message i's m-th move: t_m for
// m <= d_i, t_d + (m - d_i) past the end (the worm drains one flit per step).
func (f *Formula) release(i, m int) (chain, int) {
	d := len(f.in.Messages[i].Path)
	if m <= d {
		return f.chainOf(i, m), 0
	}
	return f.chainOf(i, d), m - d
}

// wormholeConflicts adds, for every shared run of two messages, one precedence
// variable: true means i releases every edge of the run before j takes it, false the
// reverse. Message i holds its k-th edge during [t_k, M_i(k+L_i) - 1] (MODEL.md,
// legality rule 2), so "i before j on e" is t^j_{k'} >= M_i(k + L_i).
func (f *Formula) wormholeConflicts(opt encodeOptions) {
	in := f.in
	for x, r := range runs(in) {
		if x&1023 == 0 && opt.cancelled() {
			return
		}
		var first, second side
		for q := 0; q < r.N; q++ {
			k, kj := r.KI+q, r.KJ+q
			a, c := f.release(r.I, k+in.Messages[r.I].L)
			first = append(first, diff{a: a, b: f.chainOf(r.J, kj), c: c})
			a, c = f.release(r.J, kj+in.Messages[r.J].L)
			second = append(second, diff{a: a, b: f.chainOf(r.I, k), c: c})
		}
		fix := opt.symmetry && identical(in, r.I, r.J)
		mi, mj := in.Messages[r.I].ID, in.Messages[r.J].ID
		edges := fmt.Sprintf("edges %s (hops %d.. and %d..)", edgeList(in, r.Edges), r.KI, r.KJ)
		f.choose(first, second, fix, fmt.Sprintf("%q before %q on %s", mi, mj, edges), fmt.Sprintf("%q before %q", mj, mi))
	}
}

// bufferlessConflicts adds, for every pair of messages and every maximal interval of
// forbidden start differences, one precedence variable. Messages i and j sharing an
// edge at hops k and k' hold it during [s_i + k, s_i + k + L_i - 1] and
// [s_j + k', s_j + k' + L_j - 1], so with a = k - k' the difference s_j - s_i may not
// lie in [a - L_j + 1, a + L_i - 1] (seed 002, section 4.5: a message needs L
// contiguous free colours). A run shares one offset a, so one interval per run, and
// overlapping intervals merge.
func (f *Formula) bufferlessConflicts(opt encodeOptions) {
	in := f.in
	for x, rs := range byPair(runs(in)) {
		if x&1023 == 0 && opt.cancelled() {
			return
		}
		i, j := rs[0].I, rs[0].J
		for _, iv := range forbidden(in, rs) {
			ci, cj := f.chainOf(i, 1), f.chainOf(j, 1)
			first := side{{a: ci, b: cj, c: iv.hi + 1}}  // s_j - s_i >= hi + 1
			second := side{{a: cj, b: ci, c: 1 - iv.lo}} // s_j - s_i <= lo - 1
			fix := opt.symmetry && identical(in, i, j)
			diff := fmt.Sprintf("start(%q) - start(%q)", in.Messages[j].ID, in.Messages[i].ID)
			f.choose(first, second, fix, fmt.Sprintf("%s >= %d (forbidden %d..%d)", diff, iv.hi+1, iv.lo, iv.hi),
				fmt.Sprintf("%s <= %d", diff, iv.lo-1))
		}
	}
}

// interval is a closed integer interval.
type interval struct{ lo, hi int }

// forbidden returns the merged intervals of start differences s_j - s_i that make
// the pair's runs clash, in increasing order.
func forbidden(in *model.Instance, rs []run) []interval {
	var ivs []interval
	for _, r := range rs {
		a := r.KI - r.KJ
		ivs = append(ivs, interval{a - in.Messages[r.J].L + 1, a + in.Messages[r.I].L - 1})
	}
	sort.Slice(ivs, func(x, y int) bool { return ivs[x].lo < ivs[y].lo })
	var out []interval
	for _, iv := range ivs {
		if n := len(out); n > 0 && iv.lo <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, iv.hi)
			continue
		}
		out = append(out, iv)
	}
	return out
}

func edgeList(in *model.Instance, es []int) string {
	names := make([]string, len(es))
	for x, e := range es {
		names[x] = in.Net.EdgeName(e)
	}
	return strings.Join(names, ",")
}
