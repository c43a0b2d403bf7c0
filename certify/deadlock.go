package certify

// Certificates of `wormlab deadlock`'s verdicts (issue 21), checked by code that
// shares nothing with package deadlock's decision but the routing function itself.
//
//	manifest.json       what is claimed: routing, topology, VCs, reallocation rule,
//	                    verdict, kind, the files and their SHA-256
//	routing-table.json  (table routings) the table
//	order.json          (kind order: deadlock-free by the fixpoint) the VCs in the
//	                    order the fixpoint removed them, as [router, port, VC]
//	formula.cnf,        (kind refutation: deadlock-free by SAT; or a configuration's
//	proof.drat          minimality by SAT) the formula and its DRAT proof
//	configuration.json  (kind configuration) the packets: source, destination,
//	                    routing state at the source, the VCs they take, how many
//	                    of them the chain holds, the VC a head was granted
//	replay.json         the simulator batch that deadlocks into it (sim.Packet), and the pipeline it runs on
//
// What the checker does, by kind:
//
//   - order: it enumerates every packet state of the routing itself (deadlock_check.go)
//     and checks, by one pass over each destination's DAG of states, that no state
//     holding the r-th VC of the order reaches, through states holding VCs of rank
//     at least r, a state that VCs of rank at least r block (atomic: all its
//     requests; non-atomic: one). Then no deadlock configuration exists: its VC of
//     least rank would be held by such a state (package deadlock's fixpoint.go has
//     the argument). VCs some state holds must all be ranked.
//   - refutation: the formula, encoded by the checker's own encoder over its own
//     enumeration of states (deadlock_formula.go; format 1 carried package
//     deadlock's formula and is refused), is byte for byte formula.cnf, and the
//     proof refutes it (drat.CheckBackward).
//   - configuration: every packet's hops are choices the routing offers in the
//     state its own Advance gives, its chain's VCs are no other packet's, no head
//     is at its destination, and every head is blocked (atomic: every VC it may
//     request is some chain's; non-atomic: owned, or it was granted a chain's tail
//     VC no other head was); the replay batch, re-run in the simulator, comes
//     to rest with each of the configuration's packets lying exactly in the
//     buffers of the VCs its chain holds, which the checker reads from the
//     simulator's trace with its own watch for rest (checkReplay: the
//     simulator's deadlock detector, which package deadlock used to find the
//     batch, is not consulted); minimality,
//     "girth": the checker's own fixpoint and request graph give a shortest cycle
//     as long as the configuration, "refutation": the formula of one packet fewer
//     is refuted as above.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wormlab/wormlab/deadlock"
	"github.com/wormlab/wormlab/drat"
	"github.com/wormlab/wormlab/internal/atomicfile"
	"github.com/wormlab/wormlab/routing"
	"github.com/wormlab/wormlab/sim"
	"github.com/wormlab/wormlab/topology"
)

// DeadlockFormat is the format of a deadlock certificate's manifest. Format 1
// differs only in its formulas (package deadlock's encoding): its certificates
// without a formula still check, those with one are refused.
const DeadlockFormat = "wormlab-deadlock-certificate-2"

const deadlockFormat1 = "wormlab-deadlock-certificate-1"

// Kinds of deadlock certificate.
const (
	KindOrder         = "order"
	KindDLRefutation  = "refutation"
	KindConfiguration = "configuration"
)

// DeadlockManifest is a deadlock certificate's manifest.json.
type DeadlockManifest struct {
	Format   string   `json:"format"`
	Routing  string   `json:"routing"`
	Table    *FileRef `json:"table,omitempty"`
	Topology string   `json:"topology"`
	VCs      int      `json:"vcs"`
	AtomicVC bool     `json:"atomic_vc"`
	Buf      int      `json:"buf"`
	Verdict  string   `json:"verdict"`
	Kind     string   `json:"kind"`
	Order    *FileRef `json:"order,omitempty"`
	// Formula: kind refutation, or a configuration's minimality by refutation.
	Formula *DLFormula `json:"formula,omitempty"`
	// Configuration, Replay, Packets, Minimality ("girth", "refutation" or ""):
	// kind configuration.
	Configuration *FileRef `json:"configuration,omitempty"`
	Replay        *FileRef `json:"replay,omitempty"`
	Packets       int      `json:"packets,omitempty"`
	Minimality    string   `json:"minimality,omitempty"`
}

