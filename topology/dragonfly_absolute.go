package topology

// The absolute (consecutive) global arrangement of a dragonfly, BookSim2's
// (src/networks/dragonfly.cpp, DragonFlyNew::_BuildNet): global channel j of group
// G goes to the t-th other group in increasing order, t = j mod (g-1) (group t when
// t < G, else t+1), so that with g = a*h + 1 router i of every group reaches the
// groups h*i .. h*i+h-1 of the others' list; a trunk of several channels repeats
// the list.

type absolute struct{}

func init() { registerArrangement("absolute", absolute{}) }

func (absolute) link(d *Dragonfly, G, j int) (T, jj int) {
	t, m := j%(d.g-1), j/(d.g-1)
	T = t
	if t >= G {
		T = t + 1
	}
	return T, m*(d.g-1) + absolute{}.toward(d, T, G)
}

func (absolute) toward(_ *Dragonfly, G, T int) int {
	if T < G {
		return T
	}
	return T - 1
}

func (absolute) check(*Dragonfly) string { return "" }
