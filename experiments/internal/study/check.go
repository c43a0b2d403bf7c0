package study

import (
	"context"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/wormlab/wormlab/internal/atomicfile"
)

var sectionRe = regexp.MustCompile("(?m)^`([a-z0-9-]+)`\n\n")

// Sections splits a summary.md into its tables: the text after each line "`NAME`"
// up to the next such line.
func Sections(summary string) map[string]string {
	out := map[string]string{}
	locs := sectionRe.FindAllStringSubmatchIndex(summary, -1)
	for i, l := range locs {
		end := len(summary)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		out[summary[l[2]:l[3]]] = strings.TrimSpace(summary[l[1]:end])
	}
	return out
}

// Differences compares points rerun with the points committed: for every rerun
// point that was committed and every field, the rerun's mean must lie within the
// committed interval widened by the rerun's own half-width (a point of one
// replication may hold its interval as FIELD_ci) and by slack, a relative
// tolerance. It lists what does not, and the rerun
// points the commit lacks.
func Differences(committed, rerun []Point, fields []string, slack float64) []string {
	byKey := map[string]Point{}
	for _, p := range committed {
		byKey[p.Part+"|"+p.Name] = p
	}
	var out []string
	for _, r := range rerun {
		c, ok := byKey[r.Part+"|"+r.Name]
		if !ok {
			out = append(out, fmt.Sprintf("%s %s: not in the committed points", r.Part, r.Name))
			continue
		}
		for _, f := range fields {
			a, b := c.Est(f), r.Est(f)
			if a.N == 0 && b.N == 0 {
				continue
			}
			if a.N != b.N {
				out = append(out, fmt.Sprintf("%s %s %s: %d replications with a value, committed %d", r.Part, r.Name, f, b.N, a.N))
				continue
			}
			ha, hb := a.Half, b.Half
			if a.N == 1 { // one replication holding its own interval (FIELD_ci)
				ha, _ = c.Obs[0].Get(f + "_ci")
				hb, _ = r.Obs[0].Get(f + "_ci")
			}
			tol := ha + hb + slack*math.Abs(a.Mean) + 1e-9
			if math.Abs(a.Mean-b.Mean) > tol {
				out = append(out, fmt.Sprintf("%s %s %s: %.6g against the committed %s", r.Part, r.Name, f, b.Mean, a.Fmt(4)))
			}
		}
	}
	return out
}

// Regenerate runs report on a copy of a committed output folder's points and CPU
// times and lists the committed files (summary.md, figures.json, the figures)
// that it does not rewrite byte for byte: the committed tables and figures must be
// those of the committed points.
func Regenerate(committed string, report func(dir string) error) ([]string, error) {
	dir, err := os.MkdirTemp("", "study-regenerate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	pts, _ := pointsPath(committed)
	for _, f := range []string{pts, cpuFile} {
		data, err := os.ReadFile(committed + "/" + f)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(dir+"/"+f, data, 0o644); err != nil {
			return nil, err
		}
	}
	if err := report(dir); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(committed)
	if err != nil {
		return nil, err
	}
	var diff []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !(n == "summary.md" || n == "figures.json" || strings.HasSuffix(n, ".svg")) {
			continue
		}
		want, err := os.ReadFile(committed + "/" + n)
		if err != nil {
			return nil, err
		}
		got, err := os.ReadFile(dir + "/" + n)
		if err != nil || string(got) != string(want) {
			diff = append(diff, n)
		}
	}
	return diff, nil
}

var markRe = regexp.MustCompile("(?m)^<!-- table ([a-z0-9-]+) -->\n")

const endMark = "<!-- end -->"

// NotRun stands in a page for a table whose parts the committed run does not hold.
const NotRun = "*Not in the committed run: its parts were not run at its scale.*"

// Fill returns the page doc with every table it quotes taken from summary: the text
// between a line "<!-- table NAME -->" and the next line "<!-- end -->" becomes the
// summary's section NAME, or NotRun when the summary lacks it (those are named in
// missing). It fails on a marker without its end. A page whose Fill is itself quotes
// the summary exactly (the doc test of a study).
func Fill(doc, summary string) (string, []string, error) {
	secs := Sections(summary)
	var b strings.Builder
	var missing []string
	rest := doc
	for {
		loc := markRe.FindStringSubmatchIndex(rest)
		if loc == nil {
			b.WriteString(rest)
			return b.String(), missing, nil
		}
		name := rest[loc[2]:loc[3]]
		end := strings.Index(rest[loc[1]:], endMark+"\n")
		if end < 0 || (end > 0 && rest[loc[1]+end-1] != '\n') {
			return "", nil, fmt.Errorf("table %s: no line %q after its marker", name, endMark)
		}
		b.WriteString(rest[:loc[1]])
		text, ok := secs[name]
		if !ok {
			missing = append(missing, name)
			text = NotRun
		}
		b.WriteString(text + "\n")
		rest = rest[loc[1]+end:]
	}
}

