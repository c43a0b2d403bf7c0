package figure

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Options names the fields of a figure.
type Options struct {
	X, Y   string // required; Y may be "A/B", the ratio of two fields
	Series string // optional: one series per value of this field ("A+B" naming no field: per pair of values of A and B)
	Err    string // optional: the error bar's half-width
	LogX   bool
	LogY   bool
	Title  string
	// Where keeps only the rows whose field has one of the given values (compared as
	// labels, so 0.10 matches 0.1 only when both read as the same number).
	Where map[string][]string
	// ShowNull draws a row whose y is null (a saturated point's latency) as a mark
	// at the top of the plot, at its x, instead of leaving it out.
	ShowNull bool
}

// Figure is a built plot: series of points, ready to draw.
type Figure struct {
	Title          string
	XLabel, YLabel string
	LogX, LogY     bool
	// Categories holds the x labels when the x field is not numeric; a point's X is
	// then its index here.
	Categories []string
	Series     []Series
	// Skipped says which rows were left out and why (failed records, missing fields).
	Skipped []string
	// SeriesField names the series in the legend when their values are numbers.
	SeriesField string
	// Legend is where the legend goes: one of Legends ("" is the first).
	Legend string
	// Keys, when set, are the series names of a family of figures in a fixed
	// order: a series takes the look (colour, glyph, dashes) of its name's place
	// in Keys (a series whose name Keys lacks takes a place after them), so that
	// a series keeps its look across the figures of a study.
	Keys []string
}

// Series is one line of a figure.
type Series struct {
	Name   string // the series field's value ("" when there is no series field)
	Points []Point
	// Marks are the x values of the rows whose y is null, with Options.ShowNull.
	Marks []float64
}

// Point is the mean of the N rows sharing a series and an x value.
type Point struct {
	X, Y float64
	Err  float64 // half-width of the error bar; 0: none
	N    int
}

// FieldError names a field no row could supply, or a value that cannot be drawn.
type FieldError struct {
	Field string
	Line  int // 0: no particular line
	Msg   string
}

func (e *FieldError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: field %q: %s", e.Line, e.Field, e.Msg)
	}
	return fmt.Sprintf("field %q: %s", e.Field, e.Msg)
}

type sample struct {
	series, x  any
	y, err     float64
	hasErr     bool
	null       bool // y is null: a mark (ShowNull)
	line       int
	xNum       float64
	xIsNumeric bool
}

