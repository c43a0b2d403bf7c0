package offline

// Color: the offline colorers of Ranade, Schleimer and Wilkerson (seed 002, section
// 4) behind one entry point, with the choice of order and the improvement pass.

import (
	"fmt"
	"math"

	"github.com/wormlab/wormlab/model"
)

// The orders Color knows.
const (
	OrderAuto = "auto"
	OrderTree = "tree"
	OrderMesh = "mesh"
	OrderAny  = "any"
)

// Options control Color.
type Options struct {
	// Order is "auto" (the default when empty), "tree", "mesh" or "any".
	Order string
	// Improve runs the improvement pass (Improve) on the constructed schedule.
	Improve bool
	// Root names the tree order's root node ("" chooses one, see TreePlan); with
	// Order auto a root asks for the tree order; the mesh and any orders refuse one.
	Root string
	// StartsOnly leaves Result.Schedule nil: the caller writes the schedule from
	// Result.Starts (model.WriteBufferless) without holding every crossing time.
	StartsOnly bool
}

// Result is a bufferless schedule with the bound its construction proves.
type Result struct {
	// Schedule is the bufferless schedule (model.FromStarts); nil with
	// Options.StartsOnly.
	Schedule *model.Schedule
	// Makespan is the schedule's makespan.
	Makespan int
	// Order is the order used: "tree", "mesh" or "any".
	Order string
	// Bound is the proven bound on the makespan: Plan.Bound, the sum over the
	// plan's parts of (2L - 1) K (c - 1) + d + L - 1 (Lemma 6, section 4.5).
	Bound int
	// K is the entrance number of the order (2, the mesh dimension, or d).
	K int
	// Plan is the order with its entrance sets.
	Plan *Plan
	// Starts are the start delays, indexed like the instance's messages.
	Starts []int
	// Offsets holds the first step of each part of the plan in the constructed
	// schedule (before improvement).
	Offsets []int
	// Constructed is the makespan of the paper's construction; Schedule.Makespan is
	// never larger, and smaller when the improvement pass found something better.
	Constructed int
	// ImprovedBy names the improvement that gave the final schedule ("" if none).
	ImprovedBy string
}

// Color builds a bufferless schedule for in with the chosen order, colours it
// greedily (section 4.2 with contiguous colours, section 4.5), and, with
// opt.Improve, runs the improvement pass. Errors name the message or field at fault:
// an invalid instance, an unknown order, a network that is not a tree for "tree", a
// path that does not fit the mesh for "mesh".
func Color(in *model.Instance, opt Options) (*Result, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	res, err := ColorPaths(model.PathsOf(in), opt)
	if err != nil {
		return nil, err
	}
	if !opt.StartsOnly {
		res.Schedule = model.FromStarts(in, res.Starts)
	}
	return res, nil
}

// ColorPaths is Color on the compact form of a valid instance (model.ReadPaths,
// model.PathsOf); it leaves Result.Schedule nil whatever opt.StartsOnly says.
func ColorPaths(ps *model.Paths, opt Options) (*Result, error) {
	plan, err := choose(ps, opt.Order, opt.Root)
	if err != nil {
		return nil, err
	}
	sc := plan.scan(ps, true)
	bound := sum(sc.horizon)
	if bound > math.MaxInt32/2 {
		return nil, fmt.Errorf("offline: instance too large: the bound %d does not fit in 32 bits", bound)
	}
	starts, offsets, err := plan.colourWithin(ps, sc)
	if err != nil {
		return nil, err
	}
	res := &Result{Order: plan.Order, Bound: bound, K: plan.K, Plan: plan, Offsets: offsets}
	res.Constructed = makespanPaths(ps, starts)
	if opt.Improve {
		var by string
		starts, by, err = improve(ps, plan, starts)
		if err != nil {
			return nil, err
		}
		res.ImprovedBy = by
	}
	res.Starts = starts
	res.Makespan = makespanPaths(ps, starts)
	return res, nil
}

// Choose returns the plan for an order name. "auto" takes the tree order when the
// network is a forest (IsTree) and every path is simple, else the mesh order when
// the network carries "coords" and every path fits, else the generic order. A root
// given for "auto" asks for the tree order; "mesh" and "any" refuse one.
func Choose(in *model.Instance, order, root string) (*Plan, error) {
	return choose(model.PathsOf(in), order, root)
}

func choose(ps *model.Paths, order, root string) (*Plan, error) {
	if root != "" && (order == OrderMesh || order == OrderAny) { // refused, not ignored
		return nil, fmt.Errorf("offline: the %s order has no root (root %q)", order, root)
	}
	switch order {
	case OrderTree:
		return treePlan(ps, root)
	case OrderMesh:
		return meshPlan(ps)
	case OrderAny:
		return anyPlan(ps), nil
	case OrderAuto, "":
		if root != "" { // a root asks for the tree order
			return treePlan(ps, root)
		}
		if p, err := treePlan(ps, root); err == nil { // it asks IsTree first
			return p, nil
		}
		if _, has := ps.Net.Extra["coords"]; has {
			if p, err := meshPlan(ps); err == nil {
				return p, nil
			}
		}
		return anyPlan(ps), nil
	}
	return nil, fmt.Errorf("offline: unknown order %q (want auto, tree, mesh or any)", order)
}

// makespanPaths returns the largest delivery time s_i + d_i + L_i - 1.
func makespanPaths(ps *model.Paths, starts []int) int {
	ms := 0
	for i, l := range ps.L {
		ms = max(ms, starts[i]+ps.D(i)+l-1)
	}
	return ms
}
