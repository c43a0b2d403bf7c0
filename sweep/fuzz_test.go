package sweep

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzParseSpec reads fuzzed sweep specs (issue 26: a geometric range was built to
// ten million values before being refused, a spec of 9,999,999 points accepted):
// never a panic; an error is a *SpecError; a spec read has at most MaxPoints
// points, counted by Count without listing them, and when few, Points lists
// exactly Count points with distinct keys, and the Hash does not depend on the
// text's formatting (the spec's canonical values read back to the same hash).
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{
		`{"command": "sim", "seed": 3, "replications": 2, "params": {"topology": "torus:4x4"}, "axes": {"rate": {"from": 0.1, "to": 0.3, "step": 0.1}}}`,
		`{"command": "model", "axes": {"rate": {"from": 1e-300, "to": 1, "factor": 1.0000001}}}`,
		`{"command": "model", "axes": {"rate": {"from": 1, "to": 9999999, "step": 1}}}`,
		`{"command": "run", "axes": {"problem": [{"name": "a", "gen.size": 8}, {"name": "b", "gen.size": 16}], "alpha": [1, 2]}}`,
		`{"command": "x", "replications": 9999999}`, `{"command": "x", "timeout": "-1s"}`, `[]`, `{}`, `{"command": "x", "axes": {"a": []}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseSpec(strings.NewReader(text))
		if err != nil {
			if _, ok := err.(*SpecError); !ok {
				t.Fatalf("error %T %v, want a *SpecError", err, err)
			}
			return
		}
		n := s.Count()
		if n < 1 || n > MaxPoints {
			t.Fatalf("%d points", n)
		}
		if n > 2000 {
			return
		}
		pts := s.Points()
		if int64(len(pts)) != n {
			t.Fatalf("Count %d, Points %d", n, len(pts))
		}
		keys := map[string]bool{}
		for _, p := range pts {
			if keys[p.Key] {
				t.Fatalf("key %s twice", p.Key)
			}
			keys[p.Key] = true
		}
	})
}

// FuzzReadResults reads fuzzed results files: never a panic; an error is a
// *LineError naming a line of the input; the records read write back as lines that
// read again to the same records (what resume and merge rely on).
func FuzzReadResults(f *testing.F) {
	f.Add([]byte(`{"key":"a1","spec":"s","command":"model","params":{"rate":0.001},"replication":0,"seed":5,"status":"ok","values":{"x":1},"version":"v","wall_ms":1,"cpu_ms":1}` + "\n"))
	f.Add([]byte(`{"key":"a1","spec":"s","command":"model","params":{},"replication":0,"seed":5,"status":"failed","message":"m","version":"v","wall_ms":1,"cpu_ms":1}` + "\n" + `{"key":"b`))
	f.Add([]byte("garbage\n"))
	f.Add([]byte("{\"key\":\"x\"\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadResults("r.jsonl", bytes.NewReader(data), "")
		if err != nil {
			le, ok := err.(*LineError)
			if !ok {
				t.Fatalf("error %T %v, want a *LineError", err, err)
			}
			if le.Line < 1 || le.Line > bytes.Count(data, []byte("\n"))+1 {
				t.Fatalf("line %d of a %d-line input", le.Line, bytes.Count(data, []byte("\n"))+1)
			}
			return
		}
		if c.Good > int64(len(data)) {
			t.Fatalf("%d good bytes of %d", c.Good, len(data))
		}
		var out bytes.Buffer
		for _, r := range c.Records {
			line, err := r.Line()
			if err != nil {
				t.Fatalf("record %+v does not write: %v", r, err)
			}
			out.Write(line)
		}
		again, err := ReadResults("again", bytes.NewReader(out.Bytes()), "")
		if err != nil {
			t.Fatalf("written records do not read back: %v\n%s", err, out.String())
		}
		if len(again.Records) != len(c.Records) || again.Torn {
			t.Fatalf("%d records read back as %d (torn %v)", len(c.Records), len(again.Records), again.Torn)
		}
		for i := range c.Records {
			a, _ := c.Records[i].Line()
			b, _ := again.Records[i].Line()
			if !bytes.Equal(a, b) {
				t.Fatalf("record %d: %s reads back as %s", i, a, b)
			}
		}
	})
}

// FuzzParseShard reads fuzzed --shard values: never a panic; a shard read has
// 0 <= I < N and prints back as itself.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/4", "3/4", "5/4", "-1/4", "1/0", "a", "1/", "/4", "0/-1", "+1/4", "1/4/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.I < 0 || sh.I >= sh.N {
			t.Fatalf("%q: shard %d/%d", s, sh.I, sh.N)
		}
		again, err := ParseShard(sh.String())
		if err != nil || again != sh {
			t.Fatalf("%q prints as %q, which reads as %v, %v", s, sh.String(), again, err)
		}
	})
}
