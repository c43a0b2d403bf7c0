package certify

import (
	"crypto/sha256"
	"encoding/hex"
)

// FormatVersion names the layout of a certificate directory and its manifest.
const FormatVersion = "wormlab-certificate-1"

// File names inside a certificate directory.
const (
	ManifestFile = "manifest.json"
	InstanceFile = "instance.json"
	ScheduleFile = "schedule.json"
	CNFFile      = "horizon.cnf"
	ProofFile    = "proof.drat"
)

// Kinds of certificate.
const (
	KindBound      = "bound"      // the makespan equals a closed-form lower bound
	KindRefutation = "refutation" // the CNF of horizon makespan-1 is refuted by a proof
	// KindEdgeSet (edgeset.go): the relaxation to an edge set has no solution at
	// horizon makespan-1, re-decided by the checker's own search.
)

// FileRef names a file of the certificate and its SHA-256 (hex).
type FileRef struct {
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// Manifest is manifest.json: what the certificate claims and where its parts are.
// It holds no timings, so the same instance and schedule give the same manifest.
type Manifest struct {
	Format       string      `json:"format"`
	InstanceName string      `json:"instance_name"`
	Instance     FileRef     `json:"instance"`
	Schedule     FileRef     `json:"schedule"`
	Model        string      `json:"model"`
	Makespan     int         `json:"makespan"`
	Kind         string      `json:"kind"`
	Bound        *Bound      `json:"bound,omitempty"`
	Refutation   *Refutation `json:"refutation,omitempty"`
	EdgeSet      *EdgeSet    `json:"edge_set,omitempty"`
}

// Bound is a closed-form lower bound attained by the schedule, with its witness.
// Name is one of BoundDilation, BoundEdge, BoundClique, BoundEmpty.
type Bound struct {
	Name       string   `json:"name"`
	Value      int      `json:"value"`
	Edge       *int     `json:"edge,omitempty"`
	EdgeName   string   `json:"edge_name,omitempty"`
	Messages   []string `json:"messages"`
	Arithmetic string   `json:"arithmetic"`
}

// Refutation names the CNF of horizon Makespan-1 and its proof of unsatisfiability.
type Refutation struct {
	Horizon  int     `json:"horizon"`
	Encoding string  `json:"encoding"`
	CNF      FileRef `json:"cnf"`
	Vars     int     `json:"vars"`
	Clauses  int     `json:"clauses"`
	Proof    FileRef `json:"proof"`
	// ProofFormat is "text" or "binary" (DRAT); Prover names the solver that wrote it.
	ProofFormat string `json:"proof_format"`
	Prover      string `json:"prover"`
}

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}
