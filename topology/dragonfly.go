package topology

// The dragonfly of Kim, Dally, Scott and Abts (Technology-driven, highly-scalable
// dragonfly topology, ISCA 2008, section 3.1): g groups of a routers; each router
// has p terminals, a-1 local channels (the routers of a group are fully connected)
// and h global channels; the a*h global channels of a group reach the other g-1
// groups, so g <= a*h + 1, and the paper's largest (and BookSim2's only) size is
// g = a*h + 1 with one global channel between every two groups. With g - 1 dividing
// a*h, every two groups are joined by a*h/(g-1) global channels (the trunk).
//
// Addressing: router r = G*a + i is router i of group G; its terminals are
// r*p .. r*p+p-1 (BookSim2's node numbering). Ports of router i: 0 .. a-2 local,
// port q to router q of the group when q < i and to router q+1 otherwise (BookSim2's
// order); a-1 .. a+h-2 global, port a-1+c carrying the group's global channel
// j = i*h + c. Input ports are numbered as the output ports: a local channel from
// router i' enters by the port that leads back to i', a global channel by the port
// of the channel that leads back.
//
// The global arrangement says which group global channel j of group G reaches (the
// variation is a small interface, arrangement, one file each):
//
//   - absolute (dragonfly_absolute.go; "consecutive" in the literature), BookSim2's
//     dragonflynew: channel j of G goes to group t + 1 if t >= G else t, where
//     t = j mod (g-1), and is the (j div (g-1))-th channel between the two groups;
//   - palmtree (dragonfly_palmtree.go; relative), M. Garcia's arrangement (the
//     "palm tree" of Camarero, Vallejo and Beivide, Topological characterization of
//     Hamming and dragonfly networks, ACM TACO 11(4), 2014): channel j of G goes to
//     group G - j - 1 mod g and enters its channel a*h - 1 - j; needs g = a*h + 1.
//
// Channel latencies: local and global (cycles), by default BookSim2's 10 and 100
// (its dragonfly.cpp defines DRAGON_LATENCY), at most MaxLatency; they replace the
// pipeline's link delay on these channels.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Dragonfly is a dragonfly network of routers with fully connected groups.
type Dragonfly struct {
	table
	a, p, h, g, trunk int
	local, global     int
	arr               arrangement
	arrName           string
	// grp is each router's group and hop, per router r, group T and trunk
	// channel m, at (r*g+T)*trunk+m, the port of r towards T (PortToward; r's
	// own group's entries unused): tables the routings read a hop instead of
	// dividing, built when hop takes at most hopTableMax bytes (nil above)
	grp []int32
	hop []uint8
}

// hopTableMax bounds a dragonfly's table of ports towards groups (a 1,056-terminal
// dragonfly's takes 8.7 kB, a 16,512-terminal one's 266 kB: a byte a router,
// group and trunk channel).
const hopTableMax = 1 << 22

var _ Network = (*Dragonfly)(nil)

// arrangement places a dragonfly's global channels: link gives the group T that
// channel j of group G reaches and the channel jj of T it enters (an involution:
// link(T, jj) = (G, j)); toward is the first channel of G that reaches T, the
// others (a trunk of several) following every g-1.
type arrangement interface {
	link(d *Dragonfly, G, j int) (T, jj int)
	toward(d *Dragonfly, G, T int) int
	// check says why the arrangement cannot place d's channels ("" when it can).
	check(d *Dragonfly) string
}

var arrangements = map[string]arrangement{}

func registerArrangement(name string, a arrangement) { arrangements[name] = a }