// DLFormula names a deadlock formula, its bound (0: any number of packets) and
// its proof.
type DLFormula struct {
	Bound       int     `json:"bound"`
	CNF         FileRef `json:"cnf"`
	Vars        int     `json:"vars"`
	Clauses     int     `json:"clauses"`
	Proof       FileRef `json:"proof"`
	ProofFormat string  `json:"proof_format"`
	Prover      string  `json:"prover"`
}

// dlPacket is one packet of configuration.json.
type dlPacket struct {
	Src   int      `json:"src"`
	Dst   int      `json:"dst"`
	Class int32    `json:"class"`
	Aux   [3]int32 `json:"aux"`
	Hops  [][3]int `json:"hops"` // [router, port, VC]
	Holds int      `json:"holds"`
	// Commit is the VC the head was granted, [router, port, VC], or nil.
	Commit *[3]int `json:"commit"`
}

func channelOf(g *deadlock.Graph, c int32) [3]int {
	ch := g.Channel(c)
	return [3]int{ch.Router, ch.Port, ch.VC}
}

// dlFiles are the files a deadlock certificate may have besides its manifest.
var dlFiles = []string{"routing-table.json", "order.json", "formula.cnf", "proof.drat", "configuration.json", "replay.json"}

// WriteDeadlock writes the certificate of res (from deadlock.Exact for the
// routing named routingArg: a registry name or "table:FILE") into dir. It is
// written whole and checked in a staging folder, then moved into dir manifest
// last (stageFor, install): a write that fails, is interrupted or does not check
// leaves dir as it was.
func WriteDeadlock(ctx context.Context, dir, routingArg string, res *deadlock.Result) error {
	stage, err := stageFor(dir)
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	if err := writeDeadlock(ctx, stage, routingArg, res); err != nil {
		return err
	}
	r, err := CheckDeadlock(ctx, stage)
	if err != nil {
		return err
	}
	if !r.Verified {
		return fmt.Errorf("certify: the certificate written for %s does not check: %s", dir, r.Failure)
	}
	return install(stage, dir, dlFiles)
}

// writeDeadlock writes the certificate into dir, manifest last.
func writeDeadlock(ctx context.Context, dir, routingArg string, res *deadlock.Result) error {
	g, v := res.Graph(), res.Decision()
	man := DeadlockManifest{Format: DeadlockFormat, Routing: routingArg, Topology: res.Topology, VCs: res.VCs, AtomicVC: res.Atomic, Buf: res.Buf, Verdict: res.Verdict}
	put := func(name string, data []byte) (*FileRef, error) {
		if err := atomicfile.Write(filepath.Join(dir, name), data); err != nil {
			return nil, err
		}
		return &FileRef{File: name, SHA256: sum(data)}, nil
	}
	if file, ok := strings.CutPrefix(routingArg, "table:"); ok {
		data, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		ref, err := put("routing-table.json", data)
		if err != nil {
			return err
		}
		man.Table = ref
		man.Routing = "table:routing-table.json"
	}
	switch {
	case res.Verdict == "deadlock-free" && v.Method == "fixpoint":
		man.Kind = KindOrder
		order := make([][3]int, len(v.Fix.Order))
		for i, c := range v.Fix.Order {
			order[i] = channelOf(g, c)
		}
		data, _ := json.Marshal(map[string]any{"channels": order})
		ref, err := put("order.json", append(data, '\n'))
		if err != nil {
			return err
		}
		man.Order = ref
	case res.Verdict == "deadlock-free":
		// the checker's own formula (deadlock_formula.go), not the decision's
		man.Kind = KindDLRefutation
		fo, err := dlOwnFormula(ctx, dir, man, 0)
		if err != nil {
			return err
		}
		if fo == nil {
			return fmt.Errorf("certify: the verdict is deadlock-free by SAT but the checker's fixpoint is empty")
		}
		fr, err := proveFormula(ctx, dir, fo, 0)
		if err != nil {
			return err
		}
		man.Formula = fr
	default:
		man.Kind = KindConfiguration
		var ps []dlPacket
		for i, w := range v.Config.Worms {
			src, start, pre, err := g.Path(ctx, w.Nodes[0])
			if err != nil {
				return err
			}
			_, h := g.Rep(w.Nodes[len(w.Nodes)-1])
			p := dlPacket{Src: src, Dst: int(h.Dst), Class: start.Class, Aux: start.Aux, Holds: len(w.Nodes)}
			for _, c := range pre {
				p.Hops = append(p.Hops, channelOf(g, c))
			}
			for _, c := range v.Config.VCs(i)[1:] {
				p.Hops = append(p.Hops, channelOf(g, c))
			}
			if w.Commit >= 0 {
				c := channelOf(g, w.Commit)
				p.Commit = &c
			}
			ps = append(ps, p)
		}
		data, _ := json.MarshalIndent(map[string]any{"packets": ps}, "", " ")
		ref, err := put("configuration.json", append(data, '\n'))
		if err != nil {
			return err
		}
		man.Configuration, man.Packets = ref, len(ps)
		if rp := res.Replay; rp != nil && rp.Replayed {
			data, _ := json.MarshalIndent(map[string]any{"packets": rp.Packets, "worms": len(ps), "pipeline": rp.Pipeline}, "", " ")
			if man.Replay, err = put("replay.json", append(data, '\n')); err != nil {
				return err
			}
		}
		switch {
		case res.Minimal && len(ps) == res.LowerBound:
			man.Minimality = "girth"
		case res.Minimal:
			fo, err := dlOwnFormula(ctx, dir, man, len(ps)-1)
			if err != nil {
				return err
			}
			if fo == nil {
				return fmt.Errorf("certify: a deadlock configuration but the checker's fixpoint is empty")
			}
			fr, err := proveFormula(ctx, dir, fo, len(ps)-1)
			if err != nil {
				return err
			}
			man.Minimality, man.Formula = "refutation", fr
		}
	}
	data, _ := json.MarshalIndent(man, "", "  ")
	return atomicfile.Write(filepath.Join(dir, ManifestFile), append(data, '\n'))
}

