package simrun

import (
	"context"
	"errors"
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/wormlab/wormlab/sim"
)

// The default run builds BookSim2's configuration of docs/booksim.md: the 8x8 torus,
// 4 VCs of 8 flits, the booksim pipeline (link 2 on a torus), 16-flit packets at 0.1
// flits/node/cycle.
func TestDefaultBuilds(t *testing.T) {
	r := Default()
	b, err := r.Build()
	require.NoError(t, err)
	require.Equal(t, "torus:8x8", b.Net.String())
	require.Equal(t, "dor", b.Alg.Name)
	require.Equal(t, 4, b.Config.VCs)
	require.Equal(t, 8, b.Config.Buf)
	require.Equal(t, sim.BookSim(b.Net), b.Config.Pipeline)
	require.Equal(t, 0.1, b.Workload.Rate)
	require.Equal(t, []int{16}, b.Sizes.Flits)
	require.False(t, b.Config.AtomicVC)
	require.InDelta(t, 0.1, r.Offered(), 1e-12)
}

// Every bad value is an *Error naming its parameter.
func TestValidateNamesTheParameter(t *testing.T) {
	for _, c := range []struct {
		param string
		set   map[string]string
	}{
		{"buf", map[string]string{"buf": "0"}},
		{"vcs", map[string]string{"vcs": "65"}},
		{"vcs", map[string]string{"vcs": "1"}}, // dor needs 2 on a torus
		{"routing", map[string]string{"routing": "xyz"}},
		{"routing", map[string]string{"topology": "fattree:16"}},
		{"topology", map[string]string{"topology": "torus:1x4"}},
		{"traffic", map[string]string{"traffic": "zipf"}},
		{"traffic", map[string]string{"topology": "torus:3x3", "traffic": "transpose"}},
		{"rate", map[string]string{"rate": "0"}},
		{"rate", map[string]string{"rate": "1.5"}},
		{"msg-rate", map[string]string{"msg-rate": "2"}},
		{"flits", map[string]string{"flits": "0"}},
		{"process", map[string]string{"process": "pareto"}},
		{"rate", map[string]string{"process": "onoff", "rate": "0.9", "flits": "1"}},
		{"hot", map[string]string{"hot": "3"}},
		{"hot-fraction", map[string]string{"hot-fraction": "0.5"}},
		{"radius", map[string]string{"radius": "2"}},
		{"radius", map[string]string{"traffic": "hotspot", "radius": "2"}},
		{"hot", map[string]string{"traffic": "localsq", "hot": "2"}},
		{"burst-alpha", map[string]string{"burst-alpha": "0.2"}},
		{"link-delay", map[string]string{"link-delay": "0"}},
		{"route-delay", map[string]string{"route-delay": "65"}},
		{"deadlock-cycles", map[string]string{"deadlock-cycles": "5"}},
		{"deadlock-cycles", map[string]string{"deadlock-cycles": "0"}},
		{"atomic-vc", map[string]string{"atomic-vc": "maybe"}},
		{"select", map[string]string{"select": "best"}},
		{"arb", map[string]string{"arb": "lottery"}},
		{"inject-limit", map[string]string{"inject-limit": "-1"}},
		{"rel", map[string]string{"rel": "0"}},
		{"max-cycles", map[string]string{"max-cycles": "0"}},
		{"pipeline", map[string]string{"pipeline": "fast"}},
	} {
		r := Default()
		for k, v := range c.set {
			require.NoError(t, r.Set(k, v), "%s=%s", k, v)
		}
		err := r.Validate()
		var e *Error
		require.True(t, errors.As(err, &e), "%v: %v", c.set, err)
		require.Equal(t, c.param, e.Param, "%v: %v", c.set, err)
	}
}

// A pattern's own parameters are taken by the patterns that read them (its
// registry entry says which): local and seed 003's localsq take a radius, hotspot
// its hot nodes and fraction.
func TestPatternParamsAccepted(t *testing.T) {
	for _, set := range []map[string]string{
		{"traffic": "local", "radius": "3"},
		{"traffic": "localsq", "radius": "3"},
		{"traffic": "hotspot", "hot": "3,5", "hot-fraction": "0.5"},
	} {
		r := Default()
		for k, v := range set {
			require.NoError(t, r.Set(k, v), "%s=%s", k, v)
		}
		require.NoError(t, r.Validate(), "%v", set)
	}
}

// Set and Get are inverses on every parameter, and a value that is not of the
// parameter's kind (NaN, infinity, a word for a number) is refused by Set.
func TestParamsRoundTrip(t *testing.T) {
	d := Default()
	for _, p := range Params() {
		r := Default()
		require.NoError(t, p.Set(&r, p.Get(&d)), p.Name)
		require.Equal(t, p.Get(&d), p.Get(&r), p.Name)
		if p.Kind == Int || p.Kind == Float || p.Kind == Uint {
			for _, bad := range []string{"NaN", "Inf", "x", ""} {
				err := p.Set(&r, bad)
				require.Error(t, err, "%s=%q", p.Name, bad)
				require.Equal(t, p.Name, err.(*Error).Param)
			}
		}
	}
	r := Default()
	require.NoError(t, r.Set("msg-rate", "0.01"))
	require.Zero(t, r.Rate, "a load in packets replaces the load in flits")
	require.InDelta(t, 0.16, r.Offered(), 1e-12)
}

