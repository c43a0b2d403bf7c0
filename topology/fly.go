package topology

// The k-ary n-fly butterfly (Dally and Towles, Principles and Practices of
// Interconnection Networks, 2004, section 4.1): N = k^n terminals, n stages of
// k^(n-1) switches of radix k, channels only from stage s to stage s+1. Terminals
// inject at stage 0 and eject after stage n-1: terminal t injects at switch t/k of
// stage 0 by injection port t mod k and ejects at switch t/k of stage n-1 by
// ejection port t mod k (BookSim2's fly does the same).
//
// Addressing: switch w (an (n-1)-digit radix-k number) of stage s is router
// s*k^(n-1) + w. Output port d of switch w at stage s < n-1 leads to the switch of
// stage s+1 whose address is w with digit n-2-s (counting from the least
// significant) replaced by d, and enters it by input port w's old digit there. So
// destination-tag routing takes, at stage s, port = digit n-1-s of the destination
// terminal: after stage n-2 the switch is t/k, and its ejection port t mod k.

import (
	"fmt"
	"strconv"
)

// Fly is a unidirectional k-ary n-fly.
type Fly struct {
	table
	k, n, per int // per: switches per stage, k^(n-1)
	pow       []int
}

var _ Network = (*Fly)(nil)

func init() {
	registerKind("fly", "fly:k=2,n=3", func(arg string) (Network, error) {
		k, n, err := parseFly(arg)
		if err != nil {
			return nil, err
		}
		return NewFly(k, n)
	})
}

// parseFly reads "k=2,n=3".
func parseFly(arg string) (k, n int, err error) {
	ps, err := parseParams(arg)
	if err != nil {
		return 0, 0, err
	}
	if ps.lead != "" {
		return 0, 0, &SpecError{Field: ps.lead, Msg: "want KEY=VALUE (k, n)"}
	}
	if k, err = ps.int("k", 0, 2); err != nil {
		return 0, 0, err
	}
	if n, err = ps.int("n", 0, 1); err != nil {
		return 0, 0, err
	}
	if k == 0 || n == 0 {
		return 0, 0, &SpecError{Field: "k", Msg: "want fly:k=K,n=N (k at least 2, n at least 1)"}
	}
	return k, n, ps.done()
}

// flyOf is the k-ary n-fly with its tables not yet built (its stages' widths
// counted), or the error NewFly gives for it (SizeOf refuses what it refuses).
func flyOf(k, n int) (*Fly, error) {
	if k < 2 || n < 1 || k > 62 {
		return nil, &SpecError{Field: "k", Msg: fmt.Sprintf("k=%d, n=%d: want 2 <= k <= 62 and n >= 1", k, n)}
	}
	if n > MaxNodes { // n stages of at least one switch; bounds per*k*n below
		return nil, &SpecError{Field: "n", Msg: fmt.Sprintf("more than %d switches", MaxNodes)}
	}
	f := &Fly{k: k, n: n, per: 1, pow: []int{1}}
	for range n - 1 {
		if f.per*k*n > MaxNodes {
			return nil, &SpecError{Field: "n", Msg: fmt.Sprintf("more than %d switches", MaxNodes)}
		}
		f.per *= k
		f.pow = append(f.pow, f.per)
	}
	return f, nil
}

// NewFly builds the k-ary n-fly.
func NewFly(k, n int) (*Fly, error) {
	f, err := flyOf(k, n)
	if err != nil {
		return nil, err
	}
	routers := n * f.per
	f.out = make([][]link, routers)
	f.inPorts = make([]int32, routers)
	f.terminal = make([]bool, routers)
	for r := range routers {
		s, w := r/f.per, r%f.per
		if s > 0 {
			f.inPorts[r] = int32(k)
		}
		if s == n-1 {
			continue
		}
		f.out[r] = make([]link, k)
		pos := n - 2 - s
		old := w / f.pow[pos] % k
		for d := range k {
			w2 := w + (d-old)*f.pow[pos]
			f.out[r][d] = link{int32((s+1)*f.per + w2), int32(old)}
		}
	}
	m := &TerminalMap{Injectors: make([]int32, routers), Ejectors: make([]int32, routers)}
	last := (n - 1) * f.per
	for t := range k * f.per {
		m.In = append(m.In, int32(t/k))
		m.Out = append(m.Out, int32(last+t/k))
		m.InPort = append(m.InPort, int32(t%k))
		m.OutPort = append(m.OutPort, int32(t%k))
		m.Injectors[t/k]++
		m.Ejectors[last+t/k]++
	}
	f.setTerminals(m)
	return f, nil
}

// K and N are the radix and the number of stages.
func (f *Fly) K() int { return f.k }
func (f *Fly) N() int { return f.n }

// Stage and Switch give router r's stage and its address within the stage.
func (f *Fly) Stage(r int) int  { return r / f.per }
func (f *Fly) Switch(r int) int { return r % f.per }

// DestPort is destination-tag routing's port at router r (not of the last stage)
// towards the last-stage switch dst: digit n-2-s of dst's address.
func (f *Fly) DestPort(r, dst int) int {
	return f.Switch(dst) / f.pow[f.n-2-f.Stage(r)] % f.k
}

// NodeName is "s,w".
func (f *Fly) NodeName(r int) string {
	return strconv.Itoa(r/f.per) + "," + strconv.Itoa(r%f.per)
}

func (f *Fly) String() string { return fmt.Sprintf("fly:k=%d,n=%d", f.k, f.n) }