// dlOwnFormula encodes the checker's formula of the certificate's routing (nil
// when the checker's fixpoint is empty).
func dlOwnFormula(ctx context.Context, dir string, man DeadlockManifest, bound int) (*dlCNF, error) {
	net, f, err := dlRouting(dir, man)
	if err != nil {
		return nil, err
	}
	sp, err := enumerateStates(ctx, net, f, man.VCs)
	if err != nil {
		return nil, err
	}
	return sp.deadlockFormula(man.AtomicVC, bound), nil
}

// proveFormula writes formula.cnf and its proof.
func proveFormula(ctx context.Context, dir string, fo *dlCNF, bound int) (*DLFormula, error) {
	data := fo.dimacs()
	cnfPath := filepath.Join(dir, "formula.cnf")
	if err := atomicfile.Write(cnfPath, data); err != nil {
		return nil, err
	}
	f := &drat.CNF{Vars: fo.vars, Clauses: fo.clauses}
	prover := DefaultProver()
	proofPath := filepath.Join(dir, "proof.drat")
	if err := prover.Prove(ctx, f, cnfPath, proofPath); err != nil {
		return nil, fmt.Errorf("certify: proving the deadlock formula: %w", err)
	}
	pdata, err := os.ReadFile(proofPath)
	if err != nil {
		return nil, err
	}
	return &DLFormula{Bound: bound, CNF: FileRef{"formula.cnf", sum(data)}, Vars: f.Vars, Clauses: len(f.Clauses),
		Proof: FileRef{"proof.drat", sum(pdata)}, ProofFormat: drat.Detect(pdata).String(), Prover: prover.Name()}, nil
}

// dlRouting builds the certificate's network and routing.
func dlRouting(dir string, man DeadlockManifest) (topology.Network, deadlock.Function, error) {
	name := man.Routing
	var net topology.Network
	if man.Table != nil {
		p := filepath.Join(dir, man.Table.File)
		data, err := readPart(p, 0)
		if err != nil {
			return nil, nil, err
		}
		if got := sum(data); got != man.Table.SHA256 {
			return nil, nil, fmt.Errorf("%s has sha256 %s, the manifest names %s", man.Table.File, got, man.Table.SHA256)
		}
		t, err := routing.LoadTable(p)
		if err != nil {
			return nil, nil, err
		}
		net, name = t.Net(), "table:"+p
	} else {
		n, err := topology.Parse(man.Topology)
		if err != nil {
			return nil, nil, err
		}
		net = n
	}
	alg, err := routing.Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	r, err := alg.New(net, man.VCs)
	if err != nil {
		return nil, nil, err
	}
	f, ok := r.(deadlock.Function)
	if !ok {
		return nil, nil, fmt.Errorf("%s lists no start states", man.Routing)
	}
	return net, f, nil
}

// IsDeadlockCertificate reports whether dir holds a deadlock certificate.
func IsDeadlockCertificate(dir string) bool {
	data, err := readPart(filepath.Join(dir, ManifestFile), 0)
	if err != nil {
		return false
	}
	var m struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &m) == nil && (m.Format == DeadlockFormat || m.Format == deadlockFormat1)
}

