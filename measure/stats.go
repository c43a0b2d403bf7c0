package measure

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wormlab/wormlab/internal/plural"
	"github.com/wormlab/wormlab/internal/unionfind"
	"github.com/wormlab/wormlab/model"
)

// Report is an instance's summary; its JSON form is `wormlab stats --json`.
// Edge and message witnesses are -1 (and names empty) when there is none, as for an
// instance without messages.
type Report struct {
	Name     string     `json:"name,omitempty"`
	Messages int        `json:"messages"`
	Nodes    int        `json:"nodes"`
	Edges    int        `json:"edges"`
	C        EdgeFigure `json:"c"`
	CL       EdgeFigure `json:"c_L"`
	D        MsgFigure  `json:"d"`
	LMin     int        `json:"L_min"`
	LMax     int        `json:"L_max"`
	// TotalFlits is sum_i L_i; Hops sum_i d_i.
	TotalFlits int            `json:"total_flits"`
	Hops       int            `json:"hops"`
	PathGraph  PathGraphStats `json:"path_graph"`
	Deps       DepStats       `json:"dependencies"`
	Levelled   bool           `json:"levelled"`
	Bounds     []Bound        `json:"lower_bounds"`
	Best       Bound          `json:"best_lower_bound"`
	// BoundsNote says why some bounds were not computed (empty when all were).
	BoundsNote string `json:"bounds_note,omitempty"`
	// Skipped lists bounds not computed (a memory limit, a size limit) and why.
	Skipped []Skipped `json:"skipped_bounds,omitempty"`
}

// Skipped is a bound not computed and the reason.
type Skipped struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// EdgeFigure is a value attained at an edge.
type EdgeFigure struct {
	Value    int    `json:"value"`
	Edge     int    `json:"edge"`
	EdgeName string `json:"edge_name,omitempty"`
}

// MsgFigure is a value attained by a message.
type MsgFigure struct {
	Value int    `json:"value"`
	Msg   string `json:"message,omitempty"`
}

// PathGraphStats describes the path graph (one vertex per message, an edge between
// two messages whose paths share a network edge).
type PathGraphStats struct {
	Delta MsgFigure `json:"delta"`
	// Components is the number of connected components; Largest the sizes of the
	// largest ones (at most MaxListed), largest first.
	Components int   `json:"components"`
	Largest    []int `json:"largest"`
}

// MaxListed bounds the component sizes a Report lists.
const MaxListed = 5

// DepStats describes the channel dependency graph.
type DepStats struct {
	Acyclic bool `json:"acyclic"`
	// Cycle lists the edges of one cycle, e_1 -> e_2 -> ... -> e_1, when there is one.
	Cycle      []int    `json:"cycle,omitempty"`
	CycleNames []string `json:"cycle_names,omitempty"`
}

