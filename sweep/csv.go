package sweep

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"sort"
	"strconv"
)

// WriteCSV writes records as CSV with a header: key, replication, seed, status,
// message, one column per parameter, one per measured value (nested objects
// flattened to dotted paths; a value named like a parameter is "values.NAME"; lists
// as JSON text), then wall_ms, cpu_ms and version. Records are written in the order
// given; a missing cell is empty.
func WriteCSV(w io.Writer, recs []*Record) error {
	params := map[string]bool{}
	values := map[string]bool{}
	flat := make([]map[string]string, len(recs))
	for i, r := range recs {
		for k := range r.Params {
			params[k] = true
		}
		flat[i] = map[string]string{}
		flatten("", r.Values, flat[i])
		for k := range flat[i] {
			values[k] = true
		}
	}
	pcols := sortedKeys(params)
	vcols := sortedKeys(values)
	header := []string{"key", "replication", "seed", "status", "message"}
	header = append(header, pcols...)
	for _, v := range vcols {
		if params[v] {
			v = "values." + v
		}
		header = append(header, v)
	}
	header = append(header, "wall_ms", "cpu_ms", "version")
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	for i, r := range recs {
		row := []string{r.Key, strconv.Itoa(r.Replication), strconv.FormatUint(r.Seed, 10), r.Status, r.Message}
		for _, p := range pcols {
			row = append(row, r.Params[p].Text)
		}
		for _, v := range vcols {
			row = append(row, flat[i][v])
		}
		row = append(row, strconv.FormatFloat(r.WallMS, 'f', -1, 64), strconv.FormatFloat(r.CPUMS, 'f', -1, 64), r.Version)
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func flatten(prefix string, v any, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			flatten(p, x[k], out)
		}
	case nil:
		if prefix != "" {
			out[prefix] = ""
		}
	case string:
		out[prefix] = x
	case json.Number:
		out[prefix] = x.String()
	default:
		b, _ := json.Marshal(x)
		out[prefix] = string(b)
	}
}