// CheckDeadlock checks the deadlock certificate in dir (see the file's comment).
// A failed check is in the Report; the error is for certificates that cannot be
// read.
func CheckDeadlock(ctx context.Context, dir string) (*Report, error) {
	var man DeadlockManifest
	err := readManifest(dir, &man, func() string {
		if man.Format == deadlockFormat1 && man.Formula == nil {
			return DeadlockFormat // format 1 without a formula reads as format 2
		}
		return man.Format
	}, DeadlockFormat)
	if err != nil {
		if man.Format == deadlockFormat1 && man.Formula != nil {
			return nil, fmt.Errorf("%s: format %q carries a formula of package deadlock's encoder, which this build no longer checks; certify again for %q", ManifestFile, deadlockFormat1, DeadlockFormat)
		}
		return nil, err
	}
	r := &Report{Kind: man.Kind}
	fail := func(format string, a ...any) (*Report, error) {
		r.Failure = fmt.Sprintf(format, a...)
		return r, nil
	}
	read := func(ref *FileRef, what string) ([]byte, error) {
		if ref == nil || ref.File == "" || filepath.Base(ref.File) != ref.File {
			return nil, fmt.Errorf("%s: the %s file must be a plain name inside the certificate directory", ManifestFile, what)
		}
		data, err := readPart(filepath.Join(dir, ref.File), 0)
		if err != nil {
			return nil, err
		}
		if got := sum(data); got != ref.SHA256 {
			return nil, fmt.Errorf("%s has sha256 %s, the manifest names %s", ref.File, got, ref.SHA256)
		}
		return data, nil
	}
	net, f, err := dlRouting(dir, man)
	if err != nil {
		return nil, err
	}
	if man.VCs < 1 || man.VCs > 64 || man.Buf < 1 {
		return nil, fmt.Errorf("%s: vcs %d, buf %d", ManifestFile, man.VCs, man.Buf)
	}
	rule := "non-atomic"
	if man.AtomicVC {
		rule = "atomic"
	}
	r.Claim = fmt.Sprintf("%s on %s with %d VC(s), %s VC reallocation: %s", man.Routing, net, man.VCs, rule, man.Verdict)
	start := time.Now()
	defer func() { r.ProofTime = time.Since(start) }()
	switch man.Kind {
	case KindOrder:
		if man.Verdict != "deadlock-free" {
			return nil, fmt.Errorf("%s: kind order claims %q", ManifestFile, man.Verdict)
		}
		data, err := read(man.Order, "order")
		if err != nil {
			return nil, err
		}
		var o struct {
			Channels [][3]int `json:"channels"`
		}
		if err := json.Unmarshal(data, &o); err != nil {
			return nil, fmt.Errorf("%s: %w", man.Order.File, err)
		}
		sp, err := enumerateStates(ctx, net, f, man.VCs)
		if err != nil {
			return nil, err
		}
		r.Checked = append(r.Checked, fmt.Sprintf("states: %d enumerated by the checker", sp.count()))
		if msg := sp.checkOrder(o.Channels, man.AtomicVC); msg != "" {
			return fail("order: %s", msg)
		}
		r.Checked = append(r.Checked, fmt.Sprintf("order: %d VCs; no state holding a VC reaches, through VCs ranked no lower, a state they block", len(o.Channels)))
	case KindDLRefutation:
		if man.Verdict != "deadlock-free" || man.Formula == nil || man.Formula.Bound != 0 {
			return nil, fmt.Errorf("%s: kind refutation needs a verdict deadlock-free and an unbounded formula", ManifestFile)
		}
		if err := checkDLFormula(ctx, r, dir, man, net, f, read); err != nil {
			return nil, err
		}
	case KindConfiguration:
		if man.Verdict != "deadlock" {
			return nil, fmt.Errorf("%s: kind configuration claims %q", ManifestFile, man.Verdict)
		}
		data, err := read(man.Configuration, "configuration")
		if err != nil {
			return nil, err
		}
		var c struct {
			Packets []dlPacket `json:"packets"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			return nil, fmt.Errorf("%s: %w", man.Configuration.File, err)
		}
		if len(c.Packets) != man.Packets {
			return fail("configuration: %d packets, the manifest says %d", len(c.Packets), man.Packets)
		}
		if msg := checkConfiguration(net, f, man.VCs, man.AtomicVC, c.Packets); msg != "" {
			return fail("configuration: %s", msg)
		}
		r.Checked = append(r.Checked, fmt.Sprintf("configuration: %d packets on legal chains, every head blocked (%s reallocation)", len(c.Packets), rule))
		if man.Replay != nil {
			data, err := read(man.Replay, "replay")
			if err != nil {
				return nil, err
			}
			var rp struct {
				Packets  []sim.Packet `json:"packets"`
				Worms    int          `json:"worms"`
				Pipeline string       `json:"pipeline"`
			}
			if err := json.Unmarshal(data, &rp); err != nil {
				return nil, fmt.Errorf("%s: %w", man.Replay.File, err)
			}
			if rp.Pipeline == "" {
				rp.Pipeline = "ideal" // certificates written before the field
			}
			pipe, err := sim.LookupPipeline(rp.Pipeline, net)
			if err != nil {
				return nil, fmt.Errorf("%s: pipeline: %w", man.Replay.File, err)
			}
			if msg := checkReplay(ctx, net, f, man, pipe, rp.Packets, rp.Worms, c.Packets); msg != "" {
				return fail("replay: %s", msg)
			}
			r.Checked = append(r.Checked, fmt.Sprintf("replay: %d packets from an empty network come to rest in the simulator (%s pipeline) with the configuration's packets exactly on its chains (read from the trace)", len(rp.Packets), rp.Pipeline))
		}
		switch man.Minimality {
		case "girth":
			sp, err := enumerateStates(ctx, net, f, man.VCs)
			if err != nil {
				return nil, err
			}
			girth := sp.girth(man.AtomicVC)
			if girth != len(c.Packets) {
				return fail("minimality: the checker's request graph has girth %d, not %d", girth, len(c.Packets))
			}
			r.Checked = append(r.Checked, fmt.Sprintf("minimality: every deadlock configuration has at least %d packets (the checker's request graph has girth %d)", girth, girth))
		case "refutation":
			if man.Formula == nil || man.Formula.Bound != len(c.Packets)-1 {
				return nil, fmt.Errorf("%s: minimality by refutation needs the formula of %d packets", ManifestFile, len(c.Packets)-1)
			}
			if err := checkDLFormula(ctx, r, dir, man, net, f, read); err != nil {
				return nil, err
			}
			if r.Failure != "" {
				return r, nil
			}
		case "":
		default:
			return nil, fmt.Errorf("%s: minimality %q", ManifestFile, man.Minimality)
		}
	default:
		return nil, fmt.Errorf("%s: unknown kind %q", ManifestFile, man.Kind)
	}
	if r.Failure == "" {
		r.Verified = true
	}
	return r, nil
}

func checkDLFormula(ctx context.Context, r *Report, dir string, man DeadlockManifest, net topology.Network, f deadlock.Function, read func(*FileRef, string) ([]byte, error)) error {
	fr := man.Formula
	sp, err := enumerateStates(ctx, net, f, man.VCs)
	if err != nil {
		return err
	}
	fo := sp.deadlockFormula(man.AtomicVC, fr.Bound)
	if fo == nil {
		r.Failure = "formula: the checker's fixpoint is empty, no formula to refute"
		return nil
	}
	want := fo.dimacs()
	file, err := read(&fr.CNF, "cnf")
	if err != nil {
		return err
	}
	if !bytes.Equal(file, want) {
		r.Failure = fmt.Sprintf("formula: %s differs from the checker's own encoding (sha256 %s)", fr.CNF.File, sum(want))
		return nil
	}
	what := "no deadlock configuration"
	if fr.Bound > 0 {
		what = fmt.Sprintf("no deadlock configuration of at most %d packets", fr.Bound)
	}
	r.Checked = append(r.Checked, fmt.Sprintf("formula: the checker's own encoding (%s), %d variables, %d clauses, sha256 %s", what, fr.Vars, fr.Clauses, fr.CNF.SHA256))
	cnf, err := drat.ReadCNF(bytes.NewReader(file))
	if err != nil {
		return err
	}
	pdata, err := read(&fr.Proof, "proof")
	if err != nil {
		return err
	}
	p, err := drat.ParseProof(pdata, drat.Auto)
	if err != nil {
		return fmt.Errorf("%s: %w", fr.Proof.File, err)
	}
	res, err := drat.CheckBackward(ctx, cnf, p)
	if err != nil {
		return err
	}
	r.Proof = res
	if !res.Verified {
		r.Failure = fmt.Sprintf("proof: %v", res.Failure)
		return nil
	}
	r.Checked = append(r.Checked, fmt.Sprintf("proof: %s by %s, %d lemmas checked: %s", humanBytes(len(pdata)), fr.Prover, res.Stats.Lemmas, what))
	return nil
}
