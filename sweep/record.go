package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Record is one line of a results file: a point and what running it gave.
type Record struct {
	Key         string           `json:"key"`
	Spec        string           `json:"spec"` // the spec's Hash
	Command     string           `json:"command"`
	Params      map[string]Value `json:"params"`
	Replication int              `json:"replication"`
	Seed        uint64           `json:"seed"`
	Status      string           `json:"status"` // StatusOK or StatusFailed
	Message     string           `json:"message,omitempty"`
	Values      map[string]any   `json:"values,omitempty"`
	Version     string           `json:"version"`
	WallMS      float64          `json:"wall_ms"`
	CPUMS       float64          `json:"cpu_ms"`
}

// The statuses of a record.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// Line is the record as one line of JSON with its newline; maps are written with
// sorted keys, so equal records give equal lines.
func (r Record) Line() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WithoutTimings is the record with wall and CPU time zeroed: what two runs of one
// point must agree on.
func (r Record) WithoutTimings() Record {
	r.WallMS, r.CPUMS = 0, 0
	return r
}

// UnmarshalJSON reads a value back: a JSON string as a string value, anything else as
// its canonical number or bool text.
func (v *Value) UnmarshalJSON(data []byte) error {
	val, err := parseValue(data)
	if err != nil {
		return err
	}
	*v = val
	return nil
}

// parseRecord reads one results line; values keep numbers' text (json.Number).
func parseRecord(line []byte) (*Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value on the line")
	}
	switch {
	case r.Key == "":
		return nil, fmt.Errorf("no \"key\"")
	case r.Spec == "":
		return nil, fmt.Errorf("no \"spec\"")
	case r.Status != StatusOK && r.Status != StatusFailed:
		return nil, fmt.Errorf("status %q is neither %q nor %q", r.Status, StatusOK, StatusFailed)
	}
	return &r, nil
}