// Build groups rows into series and points as the package comment describes.
func Build(rows []Row, o Options) (*Figure, error) {
	if o.X == "" || o.Y == "" {
		return nil, &FieldError{Field: "x/y", Msg: "both --x and --y are required"}
	}
	f := &Figure{Title: o.Title, XLabel: Label(o.X), YLabel: Label(o.Y), LogX: o.LogX, LogY: o.LogY, SeriesField: o.Series}
	var samples []sample
	failed, missing, nulls := 0, map[string][]int{}, map[string][]int{}
	skip := func(field string, line int) { missing[field] = append(missing[field], line) }
	filtered := 0
	type pairRow struct {
		parts []string
		line  int
	}
	pairs := map[string]pairRow{} // --series A+B: the values of each name's first row
	for _, r := range rows {
		if !matches(r, o.Where) {
			filtered++
			continue
		}
		if r.Failed() {
			failed++
			continue
		}
		xv, ok := r.Lookup(o.X)
		if !ok {
			skip(o.X, r.Line)
			continue
		}
		if xv == nil {
			nulls[o.X] = append(nulls[o.X], r.Line)
			continue
		}
		y, ok, err := yValue(r, o.Y)
		null := false
		if ne, isNull := err.(*nullError); isNull {
			if !o.ShowNull {
				nulls[ne.field] = append(nulls[ne.field], r.Line)
				continue
			}
			null, err, ok = true, nil, true
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			skip(o.Y, r.Line)
			continue
		}
		s := sample{x: xv, y: y, null: null, line: r.Line}
		if o.Series != "" {
			sv, parts, ok := seriesOf(r, o.Series)
			if !ok {
				skip(o.Series, r.Line)
				continue
			}
			if parts != nil { // values with spaces could join into another pair's name
				name := sv.(string)
				if p, seen := pairs[name]; seen && !slices.Equal(p.parts, parts) {
					return nil, &FieldError{o.Series, r.Line, fmt.Sprintf("the values %q name the series %q of %q (line %d)",
						parts, name, p.parts, p.line)}
				} else if !seen {
					pairs[name] = pairRow{parts, r.Line}
				}
			}
			s.series = sv
		}
		if o.Err != "" && !null {
			ev, ok := r.Lookup(o.Err)
			if !ok {
				skip(o.Err, r.Line)
				continue
			}
			if ev != nil { // null: no bar
				e, ok := number(ev)
				if !ok || math.IsNaN(e) || math.IsInf(e, 0) {
					return nil, &FieldError{o.Err, r.Line, fmt.Sprintf("%s is not a finite number", jsonText(ev))}
				}
				if e < 0 { // a half-width: a negative one is a mistake upstream
					return nil, &FieldError{o.Err, r.Line, fmt.Sprintf("%s is negative (--err)", jsonText(ev))}
				}
				s.err, s.hasErr = e, true
			}
		}
		s.xNum, s.xIsNumeric = number(xv)
		if s.xIsNumeric && (math.IsNaN(s.xNum) || math.IsInf(s.xNum, 0)) {
			return nil, &FieldError{o.X, r.Line, "not a finite number"}
		}
		samples = append(samples, s)
	}
	if failed > 0 {
		f.Skipped = append(f.Skipped, fmt.Sprintf("%d failed record(s)", failed))
	}
	for _, field := range sortedKeys(missing) {
		lines := missing[field]
		f.Skipped = append(f.Skipped, fmt.Sprintf("%d row(s) without %q (first on line %d)", len(lines), field, lines[0]))
	}
	for _, field := range sortedKeys(nulls) {
		lines := nulls[field]
		f.Skipped = append(f.Skipped, fmt.Sprintf("%d row(s) with %q null (first on line %d; a saturated point has no latency: --show-saturated marks them)", len(lines), field, lines[0]))
	}
	if len(samples) == 0 && len(nulls) > 0 {
		for _, field := range sortedKeys(nulls) {
			return nil, &FieldError{Field: field, Msg: fmt.Sprintf("null in every row (%d; --show-saturated marks them)", len(nulls[field]))}
		}
	}
	if len(samples) == 0 {
		msg := "no row has it"
		switch {
		case filtered == len(rows):
			return nil, &FieldError{Field: "where", Msg: "no row matches --where"}
		case failed+filtered == len(rows):
			msg = "every record failed"
		}
		field, role := absent(rows, o)
		if field == "" {
			field, role = o.Y, "y"
			if len(missing[o.X]) > 0 {
				field, role = o.X, "x"
			}
		}
		return nil, &FieldError{Field: field, Msg: fmt.Sprintf("%s (--%s)", msg, role)}
	}

	// x: numeric when every value is, otherwise categories in natural order.
	categorical := false
	for _, s := range samples {
		if !s.xIsNumeric {
			categorical = true
		}
	}
	if categorical {
		if o.LogX {
			return nil, &FieldError{o.X, 0, "--logx needs numbers, the values are labels"}
		}
		seen := map[string]bool{}
		for _, s := range samples {
			if l := label(s.x); !seen[l] {
				seen[l] = true
				f.Categories = append(f.Categories, l)
			}
		}
		sort.Slice(f.Categories, func(i, j int) bool { return naturalLess(f.Categories[i], f.Categories[j]) })
		index := map[string]int{}
		for i, c := range f.Categories {
			index[c] = i
		}
		for i := range samples {
			samples[i].xNum = float64(index[label(samples[i].x)])
		}
	}

	// Group by series, then by x.
	type key struct {
		series string
		x      float64
	}
	groups := map[key][]sample{}
	names := map[string]bool{}
	marks := map[string][]float64{}
	for _, s := range samples {
		name := ""
		if o.Series != "" {
			name = label(s.series)
		}
		names[name] = true
		if s.null {
			marks[name] = append(marks[name], s.xNum)
			continue
		}
		k := key{name, s.xNum}
		groups[k] = append(groups[k], s)
	}
	if len(groups) == 0 {
		return nil, &FieldError{Field: o.Y, Msg: "null in every row: nothing to draw the marks against"}
	}
	seriesNames := sortedKeys(names)
	sort.Slice(seriesNames, func(i, j int) bool { return seriesLess(seriesNames[i], seriesNames[j]) })
	f.Series = make([]Series, len(seriesNames))
	byName := map[string]*Series{}
	for i, n := range seriesNames {
		f.Series[i].Name = n
		byName[n] = &f.Series[i]
	}
	for k, ss := range groups {
		p := Point{X: k.x, N: len(ss)}
		var sum, sumErr float64
		for _, s := range ss {
			sum += s.y
			sumErr += s.err
		}
		n := float64(len(ss))
		p.Y = sum / n
		if math.IsInf(sum, 0) || math.IsInf(sumErr, 0) {
			// values near the largest float64 (1.7e308 twice): each
			// divided before they are added, which cannot overflow
			sum, sumErr = 0, 0
			for _, s := range ss {
				sum += s.y / n
				sumErr += s.err / n
			}
			p.Y = sum
		} else {
			sumErr /= n
		}
		switch {
		case o.Err != "":
			p.Err = sumErr
		case len(ss) > 1:
			var ss2 float64
			for _, s := range ss {
				ss2 += (s.y - p.Y) * (s.y - p.Y)
			}
			sd := math.Sqrt(ss2 / float64(len(ss)-1))
			if math.IsInf(ss2, 0) {
				// squares past the largest float64: the deviations
				// scaled by the largest of them first
				scale := 0.0
				for _, s := range ss {
					scale = math.Max(scale, math.Abs(s.y-p.Y))
				}
				ss2 = 0
				for _, s := range ss {
					d := (s.y - p.Y) / scale
					ss2 += d * d
				}
				sd = scale * math.Sqrt(ss2/float64(len(ss)-1))
			}
			p.Err = tQuantile975(len(ss)-1) * sd / math.Sqrt(float64(len(ss)))
		}
		if math.IsInf(p.Err, 0) || math.IsNaN(p.Err) || math.IsInf(p.Y+p.Err, 0) || math.IsInf(p.Y-p.Err, 0) {
			barField := o.Y // the bar is the y values' confidence interval
			if o.Err != "" {
				barField = o.Err // the bar is the err field's mean
			}
			return nil, &FieldError{barField, ss[0].line, fmt.Sprintf("the error bar of the %d rows at x = %v passes the largest float64 (%.4g): it cannot be drawn; scale the field", len(ss), p.X, math.MaxFloat64)}
		}
		if o.LogX && p.X <= 0 {
			return nil, &FieldError{o.X, ss[0].line, fmt.Sprintf("%v is not positive (--logx)", p.X)}
		}
		if o.LogY && p.Y <= 0 {
			return nil, &FieldError{o.Y, ss[0].line, fmt.Sprintf("%v is not positive (--logy)", p.Y)}
		}
		byName[k.series].Points = append(byName[k.series].Points, p)
	}
	for i := range f.Series {
		pts := f.Series[i].Points
		sort.Slice(pts, func(a, b int) bool { return pts[a].X < pts[b].X })
		ms := marks[f.Series[i].Name]
		sort.Float64s(ms)
		f.Series[i].Marks = slices.Compact(ms)
		if o.LogX && len(ms) > 0 && ms[0] <= 0 {
			return nil, &FieldError{o.X, 0, fmt.Sprintf("%v is not positive (--logx)", ms[0])}
		}
	}
	return f, nil
}

