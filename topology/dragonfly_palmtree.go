package topology

// The palm-tree (relative) global arrangement of a dragonfly, M. Garcia's, as
// Camarero, Vallejo and Beivide describe it (ACM TACO 11(4), 2014): global channel
// j of group G goes to group G - j - 1 (mod g) and enters there its channel
// a*h - 1 - j, so that router i's channels reach the groups at offsets
// -(i*h + 1) .. -(i*h + h) and every group sees the same pattern of offsets. It
// needs one channel between every two groups, g = a*h + 1.

type palmtree struct{}

func init() {
	registerArrangement("palmtree", palmtree{})
	registerArrangement("relative", palmtree{})
}

func (palmtree) link(d *Dragonfly, G, j int) (T, jj int) {
	return ((G-j-1)%d.g + d.g) % d.g, d.a*d.h - 1 - j
}

func (palmtree) toward(d *Dragonfly, G, T int) int { return ((G-T-1)%d.g + d.g) % d.g }

func (palmtree) check(d *Dragonfly) string {
	if d.g != d.a*d.h+1 {
		return "palmtree needs one global channel between every two groups, g = a*h + 1"
	}
	return ""
}
