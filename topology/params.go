package topology

import (
	"fmt"
	"sort"
	"strings"
)

// params are a spec's comma-separated parameters: KEY=VALUE pairs, and at most one
// leading value without a key (the sides of "hyperx:4x4,t=4").
type params struct {
	lead string
	kv   map[string]string
	used map[string]bool
}

func parseParams(arg string) (*params, error) {
	p := &params{kv: map[string]string{}, used: map[string]bool{}}
	for i, f := range strings.Split(arg, ",") {
		k, v, ok := strings.Cut(f, "=")
		switch {
		case !ok && i == 0:
			p.lead = f
		case !ok:
			return nil, &SpecError{Field: f, Msg: "want KEY=VALUE"}
		case k == "" || v == "":
			return nil, &SpecError{Field: f, Msg: "want KEY=VALUE"}
		default:
			if _, dup := p.kv[k]; dup {
				return nil, &SpecError{Field: k, Msg: "given twice"}
			}
			p.kv[k] = v
		}
	}
	return p, nil
}

// has reports whether key was given.
func (p *params) has(key string) bool { _, ok := p.kv[key]; return ok }

// int reads key as a whole number at least lo, def when absent.
func (p *params) int(key string, def, lo int) (int, error) {
	p.used[key] = true
	s, ok := p.kv[key]
	if !ok {
		return def, nil
	}
	v, err := atoi(s)
	if err != nil {
		return 0, &SpecError{Field: key, Msg: fmt.Sprintf("%q is not a whole number", s)}
	}
	if v < lo {
		return 0, &SpecError{Field: key, Msg: fmt.Sprintf("%d is below %d", v, lo)}
	}
	return v, nil
}

// str reads key, def when absent.
func (p *params) str(key, def string) string {
	p.used[key] = true
	if s, ok := p.kv[key]; ok {
		return s
	}
	return def
}

// done fails on a key no reader asked for.
func (p *params) done() error {
	var extra []string
	for k := range p.kv {
		if !p.used[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return &SpecError{Field: extra[0], Msg: "unknown parameter"}
	}
	return nil
}