// FillFile rewrites the page at docPath with the tables of the summary at
// summaryPath (Fill) and returns the names of the tables the summary lacks.
func FillFile(docPath, summaryPath string) ([]string, error) {
	doc, err := os.ReadFile(docPath)
	if err != nil {
		return nil, err
	}
	sum, err := os.ReadFile(summaryPath)
	if err != nil {
		return nil, err
	}
	out, missing, err := Fill(string(doc), string(sum))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", docPath, err)
	}
	return missing, atomicfile.Write(docPath, []byte(out))
}

// Quotes checks that the page at pagePath quotes every table of the summary in the
// committed folder where its markers stand, verbatim: Fill leaves the page as it
// is and every section has its marker. It returns the tables the page marks and
// the summary lacks (NotRun stands there), and an error naming what differs.
func Quotes(pagePath, committed string) ([]string, error) {
	doc, err := os.ReadFile(pagePath)
	if err != nil {
		return nil, err
	}
	sum, err := os.ReadFile(committed + "/summary.md")
	if err != nil {
		return nil, err
	}
	filled, missing, err := Fill(string(doc), string(sum))
	if err != nil {
		return nil, err
	}
	if filled != string(doc) {
		return missing, fmt.Errorf("%s does not quote %s/summary.md as it stands: refill it with -report -doc", pagePath, committed)
	}
	for _, name := range Keys(Sections(string(sum))) {
		if !strings.Contains(string(doc), "<!-- table "+name+" -->\n") {
			return missing, fmt.Errorf("%s does not quote table %s", pagePath, name)
		}
	}
	return missing, nil
}

// Rerun runs parts into out and lists the differences of their points from the
// committed folder's (Differences, no slack): a study's gated test that its
// committed points are what the code gives.
func Rerun(ctx context.Context, out, committed string, parts []Part, fields []string) ([]string, error) {
	if err := Run(ctx, Options{Out: out}, parts); err != nil {
		return nil, err
	}
	recs, err := Load(out, parts)
	if err != nil {
		return nil, err
	}
	rerun := Points(recs, fields)
	if len(rerun) == 0 {
		return nil, fmt.Errorf("%s: the rerun has no points", out)
	}
	old, err := ReadPoints(committed)
	if err != nil {
		return nil, err
	}
	return Differences(old, rerun, fields, 0), nil
}

var quotedRe = regexp.MustCompile(`(?s)<!-- table [a-z0-9-]+ -->\n.*?<!-- end -->\n`)

// Prose is a page without the tables it quotes whole (Fill's markers and what
// stands between them).
func Prose(doc string) string { return quotedRe.ReplaceAllString(doc, "") }

// Figures says how a page's prose quotes the figures of its study's summary
// (Unheld).
type Figures struct {
	Signed bool            // a percentage keeps its sign: "+21.5%" must stand so in the summary
	Shares bool            // a percentage may stand as its share, to two decimals (87% as 0.87)
	Known  map[string]bool // figures taken from elsewhere or derived (the caller says whence)
}

var (
	figureRe       = regexp.MustCompile(`\d+(\.\d+)?%|\d+\.\d+`)
	signedFigureRe = regexp.MustCompile(`[+-]?\d+(\.\d+)?%|\d+\.\d+`)
)

// Unheld lists the figures of text (numbers with a decimal point and percentages)
// that summary does not hold as a number of its own and f.Known does not list. It
// fails when text has no figure at all.
func (f Figures) Unheld(text, summary string) ([]string, error) {
	re := figureRe
	if f.Signed {
		re = signedFigureRe
	}
	nums := re.FindAllString(text, -1)
	if len(nums) == 0 {
		return nil, fmt.Errorf("no figure in the text")
	}
	has := func(n string) bool { return holdsNumber(summary, n) }
	var out []string
	for _, n := range nums {
		if f.Known[n] || has(n) {
			continue
		}
		if p, ok := strings.CutSuffix(n, "%"); ok && f.Shares {
			if v, err := strconv.ParseFloat(p, 64); err == nil && has(strconv.FormatFloat(v/100, 'f', 2, 64)) {
				continue
			}
		}
		out = append(out, n)
	}
	return out, nil
}

// holdsNumber tells whether summary holds n as a number of its own: n where
// neither a digit nor a point comes before it and no digit after it (a figure
// does not stand inside a longer one).
func holdsNumber(summary, n string) bool {
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	for i := 0; i+len(n) <= len(summary); i++ {
		j := strings.Index(summary[i:], n)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(n)
		if (j == 0 || !(digit(summary[j-1]) || summary[j-1] == '.')) && (end == len(summary) || !digit(summary[end])) {
			return true
		}
		i = j
	}
	return false
}
