package simrun

import (
	"flag"
	"fmt"
	"strings"
)

// Flags are a Run's parameters as command-line flags, one per parameter, each
// taking a value, a list or a range (Param.Values) and repeatable (the values of
// every occurrence are joined). --rates is --rate's other spelling.
type Flags struct {
	vals  map[string]*flagValue
	order []string
}

type flagValue struct {
	p     *Param
	def   string
	given []string
}

func (v *flagValue) String() string {
	if v == nil || v.p == nil {
		return ""
	}
	return v.def
}

func (v *flagValue) Set(s string) error { v.given = append(v.given, s); return nil }

func (v *flagValue) IsBoolFlag() bool { return v != nil && v.p != nil && v.p.Kind == Bool }

// Repeatable: the values of every occurrence are joined (a list).
func (v *flagValue) Repeatable() bool { return true }

// ratesFlag is the other spelling of --rate, kept from before lists: a range.
const ratesFlag = "rates"

// Bind declares the parameters' flags on fs with def's values as their defaults.
func Bind(fs *flag.FlagSet, def Run) *Flags {
	f := &Flags{vals: map[string]*flagValue{}}
	for _, p := range Params() {
		v := &flagValue{p: p, def: p.get(&def)}
		if p.Name == "rate" && def.Rate == 0.1 {
			v.def = "" // the help says it
		}
		help := p.Help
		if !p.Commas && p.Kind != Bool {
			if p.Kind == String {
				help += "; a list A,B runs each"
			} else {
				help += "; a list A,B or a range FROM:TO:STEP runs each"
			}
		} else if p.Commas {
			help += "; repeat the flag to run several"
		}
		fs.Var(v, p.Name, help)
		f.vals[p.Name] = v
		f.order = append(f.order, p.Name)
	}
	rp, _ := Lookup("rate")
	rv := &flagValue{p: rp}
	fs.Var(rv, ratesFlag, "the offered loads FROM:TO:STEP (or a list) of --rate, one row each")
	f.vals[ratesFlag] = rv
	return f
}

// Given reports whether the flag was on the command line.
func (f *Flags) Given(name string) bool {
	v, ok := f.vals[name]
	return ok && len(v.given) > 0
}

// AnyGiven lists the parameters given on the command line (--rates as rate).
func (f *Flags) AnyGiven() []string {
	var ns []string
	for _, n := range f.order {
		if f.Given(n) || (n == "rate" && f.Given(ratesFlag)) {
			ns = append(ns, n)
		}
	}
	return ns
}

// Apply sets the given flags on g: one value into the base, several as an axis.
// Errors name the flag as it was spelled.
func (f *Flags) Apply(g *Grid) error {
	switch {
	case f.Given(ratesFlag) && (f.Given("rate") || f.Given("msg-rate")):
		return &Error{"", "--rates: give --rates or --rate / --msg-rate, not both"}
	case f.Given("rate") && f.Given("msg-rate"):
		return &Error{"", "--rate and --msg-rate: give one"}
	}
	for _, n := range append(f.order, ratesFlag) {
		v := f.vals[n]
		if len(v.given) == 0 {
			continue
		}
		var all []string
		for _, text := range v.given {
			vals, err := v.p.Values(text)
			if err != nil {
				return &Error{n, err.Error()}
			}
			all = append(all, vals...)
		}
		seen := make(map[string]bool, len(all))
		for _, v := range all {
			if seen[v] {
				return &Error{n, fmt.Sprintf("%s given twice", v)}
			}
			seen[v] = true
		}
		if err := g.SetAxis(v.p.Name, all); err != nil {
			if e, ok := err.(*Error); ok {
				e.Param = n
			}
			return err
		}
	}
	return nil
}

// Lists reports whether any flag gave more than one value.
func (f *Flags) Lists() bool {
	for _, v := range f.vals {
		n := 0
		for _, text := range v.given {
			vals, err := v.p.Values(text)
			if err != nil {
				return false
			}
			n += len(vals)
		}
		if n > 1 {
			return true
		}
	}
	return false
}

// Names lists the flags Bind declares.
func (f *Flags) Names() []string { return append(append([]string{}, f.order...), ratesFlag) }

// Spelled is the flag's spelling in an error: --name.
func Spelled(name string) string { return "--" + strings.TrimPrefix(name, "--") }