// Bound is a lower bound on the makespan with its witness.
type Bound struct {
	Name     string `json:"name"`
	Value    int    `json:"value"`
	Edge     int    `json:"edge"`
	EdgeName string `json:"edge_name,omitempty"`
	Msg      string `json:"message,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

// Stats summarises a valid instance (see the package doc for the cost).
func Stats(in *model.Instance) *Report {
	net := in.Net
	ms := in.Measure()
	r := &Report{
		Name:       in.Name,
		Messages:   len(in.Messages),
		Nodes:      len(net.Nodes),
		Edges:      len(net.Edges),
		C:          edgeFigure(net, ms.C, ms.CEdge),
		CL:         edgeFigure(net, ms.CL, ms.CLEdge),
		D:          MsgFigure{Value: ms.D, Msg: msgID(in, ms.DMsg)},
		LMax:       ms.LMax,
		TotalFlits: ms.TotalFlits,
	}
	for i := range in.Messages {
		m := &in.Messages[i]
		if i == 0 || m.L < r.LMin {
			r.LMin = m.L
		}
		r.Hops += len(m.Path)
	}
	users := in.Users()
	delta, dmsg := MaxDegree(in, users)
	r.PathGraph.Delta = MsgFigure{Value: delta, Msg: msgID(in, dmsg)}
	sizes := ComponentSizes(in, users)
	r.PathGraph.Components = len(sizes)
	r.PathGraph.Largest = sizes[:min(len(sizes), MaxListed)]
	if cyc := in.Dependencies().Cycle(); cyc != nil {
		r.Deps.Cycle = cyc
		for _, e := range cyc {
			r.Deps.CycleNames = append(r.Deps.CycleNames, net.EdgeName(e))
		}
	} else {
		r.Deps.Acyclic = true
	}
	_, r.Levelled = net.Levelling()
	r.AddBounds(in, in.LowerBounds())
	return r
}

// AddBounds appends further lower bounds (such as those of package lower) to the
// report and updates Best, which stays the first of the largest.
func (r *Report) AddBounds(in *model.Instance, bs []model.Bound) {
	for _, b := range bs {
		r.Bounds = append(r.Bounds, Bound{
			Name: b.Name, Value: b.Value, Edge: b.Edge, EdgeName: edgeName(in.Net, b.Edge),
			Msg: msgID(in, b.Msg), Detail: b.Detail,
		})
	}
	for i, b := range r.Bounds {
		if i == 0 || b.Value > r.Best.Value {
			r.Best = b
		}
	}
}

// MaxDegree returns the path graph's largest degree Delta and a message attaining
// it (the first; -1 without messages), from users = in.Users(). It counts each
// message's distinct neighbours with a stamp per message: O(sum_e c_e^2) time,
// O(messages) memory.
func MaxDegree(in *model.Instance, users [][]model.Use) (delta, msg int) {
	n := len(in.Messages)
	// The users of each edge as one flat list of int32 message indices (CSR):
	// the inner loop below runs sum_e c_e^2 times and is bound by memory.
	off := make([]int, len(users)+1)
	for e, us := range users {
		off[e+1] = off[e] + len(us)
	}
	flat := make([]int32, off[len(users)])
	for e, us := range users {
		for j, u := range us {
			flat[off[e]+j] = int32(u.Msg)
		}
	}
	stamp := make([]int32, n)
	for i := range stamp {
		stamp[i] = -1
	}
	msg = -1
	for i := range n {
		deg := 0
		stamp[i] = int32(i)
		for _, e := range in.Messages[i].Path {
			for _, v := range flat[off[e]:off[e+1]] {
				if stamp[v] != int32(i) {
					stamp[v] = int32(i)
					deg++
				}
			}
		}
		if msg < 0 || deg > delta {
			delta, msg = deg, i
		}
	}
	return delta, msg
}

// ComponentSizes returns the sizes of the path graph's connected components,
// largest first, by union-find over the messages sharing each edge:
// O(sum_i d_i * alpha) time.
func ComponentSizes(in *model.Instance, users [][]model.Use) []int {
	n := len(in.Messages)
	uf := unionfind.New(n)
	for _, us := range users {
		for _, u := range us[min(1, len(us)):] {
			uf.Union(us[0].Msg, u.Msg)
		}
	}
	count := make(map[int]int)
	for i := range n {
		count[uf.Find(i)]++
	}
	sizes := make([]int, 0, len(count))
	for _, c := range count {
		sizes = append(sizes, c)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(sizes)))
	return sizes
}

func edgeFigure(net *model.Network, v, e int) EdgeFigure {
	return EdgeFigure{Value: v, Edge: e, EdgeName: edgeName(net, e)}
}

func edgeName(net *model.Network, e int) string {
	if e < 0 {
		return ""
	}
	return net.EdgeName(e)
}

func msgID(in *model.Instance, i int) string {
	if i < 0 {
		return ""
	}
	return in.Messages[i].ID
}

// WriteText writes the report as a short human summary.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	name := r.Name
	if name == "" {
		name = "(unnamed)"
	}
	line(&b, "instance %s: %s, %s, %s", name, plural.Count(r.Messages, "message"), plural.Count(r.Nodes, "node"), plural.Count(r.Edges, "edge"))
	line(&b, "congestion c = %d%s", r.C.Value, at(r.C))
	line(&b, "flit congestion c_L = %d%s", r.CL.Value, at(r.CL))
	line(&b, "dilation d = %d%s", r.D.Value, by(r.D))
	if r.Messages == 0 {
		line(&b, "lengths L: none (no messages)") // L >= 1 for every message; 0 .. 0 would misread
	} else {
		line(&b, "lengths L = %d .. %d, %d flits, %d hops in all", r.LMin, r.LMax, r.TotalFlits, r.Hops)
	}
	line(&b, "path graph: Delta = %d%s, %s, largest %s",
		r.PathGraph.Delta.Value, by(r.PathGraph.Delta), plural.Count(r.PathGraph.Components, "component"), ints(r.PathGraph.Largest))
	if r.Deps.Acyclic {
		line(&b, "channel dependency graph: acyclic")
	} else {
		names := r.Deps.CycleNames
		more := ""
		if len(names) > 8 {
			names, more = names[:8], " ..."
		}
		line(&b, "channel dependency graph: a cycle of %d edges: %s%s", len(r.Deps.Cycle), strings.Join(names, " => "), more)
	}
	if r.Levelled {
		line(&b, "network: levelled")
	} else {
		line(&b, "network: not levelled")
	}
	line(&b, "lower bounds on the makespan:")
	for _, bd := range r.Bounds {
		line(&b, "%s", strings.TrimRight(fmt.Sprintf("  %-20s %6d  %s", bd.Name, bd.Value, bd.Detail), " "))
	}
	if r.BoundsNote != "" {
		line(&b, "  (%s)", r.BoundsNote)
	}
	for _, s := range r.Skipped {
		line(&b, "  %-20s skipped: %s", s.Name, s.Reason)
	}
	line(&b, "best lower bound: %d (%s)", r.Best.Value, r.Best.Name)
	_, err := io.WriteString(w, b.String())
	return err
}

// line writes one line of the text report, its control characters escaped as
// in Go strings (a name "b\nc" is written b\nc): the instance's name, its node
// and so edge names and the messages' ids are the input's, and a newline or an
// escape sequence in one would break the report's lines or drive the terminal.
// A backslash is left as it is: the line is escaped whole, and the message ids in
// it are quoted already (%q, whose backslashes escaping again would double), so
// the text report does not tell a name holding a backslash and an n from one
// holding a newline (both read b\nc); --json writes every name exactly.
func line(b *strings.Builder, format string, a ...any) {
	b.WriteString(EscapeControl(fmt.Sprintf(format, a...)))
	b.WriteByte('\n')
}

// EscapeControl returns s with each control character and each byte that is not
// UTF-8 written as its Go escape (\n, \t, \x1b, \u0085), the rest, a backslash
// too, as it is (so it is not strconv.Quote's inverse: see line).
func EscapeControl(s string) string {
	clean := true
	for _, r := range s {
		if unicode.IsControl(r) || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case unicode.IsControl(r) || r == utf8.RuneError:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func at(f EdgeFigure) string {
	if f.Edge < 0 {
		return ""
	}
	return fmt.Sprintf(" at edge %d (%s)", f.Edge, f.EdgeName)
}

func by(f MsgFigure) string {
	if f.Msg == "" {
		return ""
	}
	return fmt.Sprintf(", message %q", f.Msg)
}

func ints(a []int) string {
	if len(a) == 0 {
		return "-"
	}
	s := make([]string, len(a))
	for i, v := range a {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ", ")
}
