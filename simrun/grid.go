package simrun

import (
	"fmt"
	"slices"
)

// Axis is a parameter that takes several values.
type Axis struct {
	Param  string
	Values []string
}

// Grid is a base run and the axes whose cross product gives its points.
type Grid struct {
	Base Run
	Axes []Axis
	// MaxMemory, when positive, is the budget a point's floor is checked against
	// before its network is built (Run.CheckFloor).
	MaxMemory int64
}

// MaxPoints bounds the points of a grid.
const MaxPoints = 100_000

// Point is one run of a grid: its index in the grid's order and the values of the
// axes (in the order of Grid.Axes).
type Point struct {
	Index int
	Run   Run
	Vary  []string
}

// SetAxis adds (or replaces) the axis of param; one value sets the base instead.
func (g *Grid) SetAxis(param string, values []string) error {
	p, ok := Lookup(param)
	if !ok {
		return &Error{"", fmt.Sprintf("no parameter %q", param)}
	}
	g.Axes = slices.DeleteFunc(g.Axes, func(a Axis) bool { return a.Param == param })
	if len(values) == 1 {
		return p.Set(&g.Base, values[0])
	}
	if len(values) == 0 {
		return &Error{param, "no values"}
	}
	g.Axes = append(g.Axes, Axis{param, values})
	// Axes in the order of Params: the load varies fastest.
	order := map[string]int{}
	for i, q := range Params() {
		order[q.Name] = i
	}
	slices.SortStableFunc(g.Axes, func(a, b Axis) int { return order[a.Param] - order[b.Param] })
	return nil
}

// Size is the number of points.
func (g *Grid) Size() int {
	n := 1
	for _, a := range g.Axes {
		n *= len(a.Values)
		if n > MaxPoints {
			return MaxPoints + 1
		}
	}
	return n
}

// Varying lists the parameters of the axes.
func (g *Grid) Varying() []string {
	var ns []string
	for _, a := range g.Axes {
		ns = append(ns, a.Param)
	}
	return ns
}

// Points lists the cross product, the last axis varying fastest. Every point is
// validated; the first error names the parameter and, when it is an axis's, the
// value.
func (g *Grid) Points() ([]Point, error) {
	n := g.Size()
	if n > MaxPoints {
		return nil, &Error{"", fmt.Sprintf("the lists give more than %d points", MaxPoints)}
	}
	pts := make([]Point, n)
	idx := make([]int, len(g.Axes))
	for i := range pts {
		r := g.Base
		vary := make([]string, len(g.Axes))
		for k, a := range g.Axes {
			vary[k] = a.Values[idx[k]]
			if err := r.Set(a.Param, vary[k]); err != nil {
				return nil, err
			}
		}
		pts[i] = Point{Index: i, Run: r, Vary: vary}
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < len(g.Axes[k].Values) {
				break
			}
			idx[k] = 0
		}
	}
	for _, p := range pts {
		err := p.Run.CheckFloor(g.MaxMemory)
		if err == nil {
			err = p.Run.Validate()
		}
		if err != nil {
			if e, ok := err.(*Error); ok && len(g.Axes) > 0 {
				at := ""
				for k, a := range g.Axes {
					at += fmt.Sprintf(" %s=%s", a.Param, p.Vary[k])
				}
				return nil, &Error{e.Param, e.Msg + " (at" + at + ")"}
			}
			return nil, err
		}
	}
	return pts, nil
}

// isLoad reports whether the parameter named sets the offered load.
func isLoad(name string) bool {
	p, ok := Lookup(name)
	return ok && p.Load
}

// Configurations is g without its load axes: one point per configuration (its
// parameters but the load), the points a saturation search runs from.
func (g *Grid) Configurations() *Grid {
	c := &Grid{Base: g.Base, MaxMemory: g.MaxMemory}
	for _, a := range g.Axes {
		if !isLoad(a.Param) {
			c.Axes = append(c.Axes, a)
		}
	}
	return c
}

// ConfigurationOf is the index, among the points of g.Configurations(), of the
// configuration of p, a point of g.
func (g *Grid) ConfigurationOf(p Point) int {
	idx := 0
	for i, a := range g.Axes {
		if !isLoad(a.Param) {
			idx = idx*len(a.Values) + slices.Index(a.Values, p.Vary[i])
		}
	}
	return idx
}