// nullError is a y field that is null in a row.
type nullError struct{ field string }

func (e *nullError) Error() string { return fmt.Sprintf("field %q: null", e.field) }

// matches reports whether the row satisfies every condition of where.
// Matches reports whether r is kept by Options.Where's conditions.
func Matches(r Row, where map[string][]string) bool { return matches(r, where) }

func matches(r Row, where map[string][]string) bool {
	for field, want := range where {
		v, ok := r.Lookup(field)
		if !ok {
			return false
		}
		got := label(v)
		x, isNum := number(v)
		hit := false
		for _, w := range want {
			if w == got {
				hit = true
				break
			}
			if y, err := strconv.ParseFloat(w, 64); err == nil && isNum && x == y {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// yValue reads the y field, or the ratio A/B when the field is not present as named.
func yValue(r Row, field string) (float64, bool, error) {
	get := func(name string) (float64, bool, error) {
		v, ok := r.Lookup(name)
		if !ok {
			return 0, false, nil
		}
		if v == nil {
			return 0, false, &nullError{name}
		}
		x, ok := number(v)
		if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, false, &FieldError{name, r.Line, fmt.Sprintf("%s is not a finite number", jsonText(v))}
		}
		return x, true, nil
	}
	if _, ok := r.Lookup(field); ok {
		return get(field)
	}
	num, den, isRatio := strings.Cut(field, "/")
	if !isRatio {
		return 0, false, nil
	}
	a, ok, err := get(num)
	if !ok || err != nil {
		return 0, ok, err
	}
	b, ok, err := get(den)
	if !ok || err != nil {
		return 0, ok, err
	}
	if b == 0 {
		return 0, false, &FieldError{den, r.Line, "is zero (denominator of --y)"}
	}
	return a / b, true, nil
}

// tQuantile975 is the 0.975 quantile of Student's t distribution with df degrees of
// freedom (two-sided 95% interval), from the standard table; beyond 30 the normal
// approximation with the first correction term.
func tQuantile975(df int) float64 {
	table := [...]float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df < len(table) {
		return table[df]
	}
	z := 1.959964
	return z + (z*z*z+z)/(4*float64(df))
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// seriesLess orders series names as numbers when both are numbers, else naturally.
func seriesLess(a, b string) bool {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil && x != y {
		return x < y
	}
	return naturalLess(a, b)
}

// naturalLess orders strings with runs of digits compared as numbers, so that
// "torus:4x4" < "torus:16x16" and "p2" < "p10".
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// absent is the first of the options' fields (x, y or the parts of a ratio,
// series or the parts of a pair, err) that no row has, and the option that names
// it ("" when each is in some row): the culprit when no row could be drawn (issue
// 26: --err and --series naming a field of no row blamed the --y field). An empty
// part (--series A+, --y /B) is blamed as the option's whole value, since ""
// says that none is absent.
func absent(rows []Row, o Options) (field, role string) {
	type named struct{ field, role string }
	fs := []named{{o.X, "x"}}
	if num, den, ratio := strings.Cut(o.Y, "/"); ratio && !anyRow(rows, o.Y) {
		fs = append(fs, named{num, "y"}, named{den, "y"})
	} else {
		fs = append(fs, named{o.Y, "y"})
	}
	if parts := strings.Split(o.Series, "+"); len(parts) > 1 && !anyRow(rows, o.Series) {
		for _, p := range parts {
			fs = append(fs, named{p, "series"})
		}
	} else if o.Series != "" {
		fs = append(fs, named{o.Series, "series"})
	}
	if o.Err != "" {
		fs = append(fs, named{o.Err, "err"})
	}
	for _, f := range fs {
		if !anyRow(rows, f.field) {
			if f.field == "" { // an empty part of --y A/B or --series A+B: the option as given
				f.field = o.Series
				if f.role == "y" {
					f.field = o.Y
				}
			}
			return f.field, f.role
		}
	}
	return "", ""
}

func anyRow(rows []Row, field string) bool {
	for _, r := range rows {
		if _, ok := r.Lookup(field); ok {
			return true
		}
	}
	return false
}