func TestValues(t *testing.T) {
	rate, _ := Lookup("rate")
	v, err := rate.Values("0.1:0.5:0.1")
	require.NoError(t, err)
	require.Equal(t, []string{"0.1", "0.2", "0.3", "0.4", "0.5"}, v)
	v, err = rate.Values("0.05,0.3")
	require.NoError(t, err)
	require.Equal(t, []string{"0.05", "0.3"}, v)
	vcs, _ := Lookup("vcs")
	v, err = vcs.Values("2:8:2")
	require.NoError(t, err)
	require.Equal(t, []string{"2", "4", "6", "8"}, v)
	flits, _ := Lookup("flits")
	v, err = flits.Values("1:0.8,16:0.2")
	require.NoError(t, err)
	require.Equal(t, []string{"1:0.8,16:0.2"}, v, "a size mix is one value")
	rt, _ := Lookup("routing")
	for text, msg := range map[string]string{
		"dor,,duato":  "item 2 of the list is empty",
		"dor,dor":     "dor appears twice",
		"":            "empty value",
		"0.1:0.5:0":   "the step is zero",
		"0.5:0.1:0.1": "FROM is above TO",
	} {
		p := rt
		if text[0:min(1, len(text))] == "0" {
			p = rate
		}
		_, err := p.Values(text)
		require.ErrorContains(t, err, msg, text)
	}
}

// A grid's points are the cross product in the order of Params, the load fastest,
// and each carries its axes' values.
func TestGridPoints(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	f := Bind(fs, Default())
	require.NoError(t, fs.Parse([]string{"--rate", "0.1:0.3:0.1", "--routing", "dor,duato", "--topology", "mesh:4x4", "--vcs", "3"}))
	g := &Grid{Base: Default()}
	require.NoError(t, f.Apply(g))
	require.Equal(t, []string{"routing", "rate"}, g.Varying())
	pts, err := g.Points()
	require.NoError(t, err)
	require.Len(t, pts, 6)
	require.Equal(t, []string{"duato", "0.2"}, pts[4].Vary)
	require.Equal(t, "duato", pts[4].Run.Routing)
	require.Equal(t, 0.2, pts[4].Run.Rate)
	require.Equal(t, 3, pts[4].Run.VCs)

	fs = flag.NewFlagSet("t", flag.ContinueOnError)
	f = Bind(fs, Default())
	require.NoError(t, fs.Parse([]string{"--topology", "torus:4x4,torus:3x3", "--traffic", "transpose"}))
	g = &Grid{Base: Default()}
	require.NoError(t, f.Apply(g))
	_, err = g.Points()
	require.EqualError(t, err, "--traffic: traffic transpose: 9 terminals is not a power of two (at topology=torus:3x3)")

	for args, msg := range map[string]string{
		"--rates 0.1:0.2:0.1 --rate 0.1":  "--rates: give --rates or --rate / --msg-rate, not both",
		"--rate 0.1 --msg-rate 0.01":      "--rate and --msg-rate: give one",
		"--rates 0.1:0.2:0":               `--rates: "0.1:0.2:0": the step is zero`,
		"--routing dor --routing dor":     "--routing: dor given twice",
		"--vcs 2,x":                       `--vcs: item 2 of "2,x": "x" is not an integer`,
		"--flits 4 --flits 8 --flits 4":   "--flits: 4 given twice",
		"--traffic uniform,,transpose":    `--traffic: "uniform,,transpose": item 2 of the list is empty`,
		"--seed 1:3:1 --rate 0.1,0.2,0.1": "--rate: \"0.1,0.2,0.1\": 0.1 appears twice",
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		f := Bind(fs, Default())
		require.NoError(t, fs.Parse(splitArgs(args)))
		require.EqualError(t, f.Apply(&Grid{Base: Default()}), msg, args)
	}
}

// A grid's configurations are its points without the load: each point maps to
// the configuration with its other values (the saturation row it gets), three
// loads to each of the eight.
func TestGridConfigurations(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	f := Bind(fs, Default())
	require.NoError(t, fs.Parse(splitArgs("--topology mesh:4x4 --routing dor,westfirst --vcs 2,3 --rate 0.1:0.3:0.1 --seed 1,2")))
	g := &Grid{Base: Default()}
	require.NoError(t, f.Apply(g))
	require.Equal(t, []string{"routing", "vcs", "seed", "rate"}, g.Varying())
	c := g.Configurations()
	require.Equal(t, []string{"routing", "vcs", "seed"}, c.Varying())
	pts, err := g.Points()
	require.NoError(t, err)
	cfgs, err := c.Points()
	require.NoError(t, err)
	require.Len(t, cfgs, 8)
	seen := map[int]int{}
	for _, p := range pts {
		k := g.ConfigurationOf(p)
		seen[k]++
		want := p.Run
		want.Rate = g.Base.Rate
		require.Equal(t, want, cfgs[k].Run, "point %v", p.Vary)
	}
	require.Len(t, seen, 8)
	for k, n := range seen {
		require.Equal(t, 3, n, "configuration %d", k)
	}
}

