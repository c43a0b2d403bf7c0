package deadlock

// A picture of a deadlock configuration on a 1-D or 2-D grid: the routers, the
// links, each packet's chain of VCs as a thick coloured arrow router to router
// (a wrap link as a stub off the grid's edge), its head circled, and the VCs its
// head requests as thin dashed arrows of its colour.

import (
	"fmt"
	"io"
	"strings"

	"github.com/wormlab/wormlab/topology"
)

var wormColours = []string{"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"}

// CheckSVG says whether DrawSVG can draw a configuration on net (a 1-D or 2-D
// torus or mesh): wormlab deadlock --svg asks before it decides, not after.
func CheckSVG(net topology.Network) error {
	if grid, ok := net.(*topology.Grid); !ok || grid.Dims() > 2 {
		return fmt.Errorf("--svg draws 1-D and 2-D tori and meshes, not %s", net)
	}
	return nil
}

// DrawSVG draws the configuration of res (a deadlock) on its grid.
func DrawSVG(w io.Writer, res *Result) error {
	g := res.graph
	if g == nil || res.verdict == nil || res.verdict.Config == nil {
		return fmt.Errorf("no deadlock configuration to draw")
	}
	if err := CheckSVG(g.Net); err != nil {
		return err
	}
	grid := g.Net.(*topology.Grid)
	kx, ky := grid.Side(0), 1
	if grid.Dims() == 2 {
		ky = grid.Side(1)
	}
	const step, margin = 60.0, 50.0
	pos := func(v int) (float64, float64) {
		x := grid.Coord(v, 0)
		y := 0
		if grid.Dims() == 2 {
			y = grid.Coord(v, 1)
		}
		return margin + step*float64(x), margin + step*float64(ky-1-y)
	}
	width, height := 2*margin+step*float64(kx-1), 2*margin+step*float64(ky-1)+40
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", width, height)
	b.WriteString(`<defs>`)
	for i, c := range wormColours {
		fmt.Fprintf(&b, `<marker id="a%d" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>`, i, c)
	}
	b.WriteString("</defs>\n")
	// an arrow along VC c: from its router towards the next, offset to its side by
	// the VC number; wrap links end off the edge
	seg := func(c int32) (x1, y1, x2, y2 float64) {
		ch := g.Channel(c)
		next, _ := g.Net.Link(ch.Router, ch.Port)
		x1, y1 = pos(ch.Router)
		x2, y2 = pos(next)
		dim, dir := topology.PortDim(ch.Port)
		if dx, dy := x2-x1, y2-y1; dx*dx+dy*dy > 1.5*step*step {
			// a wrap link: a stub of half a step outward
			x2, y2 = x1, y1
			if dim == 0 {
				x2 += float64(dir) * step / 2
			} else {
				y2 -= float64(dir) * step / 2
			}
		}
		off := 4 + 5*float64(ch.VC)
		if dim == 0 {
			y1, y2 = y1-float64(dir)*off, y2-float64(dir)*off
		} else {
			x1, x2 = x1+float64(dir)*off, x2+float64(dir)*off
		}
		// shorten to leave the routers visible
		dx, dy := x2-x1, y2-y1
		x1, y1 = x1+dx*0.15, y1+dy*0.15
		x2, y2 = x2-dx*0.15, y2-dy*0.15
		return
	}
	for v := range g.Net.Nodes() {
		for p := range g.Net.Ports(v) {
			if next, _ := g.Net.Link(v, p); next >= 0 {
				x1, y1 := pos(v)
				x2, y2 := pos(next)
				if dx, dy := x2-x1, y2-y1; dx*dx+dy*dy < 1.5*step*step {
					fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd" stroke-width="1"/>`+"\n", x1, y1, x2, y2)
				}
			}
		}
	}
	for v := range g.Net.Nodes() {
		x, y := pos(v)
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="14" height="14" fill="#f4f4f4" stroke="#999"/>`+"\n", x-7, y-7)
	}
	cfg := res.verdict.Config
	for i, wm := range cfg.Worms {
		col := wormColours[i%len(wormColours)]
		mk := i % len(wormColours)
		for _, n := range wm.Nodes {
			x1, y1, x2, y2 := seg(g.held[n])
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="4" marker-end="url(#a%d)"/>`+"\n", x1, y1, x2, y2, col, mk)
		}
		for _, c := range g.Choices(wm.head()) {
			x1, y1, x2, y2 := seg(c)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.2" stroke-dasharray="3,2" marker-end="url(#a%d)"/>`+"\n", x1, y1, x2, y2, col, mk)
		}
		at, _ := g.Rep(wm.head())
		x, y := pos(at)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="10" fill="none" stroke="%s" stroke-width="2"/>`+"\n", x, y, col)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f">%s on %s, %d VCs: %d packets (thick: VCs held; dashed: VCs the head may request; circle: head)</text>`+"\n", margin-30, height-12, res.Routing, res.Topology, res.VCs, len(cfg.Worms))
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