// ArrangementNames lists the global arrangements.
func ArrangementNames() []string {
	var ns []string
	for n := range arrangements {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

func init() {
	registerKind("dragonfly", "dragonfly:a=8,p=4,h=4", func(arg string) (Network, error) {
		d, err := parseDragonfly(arg)
		if err != nil {
			return nil, err
		}
		return NewDragonfly(d.a, d.p, d.h, d.g, d.arr, d.local, d.global)
	})
}

// dragonflySpec is a dragonfly spec's parameters, defaults filled in.
type dragonflySpec struct {
	a, p, h, g    int
	arr           string
	local, global int
}

// parseDragonfly reads "a=8,p=4,h=4" (p alone gives BookSim2's balanced
// dragonfly: a = 2p, h = p; g defaults to a*h+1).
func parseDragonfly(arg string) (dragonflySpec, error) {
	var d dragonflySpec
	ps, err := parseParams(arg)
	if err != nil {
		return d, err
	}
	if ps.lead != "" {
		return d, &SpecError{Field: ps.lead, Msg: "want KEY=VALUE (a, p, h, g, arrangement, local, global)"}
	}
	if d.p, err = ps.int("p", 0, 1); err != nil {
		return d, err
	}
	if d.p == 0 {
		return d, &SpecError{Field: "p", Msg: "missing (terminals per router)"}
	}
	if d.a, err = ps.int("a", 2*d.p, 1); err != nil {
		return d, err
	}
	if d.h, err = ps.int("h", d.p, 1); err != nil {
		return d, err
	}
	if d.g, err = ps.int("g", d.a*d.h+1, 2); err != nil {
		return d, err
	}
	if d.local, err = ps.int("local", 10, 1); err != nil {
		return d, err
	}
	if d.global, err = ps.int("global", 100, 1); err != nil {
		return d, err
	}
	d.arr = ps.str("arrangement", "absolute")
	return d, ps.done()
}

// dragonflyOf is the dragonfly of these parameters with its tables not yet built,
// or the error NewDragonfly gives for them (SizeOf refuses what it refuses).
func dragonflyOf(a, p, h, g int, arr string, local, global int) (*Dragonfly, error) {
	ar, ok := arrangements[arr]
	if !ok {
		return nil, &SpecError{Field: "arrangement", Msg: fmt.Sprintf("unknown %q (want one of %s)", arr, strings.Join(ArrangementNames(), ", "))}
	}
	switch {
	case a < 1 || p < 1 || h < 1:
		return nil, &SpecError{Field: "a", Msg: "a, p and h must be at least 1"}
	case local > MaxLatency:
		return nil, &SpecError{Field: "local", Msg: fmt.Sprintf("latency %d above %d", local, MaxLatency)}
	case global > MaxLatency:
		return nil, &SpecError{Field: "global", Msg: fmt.Sprintf("latency %d above %d", global, MaxLatency)}
	case g < 2:
		return nil, &SpecError{Field: "g", Msg: fmt.Sprintf("%d groups: want at least 2", g)}
	case a > 62 || h > 62: // before a*h, which could overflow
		return nil, &SpecError{Field: "a", Msg: fmt.Sprintf("router radix a-1+h = %d above 62", a+h-1)}
	case g > a*h+1:
		return nil, &SpecError{Field: "g", Msg: fmt.Sprintf("%d groups need %d global channels per group to reach every other group, more than a*h = %d", g, g-1, a*h)}
	case (a*h)%(g-1) != 0:
		return nil, &SpecError{Field: "g", Msg: fmt.Sprintf("a*h = %d global channels per group do not divide evenly among the g-1 = %d other groups", a*h, g-1)}
	case a+h-1 > 62:
		return nil, &SpecError{Field: "a", Msg: fmt.Sprintf("router radix a-1+h = %d above 62", a+h-1)}
	case a*g > MaxNodes || p > MaxNodes/(a*g): // a*g*p, without overflow
		return nil, &SpecError{Field: "g", Msg: fmt.Sprintf("more than %d routers or terminals", MaxNodes)}
	}
	d := &Dragonfly{a: a, p: p, h: h, g: g, trunk: a * h / (g - 1), local: local, global: global, arr: ar, arrName: arr}
	if why := ar.check(d); why != "" {
		return nil, &SpecError{Field: "arrangement", Msg: why}
	}
	return d, nil
}

// NewDragonfly builds the dragonfly of g groups of a routers with p terminals and h
// global channels each, its global channels placed by the named arrangement, local
// and global channels of the given latencies.
func NewDragonfly(a, p, h, g int, arr string, local, global int) (*Dragonfly, error) {
	d, err := dragonflyOf(a, p, h, g, arr, local, global)
	if err != nil {
		return nil, err
	}
	n := a * g
	d.out = make([][]link, n)
	d.inPorts = make([]int32, n)
	d.terminal = make([]bool, n)
	d.lat = make([][]int32, n)
	ports := a - 1 + h
	links := make([]link, n*ports)
	lats := make([]int32, n*ports)
	for r := range n {
		d.out[r] = links[r*ports : (r+1)*ports : (r+1)*ports]
		d.lat[r] = lats[r*ports : (r+1)*ports : (r+1)*ports]
		d.inPorts[r] = int32(ports)
		G, i := r/a, r%a
		for q := range a - 1 {
			j := q
			if q >= i {
				j = q + 1
			}
			d.out[r][q] = link{int32(G*a + j), int32(d.LocalPort(j, i))}
			d.lat[r][q] = int32(local)
		}
		for c := range h {
			T, jj := d.arr.link(d, G, i*h+c)
			d.out[r][a-1+c] = link{int32(T*a + jj/h), int32(a - 1 + jj%h)}
			d.lat[r][a-1+c] = int32(global)
		}
	}
	d.setTerminals(concentrated(uniformConc(n, p)))
	if int64(n)*int64(g)*int64(d.trunk) <= hopTableMax {
		d.grp = make([]int32, n)
		d.hop = make([]uint8, n*g*d.trunk)
		for r := range n {
			d.grp[r] = int32(r / a)
			for T := range g {
				if T == r/a {
					continue
				}
				for m := range d.trunk {
					d.hop[(r*g+T)*d.trunk+m] = uint8(d.towardPort(r, T, m)) // ports below 62
				}
			}
		}
	}
	return d, nil
}

// towardPort is PortToward without the table.
func (d *Dragonfly) towardPort(r, T, m int) int {
	x, port := d.Toward(d.Group(r), T, m)
	if x == r {
		return port
	}
	return d.LocalPort(d.Index(r), d.Index(x))
}

// PortToward is the port of router r towards group T (not r's) by the m-th trunk
// channel: the global port when r holds that channel, else the local port to the
// router of its group that does.
func (d *Dragonfly) PortToward(r, T, m int) int {
	if d.hop != nil {
		return int(d.hop[(r*d.g+T)*d.trunk+m])
	}
	return d.towardPort(r, T, m)
}

// MinPort is the next port of the minimal route from router r to router dst (not
// r) by the m-th trunk channel: the local port to dst in r's group, else
// PortToward dst's group.
func (d *Dragonfly) MinPort(r, dst, m int) int {
	if d.hop != nil {
		G, D := int(d.grp[r]), int(d.grp[dst])
		if G == D {
			return d.LocalPort(r-G*d.a, dst-G*d.a)
		}
		return int(d.hop[(r*d.g+D)*d.trunk+m])
	}
	if d.Group(r) == d.Group(dst) {
		return d.LocalPort(d.Index(r), d.Index(dst))
	}
	return d.towardPort(r, d.Group(dst), m)
}

// A, P, H, G are the routers per group, terminals per router, global channels per
// router and groups; Trunk the global channels between two groups.
func (d *Dragonfly) A() int     { return d.a }
func (d *Dragonfly) P() int     { return d.p }
func (d *Dragonfly) H() int     { return d.h }
func (d *Dragonfly) G() int     { return d.g }
func (d *Dragonfly) Trunk() int { return d.trunk }

// Group and Index are router r's group and its index within the group.
func (d *Dragonfly) Group(r int) int { return r / d.a }
func (d *Dragonfly) Index(r int) int { return r % d.a }

// Router is router i of group G.
func (d *Dragonfly) Router(G, i int) int { return G*d.a + i }

// LocalPort is the port of router i of a group that leads to router j of the same
// group (i != j).
func (d *Dragonfly) LocalPort(i, j int) int {
	if j < i {
		return j
	}
	return j - 1
}

// Global reports whether port is a global channel.
func (d *Dragonfly) Global(port int) bool { return port >= d.a-1 }

// Toward is the router of group G holding its m-th global channel to group T
// (0 <= m < Trunk, G != T) and that channel's port.
func (d *Dragonfly) Toward(G, T, m int) (router, port int) {
	j := d.arr.toward(d, G, T) + m*(d.g-1)
	return G*d.a + j/d.h, d.a - 1 + j%d.h
}

// NodeName is "G.i": router i of group G.
func (d *Dragonfly) NodeName(r int) string {
	return strconv.Itoa(r/d.a) + "." + strconv.Itoa(r%d.a)
}

func (d *Dragonfly) String() string {
	s := fmt.Sprintf("dragonfly:a=%d,p=%d,h=%d,g=%d", d.a, d.p, d.h, d.g)
	if d.arrName != "absolute" {
		s += ",arrangement=" + d.arrName
	}
	if d.local != 10 || d.global != 100 {
		s += fmt.Sprintf(",local=%d,global=%d", d.local, d.global)
	}
	return s
}