func splitArgs(s string) []string {
	var out []string
	word := ""
	for _, c := range s + " " {
		if c == ' ' {
			if word != "" {
				out = append(out, word)
			}
			word = ""
			continue
		}
		word += string(c)
	}
	return out
}

func smallGrid(t *testing.T) []Point {
	g := &Grid{Base: Default()}
	require.NoError(t, g.Base.Set("topology", "mesh:4x4"))
	require.NoError(t, g.Base.Set("max-cycles", "4000"))
	require.NoError(t, g.Base.Set("min-cycles", "2000"))
	require.NoError(t, g.Base.Set("flits", "4"))
	require.NoError(t, g.SetAxis("routing", []string{"dor", "westfirst"}))
	require.NoError(t, g.SetAxis("rate", []string{"0.1", "0.3", "0.6"}))
	pts, err := g.Points()
	require.NoError(t, err)
	return pts
}

// A grid's outcomes are the same, point by point and bit for bit, with one worker
// or three: each point is a function of its run alone.
func TestExecuteDeterministic(t *testing.T) {
	pts := smallGrid(t)
	one := Execute(context.Background(), pts, Options{Workers: 1})
	three := Execute(context.Background(), pts, Options{Workers: 3})
	require.Len(t, one, len(pts))
	for i := range one {
		require.True(t, one[i].Done)
		require.NoError(t, one[i].Err)
		require.Equal(t, i, one[i].Point.Index)
		require.Positive(t, one[i].Wall)
		require.True(t, one[i].Waited >= 0 && one[i].Waited <= one[i].Wall+10*time.Millisecond, "waited %v of %v", one[i].Waited, one[i].Wall)
		require.Equal(t, one[i].Result, three[i].Result, "point %d", i)
		alone, err := RunOne(context.Background(), pts[i].Run, nil)
		require.NoError(t, err)
		require.Equal(t, alone, one[i].Result, "point %d run alone", i)
	}
	require.NotEqual(t, *one[1].Result, *one[4].Result, "the routings differ")
}

// A cancelled grid keeps the points finished and marks the others not done.
func TestExecuteCancelled(t *testing.T) {
	pts := smallGrid(t)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	out := Execute(ctx, pts, Options{Workers: 1, Progress: func(done, total int) {
		n = done
		require.Equal(t, len(pts), total)
		if done == 2 {
			cancel()
		}
	}})
	require.Equal(t, 2, n)
	done := 0
	for _, o := range out {
		if o.Done {
			done++
			require.NotNil(t, o.Result)
		}
	}
	require.Equal(t, 2, done)
}

// A topology list splits only where a new spec begins: a spec's own parameters
// hold commas.
func TestTopologySpecList(t *testing.T) {
	for text, want := range map[string][]string{
		"torus:4x4,torus:3x3":                       {"torus:4x4", "torus:3x3"},
		"dragonfly:a=4,p=2,h=2":                     {"dragonfly:a=4,p=2,h=2"},
		"hyperx:4x4,k=2,t=2,dragonfly:p=1,mesh:3x3": {"hyperx:4x4,k=2,t=2", "dragonfly:p=1", "mesh:3x3"},
	} {
		require.Equal(t, want, splitSpecs(text), text)
	}
}

// pn2n is refuted on tori of two dimensions or more only (routing's
// TestPn2nRefuted proves its meshes deadlock-free with 2^(n-1) VCs, its rings
// with 2): a run on a mesh or a ring builds without --unsafe, where it was
// refused as "not deadlock-free: ... a cycle through two wrap links"; on a torus
// the refusal names the network.
func TestRefutedOnItsNetworksOnly(t *testing.T) {
	r := Default()
	r.Routing, r.Topology, r.VCs = "pn2n", "mesh:4x4", 2
	_, err := r.Build()
	require.NoError(t, err)
	r.Topology = "torus:5"
	_, err = r.Build()
	require.NoError(t, err)
	r.Topology, r.VCs = "torus:4x4", 4
	_, err = r.Build()
	require.EqualError(t, err, "--routing: pn2n is not deadlock-free on torus:4x4: the channel dependency graph has a cycle through two wrap links (wormlab deadlock --routing pn2n; docs/seed003.md) (--unsafe to run anyway)")
	r.Unsafe = true
	_, err = r.Build()
	require.NoError(t, err)
}
