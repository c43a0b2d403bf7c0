package topology

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A dragonfly's port table (PortToward, MinPort) against the links alone: the port
// towards group T is a global channel into T, or a local channel to a router of
// the same group whose port towards T is one; the minimal route MinPort walks
// reaches its destination in at most three hops (local, global, local), at most
// one global; and a dragonfly without the table (as above hopTableMax) gives the
// same ports. Trunks of several channels and the palm-tree arrangement included.
func TestDragonflyPortTable(t *testing.T) {
	for _, spec := range []string{
		"dragonfly:a=4,p=2,h=2,g=9", "dragonfly:a=4,p=2,h=2,g=9,arrangement=palmtree",
		"dragonfly:a=4,p=1,h=2,g=5", "dragonfly:a=3,p=1,h=1,g=2,local=1,global=1",
		"dragonfly:a=4,p=1,h=3,g=7", "dragonfly:p=2",
	} {
		n, err := Parse(spec)
		require.NoError(t, err, spec)
		d := n.(*Dragonfly)
		require.NotNil(t, d.hop, spec)
		bare := *d
		bare.hop, bare.grp = nil, nil
		group := func(r int) int { return r / d.A() }
		for r := range d.Nodes() {
			for T := range d.G() {
				if T == group(r) {
					continue
				}
				for m := range d.Trunk() {
					p := d.PortToward(r, T, m)
					require.Equal(t, p, bare.PortToward(r, T, m), "%s: router %d towards %d, trunk %d", spec, r, T, m)
					x, _ := d.Link(r, p)
					if !d.Global(p) {
						require.Equal(t, group(r), group(x), "%s: a local port leaves the group", spec)
						q := d.PortToward(x, T, m)
						require.True(t, d.Global(q), "%s: router %d's port towards %d is not global", spec, x, T)
						x, _ = d.Link(x, q)
					}
					require.Equal(t, T, group(x), "%s: router %d towards %d by trunk %d reaches group %d", spec, r, T, m, group(x))
				}
			}
			for dst := range d.Nodes() {
				if dst == r {
					continue
				}
				for m := range d.Trunk() {
					at, hops, globals := r, 0, 0
					for at != dst {
						p := d.MinPort(at, dst, m)
						require.Equal(t, p, bare.MinPort(at, dst, m), spec)
						if d.Global(p) {
							globals++
						}
						at, _ = d.Link(at, p)
						hops++
						require.LessOrEqual(t, hops, 3, "%s: %d to %d takes more than three hops", spec, r, dst)
					}
					require.LessOrEqual(t, globals, 1, "%s: %d to %d crosses %d global channels", spec, r, dst, globals)
				}
			}
		}
	}
}
