package simrun

// BookSim2's configuration files (booksim/booksim2, src/config.l and config.y; the
// keys and their defaults in src/booksim_config.cpp): assignments "key = value;"
// with "//" comments, a value a number, a word or a {list}; later assignments win,
// and command-line arguments "key=value" override the file. FromBookSim maps the
// keys onto a Run with BookSim2's defaults for the keys not given; a key wormlab
// cannot honour is an error naming it (or, lenient, a note). docs/booksim.md has
// the table.

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Assignment is one "key = value;" of a BookSim2 configuration.
type Assignment struct {
	Key, Value string
	// Kind is 'i' (an integer), 'f' (a number with a point or an exponent), 's' (a
	// word) or 'l' (a {list}).
	Kind byte
	// Where says where it was given: "FILE:LINE" or "command line".
	Where string
}

// BookSimError names the key and the place at fault.
type BookSimError struct {
	Where, Key, Msg string
}

func (e *BookSimError) Error() string {
	switch {
	case e.Key == "":
		return e.Where + ": " + e.Msg
	case e.Where == "":
		return "booksim key " + e.Key + ": " + e.Msg
	}
	return e.Where + ": booksim key " + e.Key + ": " + e.Msg
}

// MaxConfigBytes bounds the configuration ParseBookSim reads (16 MiB; BookSim2's
// own are a few KB): an endless input (/dev/zero, a pipe that never closes its
// end) is refused once that much has come instead of growing until the process is
// killed.
const MaxConfigBytes = 16 << 20

// ParseBookSim reads the assignments of a configuration file named name.
func ParseBookSim(r io.Reader, name string) ([]Assignment, error) {
	data, err := io.ReadAll(io.LimitReader(bufio.NewReader(r), MaxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxConfigBytes {
		return nil, &BookSimError{Where: name, Msg: fmt.Sprintf("more than %d bytes (16 MiB), the most a configuration may have", MaxConfigBytes)}
	}
	return parseAssignments(string(data), func(line int) string { return fmt.Sprintf("%s:%d", name, line) })
}

// ParseBookSimArg reads a command-line override "key=value" (BookSim2 adds the
// semicolon).
func ParseBookSimArg(arg string) (Assignment, error) {
	as, err := parseAssignments(arg+";", func(int) string { return "command line" })
	if err != nil {
		return Assignment{}, err
	}
	if len(as) != 1 {
		return Assignment{}, &BookSimError{"command line", "", fmt.Sprintf("%q: want one key=value", arg)}
	}
	return as[0], nil
}

func isWordStart(c byte) bool {
	return c == '_' || c == '-' || c == '/' || c == '.' || (c < 128 && unicode.IsLetter(rune(c)))
}

func isWord(c byte) bool {
	return isWordStart(c) || (c >= '0' && c <= '9') || strings.IndexByte("+(){},", c) >= 0
}

// bsNumber reports whether BookSim2's lexer (config.l) reads v as one number:
// -?[0-9]+ (an integer) or -?({Digit}*\.)?{Digit}+([eE][+-]?{Digit}+)? (a real).
// Anything else it splits into two tokens and refuses ("1.", "1.e5", "1e").
func bsNumber(v string) bool { return bsNumberRE.MatchString(v) }

var bsNumberRE = regexp.MustCompile(`^-?(([0-9]*\.)?[0-9]+([eE][+-]?[0-9]+)?)$`)

// bsListRE is the braced list of BookSim2's lexer (config.l):
// \{[A-Za-z0-9_\-\.(\{\,)\}]+(...)*\}, no space, tab, line break, / or + inside;
// BookSim2 stops on {1, 16} with a syntax error.
var bsListRE = regexp.MustCompile(`^\{[A-Za-z0-9_\-.({,)}]+\}$`)

func parseAssignments(s string, where func(int) string) ([]Assignment, error) {
	line := 1
	i := 0
	skip := func() {
		for i < len(s) {
			switch {
			case s[i] == '\n':
				line++
				i++
			case s[i] == ' ' || s[i] == '\t' || s[i] == '\r':
				i++
			case strings.HasPrefix(s[i:], "//"):
				for i < len(s) && s[i] != '\n' {
					i++
				}
			default:
				return
			}
		}
	}
	bad := func(msg string, a ...any) error {
		return &BookSimError{where(line), "", fmt.Sprintf(msg, a...)}
	}
	var out []Assignment
	for {
		skip()
		if i >= len(s) {
			return out, nil
		}
		if !isWordStart(s[i]) {
			return nil, bad("want KEY = VALUE;, found %q", s[i:i+1])
		}
		j := i
		for j < len(s) && isWord(s[j]) {
			j++
		}
		key := s[i:j]
		at := line
		i = j
		skip()
		if i >= len(s) || s[i] != '=' {
			return nil, bad("%s: want = after the key", key)
		}
		i++
		skip()
		if i >= len(s) {
			return nil, bad("%s: no value", key)
		}
		a := Assignment{Key: key, Where: where(at)}
		j = i
		switch c := s[i]; {
		case c == '{':
			depth := 0
			for j < len(s) {
				if s[j] == '{' {
					depth++
				} else if s[j] == '}' {
					depth--
					if depth == 0 {
						j++
						break
					}
				}
				j++
			}
			if depth != 0 {
				return nil, bad("%s: the list { has no }", key)
			}
			if !bsListRE.MatchString(s[i:j]) {
				// quoted: the value may hold the line break or tab that makes it wrong
				return nil, bad("%s = %q: not a list as BookSim2's lexer reads one (letters, digits and _-.(){}, between the braces, no spaces or line breaks: {{1,16}})", key, s[i:j])
			}
			a.Kind = 'l'
		case c == '-' || c == '.' || (c >= '0' && c <= '9'):
			if c == '-' && j+1 < len(s) && !(s[j+1] >= '0' && s[j+1] <= '9' || s[j+1] == '.') {
				for j < len(s) && isWord(s[j]) {
					j++
				}
				a.Kind = 's'
				break
			}
			j++
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' ||
				((s[j] == '-' || s[j] == '+') && (s[j-1] == 'e' || s[j-1] == 'E'))) {
				j++
			}
			if !bsNumber(s[i:j]) {
				return nil, bad("%s = %s: not a number as BookSim2's lexer reads one (an integer, or a real with digits after its point: 1.0, .5, 1e-05)", key, s[i:j])
			}
			a.Kind = 'i'
			if strings.ContainsAny(s[i:j], ".eE") {
				a.Kind = 'f'
			}
		case isWordStart(c):
			for j < len(s) && isWord(s[j]) {
				j++
			}
			a.Kind = 's'
		default:
			return nil, bad("%s: %q cannot start a value", key, s[i:i+1])
		}
		a.Value = s[i:j]
		i = j
		skip()
		if i >= len(s) || s[i] != ';' {
			return nil, bad("%s = %s: want ; after the value", key, a.Value)
		}
		i++
		out = append(out, a)
	}
}

// bsKey is how wormlab reads one BookSim2 key.
type bsKey struct {
	def  string // BookSim2's default ("" for none)
	kind byte   // 'i' integer, 'f' number, 's' word (numbers allowed), 'l' list or word
	// role: 'm' mapped onto the run; 'd' honoured only at its default (the
	// router or simulator feature it turns on is not wormlab's); 'o' output or
	// instrumentation only, no effect on the results; 'c' only read in a context
	// (read/write traffic, batch mode, concentration) that wormlab refuses
	// anyway, so ignored otherwise
	role byte
	why  string // for 'd': what wormlab does not have
}

var bsKeys = map[string]bsKey{
	// mapped
	"topology":                  {"torus", 's', 'm', ""},
	"k":                         {"8", 'i', 'm', ""},
	"n":                         {"2", 'i', 'm', ""},
	"routing_function":          {"none", 's', 'm', ""},
	"num_vcs":                   {"16", 'i', 'm', ""},
	"vc_buf_size":               {"8", 'i', 'm', ""},
	"packet_size":               {"1", 'l', 'm', ""},
	"packet_size_rate":          {"1", 'l', 'm', ""},
	"injection_rate":            {"0.1", 'f', 'm', ""},
	"injection_rate_uses_flits": {"0", 'i', 'm', ""},
	"injection_process":         {"bernoulli", 's', 'm', ""},
	"burst_alpha":               {"0.5", 'f', 'm', ""},
	"burst_beta":                {"0.5", 'f', 'm', ""},
	"burst_r1":                  {"-1.0", 'f', 'm', ""},
	"traffic":                   {"uniform", 's', 'm', ""},
	"routing_delay":             {"1", 'i', 'm', ""},
	"vc_alloc_delay":            {"1", 'i', 'm', ""},
	"sw_alloc_delay":            {"1", 'i', 'm', ""},
	"st_final_delay":            {"1", 'i', 'm', ""},
	"credit_delay":              {"0", 'i', 'm', ""},
	"use_noc_latency":           {"1", 'i', 'm', ""},
	"wait_for_tail_credit":      {"0", 'i', 'm', ""},
	"seed":                      {"0", 's', 'm', ""},
	"perm_seed":                 {"0", 's', 'm', ""},
	"sim_type":                  {"latency", 's', 'm', ""},
	"sample_period":             {"1000", 'i', 'm', ""},
	"warmup_periods":            {"3", 'i', 'm', ""},
	"max_samples":               {"10", 'i', 'm', ""},
	"vc_allocator":              {"islip", 's', 'm', ""},
	"sw_allocator":              {"islip", 's', 'm', ""},
	"alloc_iters":               {"1", 'i', 'm', ""},
	"arb_type":                  {"round_robin", 's', 'm', ""},
	// honoured at BookSim2's default only
	"c":                        {"1", 'i', 'd', "concentration (several terminals per router)"},
	"subnets":                  {"1", 'i', 'd', "parallel sub-networks"},
	"classes":                  {"1", 'i', 'd', "traffic classes"},
	"priority":                 {"none", 's', 'd', "message priorities"},
	"use_read_write":           {"0", 'i', 'd', "request-reply traffic"},
	"speculative":              {"0", 'i', 'd', "speculative switch allocation"},
	"spec_check_elig":          {"1", 'i', 'd', "speculative switch allocation"},
	"spec_check_cred":          {"1", 'i', 'd', "speculative switch allocation"},
	"spec_mask_by_reqs":        {"0", 'i', 'd', "speculative switch allocation"},
	"spec_sw_allocator":        {"prio", 's', 'd', "speculative switch allocation"},
	"input_speedup":            {"1", 'i', 'd', "crossbar input speedup"},
	"output_speedup":           {"1", 'i', 'd', "crossbar output speedup"},
	"internal_speedup":         {"1.0", 'f', 'd', "internal speedup"},
	"hold_switch_for_packet":   {"0", 'i', 'd', "holding the switch for a whole packet"},
	"st_prepare_delay":         {"0", 'i', 'd', "a switch preparation stage"},
	"output_delay":             {"0", 'i', 'd', "an output delay"},
	"output_buffer_size":       {"-1", 'i', 'd', "output buffers"},
	"noq":                      {"0", 'i', 'd', "next-hop output queueing"},
	"buf_size":                 {"-1", 'i', 'd', "shared input buffers"},
	"buffer_policy":            {"private", 's', 'd', "buffer sharing policies"},
	"private_bufs":             {"-1", 'i', 'd', "buffer sharing policies"},
	"private_buf_size":         {"1", 's', 'd', "buffer sharing policies"},
	"private_buf_start_vc":     {"-1", 's', 'd', "buffer sharing policies"},
	"private_buf_end_vc":       {"-1", 's', 'd', "buffer sharing policies"},
	"max_held_slots":           {"-1", 'i', 'd', "buffer sharing policies"},
	"vc_busy_when_full":        {"0", 'i', 'd', "this VC allocation rule"},
	"vc_prioritize_empty":      {"0", 'i', 'd', "this VC allocation rule"},
	"vc_priority_donation":     {"0", 'i', 'd', "priority donation"},
	"vc_shuffle_requests":      {"0", 'i', 'd', "this VC allocation rule"},
	"vct":                      {"0", 'i', 'd', "virtual cut-through"},
	"router":                   {"iq", 's', 'd', "router models other than input-queued"},
	"sim_count":                {"1", 'i', 'd', "several simulations in one run (give --seed a list)"},
	"include_queuing":          {"1", 'i', 'd', "latency without source queueing"},
	"latency_thres":            {"500.0", 'f', 'd', "BookSim2's instability threshold (wormlab declares saturation by its own rule)"},
	"warmup_thres":             {"0.05", 'f', 'd', "BookSim2's warm-up rule (wormlab cuts the warm-up by MSER-5)"},
	"acc_warmup_thres":         {"0.05", 'f', 'd', "BookSim2's warm-up rule (wormlab cuts the warm-up by MSER-5)"},
	"stopping_thres":           {"0.05", 'f', 'd', "BookSim2's stop rule (wormlab stops at a relative half-width: --rel)"},
	"acc_stopping_thres":       {"0.05", 'f', 'd', "BookSim2's stop rule (wormlab stops at a relative half-width: --rel)"},
	"measure_stats":            {"1", 'i', 'd', "traffic classes"},
	"link_failures":            {"0", 'i', 'd', "link failures"},
	"fail_seed":                {"0", 's', 'd', "link failures"},
	"sim_power":                {"0", 'i', 'd', "a power model"},
	"channel_file":             {"", 's', 'd', "channel lengths from a file"},
	"network_file":             {"", 's', 'd', "networks from a file (anynet)"},
	"in_ports":                 {"5", 'i', 'c', ""},
	"out_ports":                {"5", 'i', 'c', ""},
	"x":                        {"8", 'i', 'c', ""},
	"y":                        {"8", 'i', 'c', ""},
	"xr":                       {"1", 'i', 'c', ""},
	"yr":                       {"1", 'i', 'c', ""},
	"batch_size":               {"1000", 'i', 'c', ""},
	"batch_count":              {"1", 'i', 'c', ""},
	"max_outstanding_requests": {"0", 'i', 'c', ""},
	"write_fraction":           {"0.5", 'f', 'c', ""},
	"read_request_begin_vc":    {"0", 'i', 'c', ""},
	"read_request_end_vc":      {"5", 'i', 'c', ""},
	"write_request_begin_vc":   {"2", 'i', 'c', ""},
	"write_request_end_vc":     {"7", 'i', 'c', ""},
	"read_reply_begin_vc":      {"8", 'i', 'c', ""},
	"read_reply_end_vc":        {"13", 'i', 'c', ""},
	"write_reply_begin_vc":     {"10", 'i', 'c', ""},
	"write_reply_end_vc":       {"15", 'i', 'c', ""},
	"read_request_subnet":      {"0", 'i', 'c', ""},
	"read_reply_subnet":        {"0", 'i', 'c', ""},
	"write_request_subnet":     {"0", 'i', 'c', ""},
	"write_reply_subnet":       {"0", 'i', 'c', ""},
	"read_request_size":        {"1", 'l', 'c', ""},
	"write_request_size":       {"1", 'l', 'c', ""},
	"read_reply_size":          {"1", 'l', 'c', ""},
	"write_reply_size":         {"1", 'l', 'c', ""},
	"feedback_aging_scale":     {"1", 'i', 'c', ""},
	"feedback_offset":          {"0", 'i', 'c', ""},
	"class_priority":           {"0", 'l', 'c', ""},
	"channel_width":            {"128", 'i', 'c', ""},
	"channel_sweep":            {"0", 'i', 'c', ""},
	// output and instrumentation
	"print_activity":          {"0", 'i', 'o', ""},
	"print_csv_results":       {"0", 'i', 'o', ""},
	"deadlock_warn_timeout":   {"256", 'i', 'o', ""},
	"viewer_trace":            {"0", 'i', 'o', ""},
	"watch_file":              {"", 's', 'o', ""},
	"watch_flits":             {"", 's', 'o', ""},
	"watch_packets":           {"", 's', 'o', ""},
	"watch_transactions":      {"", 's', 'o', ""},
	"watch_out":               {"", 's', 'o', ""},
	"stats_out":               {"", 's', 'o', ""},
	"injected_flits_out":      {"", 's', 'o', ""},
	"received_flits_out":      {"", 's', 'o', ""},
	"stored_flits_out":        {"", 's', 'o', ""},
	"sent_flits_out":          {"", 's', 'o', ""},
	"outstanding_credits_out": {"", 's', 'o', ""},
	"ejected_flits_out":       {"", 's', 'o', ""},
	"active_packets_out":      {"", 's', 'o', ""},
	"used_credits_out":        {"", 's', 'o', ""},
	"free_credits_out":        {"", 's', 'o', ""},
	"max_credits_out":         {"", 's', 'o', ""},
	"sent_packets_out":        {"", 's', 'o', ""},
	"pair_stats":              {"0", 'i', 'o', ""},
	"power_output_file":       {"pwr_tmp", 's', 'o', ""},
	"tech_file":               {"", 's', 'o', ""},
}

// BookSimKeys lists the keys FromBookSim knows, sorted.
func BookSimKeys() []string {
	ks := make([]string, 0, len(bsKeys))
	for k := range bsKeys {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// bsConfig is a configuration's final values: the last assignment of each key.
type bsConfig struct {
	set map[string]Assignment
}

func (c *bsConfig) has(k string) bool { _, ok := c.set[k]; return ok }

func (c *bsConfig) str(k string) string {
	if a, ok := c.set[k]; ok {
		return a.Value
	}
	return bsKeys[k].def
}

func (c *bsConfig) where(k string) string { return c.set[k].Where }

func (c *bsConfig) errf(k, format string, a ...any) error {
	return &BookSimError{c.where(k), k, fmt.Sprintf(format, a...)}
}

func (c *bsConfig) int(k string) (int, error) {
	s := c.str(k)
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, c.errf(k, "%q is not an integer", s)
	}
	return v, nil
}

// kOrN is the key at fault when k and n do not make a grid or a fly: k when it is
// below 2, else n (an error names where n was set, the command line's n=0 rather
// than the file's k).
func kOrN(k int) string {
	if k < 2 {
		return "k"
	}
	return "n"
}

// bsRouting maps BookSim2's routing function (its name before the topology's) on
// a torus or mesh to wormlab's routing, with the condition for the same meaning.
// min_adapt is minadapt-booksim: BookSim2's OutputSet keeps one range per
// priority, so its packets are offered the adaptive VCs of the lowest dimension
// still to correct alone (routing/minadapt.go).
var bsRouting = map[string]map[string]string{
	"fly":          {"dest_tag": "fly-tag"},
	"dragonflynew": {"min": "df-min"},
	"torus":        {"dim_order": "dor-booksim", "min_adapt": "minadapt-booksim"},
	"mesh":         {"dim_order": "dor", "dor": "dor", "min_adapt": "minadapt-booksim", "valiant": "valiant"},
}

// bsAllocator is how wormlab runs one of BookSim2's allocators: as VC allocator
// (its selection among free output VCs) and as switch allocator (its input
// stage), with a note when the match is approximate.
type bsAllocator struct {
	vcSelect, swInput, note string
}

// bsAllocators are BookSim2's allocators wormlab runs, by the name before a
// parameter (allocators/allocator.cpp names them; bsAllocatorName splits the
// parameter off). separable_input_first is exact: its input arbiters are one
// round-robin pointer per input VC over the output VCs (--select rotate) and,
// in switch allocation, one per input port over the output ports
// (--switch-input output; sim/select_rotate.go, sim/swinput_output.go). islip,
// BookSim2's default, keeps the same pointers as its accept pointers, but its
// outputs grant first and an input may be offered several outputs; with one
// iteration wormlab runs it as separable_input_first (docs/booksim.md compares
// the two on a crossbar and on tori). Their parameters (bsAllocatorRule):
// islip's is its iteration count (alloc_iters without one), the separable
// allocators' their arbiter (arb_type without one).
var bsAllocators = map[string]bsAllocator{
	"separable_input_first": {"rotate", "output", ""},
	"islip":                 {"rotate", "output", "runs as separable_input_first (wormlab's allocators make one pass, input first: docs/booksim.md)"},
}

// bsAllocatorName splits one of BookSim2's allocator values as
// allocators/allocator.cpp does: the name before the first '(' and the
// parameter up to the last ')' (to the end without one); "islip()" has an empty
// parameter, as "islip" has.
func bsAllocatorName(v string) (name, param string) {
	left := strings.IndexByte(v, '(')
	if left < 0 {
		return v, ""
	}
	name, param = v[:left], v[left+1:]
	if right := strings.LastIndexByte(param, ')'); right >= 0 {
		param = param[:right]
	}
	return name, param
}

// bsAllocatorReads is the key BookSim2's allocators read in place of a
// parameter they are not given (allocators/allocator.cpp).
var bsAllocatorReads = map[string]string{
	"islip": "alloc_iters", "pim": "alloc_iters", "select": "alloc_iters",
	"separable_input_first": "arb_type", "separable_output_first": "arb_type",
}

// bsAllocatorRule is how wormlab runs the allocator of key, or false after
// refusing it naming the key and its value, and records in reads the keys the
// allocator reads (bsAllocatorReads): islip with one iteration (its parameter,
// else alloc_iters) runs as
// separable_input_first; a separable allocator with a round-robin arbiter (its
// parameter, else arb_type) runs exactly. BookSim2 reads the iteration count
// with atoi; wormlab wants an integer.
func bsAllocatorRule(c *bsConfig, key string, reads map[string]bool, refuse func(error)) (bsAllocator, bool) {
	v := c.str(key)
	name, param := bsAllocatorName(v)
	if read := bsAllocatorReads[name]; read != "" && param == "" {
		reads[read] = true
	}
	rule, ok := bsAllocators[name]
	if !ok {
		refuse(c.errf(key, "= %s: wormlab runs separable_input_first (and islip with one iteration as it) only", v))
		return rule, false
	}
	switch {
	case param == "":
	case name == "islip":
		iters, err := strconv.Atoi(param)
		if err != nil || iters != 1 {
			refuse(c.errf(key, "= %s: an iteration count of %q: wormlab's allocators make one pass (islip(1) runs, as separable_input_first)", v, param))
			return rule, false
		}
	case param != "round_robin":
		refuse(c.errf(key, "= %s: the arbiter %q: wormlab's separable allocators arbitrate round-robin (%s(round_robin) runs)", v, param, name))
		return rule, false
	}
	return rule, true
}

// bsTraffic are BookSim2's traffic patterns wormlab has with the same meaning.
var bsTraffic = []string{"uniform", "bitcomp", "bitrev", "shuffle", "transpose", "tornado", "neighbor", "randperm"}

// bsTopologies says which of BookSim2's topologies wormlab reads.
const bsTopologies = "wormlab reads BookSim2's torus, mesh, fly and dragonflynew"

// FromBookSim maps a configuration onto a Run: BookSim2's defaults, then the
// assignments in order (a later one wins). origin maps each parameter it set to
// the BookSim2 key and place that set it (for errors). notes say what runs
// approximately, what is ignored because it cannot change the results, and,
// lenient, every key not honoured; without lenient such a key is an error.
func FromBookSim(as []Assignment, lenient bool) (run Run, origin map[string]string, notes []string, err error) {
	c := &bsConfig{set: map[string]Assignment{}}
	origin = map[string]string{}
	var unknown []error
	for _, a := range as {
		k, ok := bsKeys[a.Key]
		if !ok {
			unknown = append(unknown, &BookSimError{a.Where, a.Key, "not a key wormlab knows (BookSim2 refuses it too unless a newer version has it)"})
			continue
		}
		if err := checkKind(a, k.kind); err != nil {
			return run, nil, nil, err
		}
		c.set[a.Key] = a
	}
	pos := map[string]int{} // a key's last assignment, to report in file order
	for i, a := range as {
		pos[a.Key] = i
	}
	type refusal struct {
		at  int
		err error
	}
	var refusals []refusal
	refuse := func(e error) {
		at := len(as)
		if be, ok := e.(*BookSimError); ok {
			if i, ok := pos[be.Key]; ok {
				at = i
			}
		}
		refusals = append(refusals, refusal{at, e})
	}
	var ignored []string
	for _, key := range BookSimKeys() {
		a, ok := c.set[key]
		if !ok {
			continue
		}
		k := bsKeys[key]
		switch k.role {
		case 'd':
			if !sameValue(a.Value, k.def) {
				only := fmt.Sprintf("only %s = %s runs", key, k.def)
				if k.def == "" {
					only = "only a configuration without it runs"
				}
				refuse(c.errf(key, "= %s: wormlab has no %s (%s)", a.Value, k.why, only))
			}
		case 'o', 'c':
			if !sameValue(a.Value, k.def) {
				ignored = append(ignored, key)
			}
		}
	}
	run = Default()
	set := func(param, key, value string) {
		if e := run.Set(param, value); e != nil {
			refuse(c.errf(key, "%v", e.(*Error).Msg))
			return
		}
		origin[param] = key + " (" + c.where(key) + ")"
		if c.where(key) == "" {
			origin[param] = key + " (BookSim2's default " + bsKeys[key].def + ")"
		}
	}

	// topology and routing
	topo := c.str("topology")
	k, err := c.int("k")
	if err != nil {
		return run, nil, nil, err
	}
	n, err := c.int("n")
	if err != nil {
		return run, nil, nil, err
	}
	switch topo {
	case "torus", "mesh":
		if k < 2 || n < 1 || n > 8 {
			refuse(c.errf(kOrN(k), "k = %d, n = %d: want k >= 2 and 1 <= n <= 8", k, n))
			break
		}
		sides := make([]string, n)
		for i := range sides {
			sides[i] = strconv.Itoa(k)
		}
		set("topology", "topology", topo+":"+strings.Join(sides, "x"))
	case "fly":
		// BookSim2's k-ary n-fly (networks/fly.cpp): k^n terminals, n stages
		if k < 2 || n < 1 {
			refuse(c.errf(kOrN(k), "k = %d, n = %d: want k >= 2 and n >= 1", k, n))
			break
		}
		set("topology", "topology", fmt.Sprintf("fly:k=%d,n=%d", k, n))
	case "dragonflynew":
		// BookSim2's dragonfly (networks/dragonfly.cpp, DragonFlyNew): k terminals
		// a router, a = 2k routers a group, h = k global channels a router, g =
		// a h + 1 groups, the absolute arrangement, local channels of 10 cycles and
		// global of 100 (its DRAGON_LATENCY, credits too): wormlab's dragonfly:p=K
		// (topology/dragonfly.go). BookSim2 stops on n > 1.
		if k < 1 || n != 1 {
			key := "n"
			if k < 1 {
				key = "k"
			}
			refuse(c.errf(key, "k = %d, n = %d: BookSim2's dragonflynew has n = 1 and k >= 1 terminals a router", k, n))
			break
		}
		set("topology", "topology", fmt.Sprintf("dragonfly:p=%d", k))
	case "fattree":
		refuse(c.errf("topology", "= fattree: BookSim2's fattree is a k-ary n-tree, not wormlab's butterfly fat-tree (%s)", bsTopologies))
	default:
		refuse(c.errf("topology", "= %s: %s", topo, bsTopologies))
	}
	rf := c.str("routing_function")
	if name, ok := bsRouting[topo][rf]; ok {
		set("routing", "routing_function", name)
	} else if _, ok := bsRouting[topo]; ok {
		why := "no wormlab routing has its meaning"
		switch {
		case rf == "none":
			why = "not given (BookSim2 has no default)"
		case rf == "valiant":
			why = "wormlab's valiant keeps one VC per phase and dateline class, BookSim2's valiant_torus splits the VCs by its own classes"
		case rf == "ugal" && topo == "dragonflynew":
			why = "BookSim2's ugal_dragonflynew is not wormlab's df-ugal-l (its intermediate is a router, its VCs are phases, and its phase 0 is not deadlock-free: routing/df_ugal_booksim.go)"
		}
		refuse(c.errf("routing_function", "= %s on a %s: %s (wormlab reads dim_order, min_adapt, valiant on meshes, dest_tag on flies, min on dragonflynew; docs/booksim.md)", rf, topo, why))
	}
	if rf == "min" && topo == "dragonflynew" {
		if v, _ := c.int("num_vcs"); v != 2 {
			refuse(c.errf("num_vcs", "= %d with min on dragonflynew: BookSim2's min_dragonflynew uses VCs 0 and 1 whatever their number, wormlab's df-min splits the VCs in two classes; they agree with 2 VCs only", v))
		}
	}
	if rf == "dim_order" && topo == "torus" {
		// dim_order_torus (routefunc.cpp) gives class 0 the VCs 0 .. V-1-V/2 and
		// class 1 the VCs V/2 .. V-1: with V odd the middle VC is in both classes,
		// where dor-booksim's halves are disjoint (class 0 has V/2 VCs); one VC is
		// left to the routing's own minimum (BookSim2 stops on an assertion)
		if v, err := c.int("num_vcs"); err == nil && v > 1 && v%2 == 1 {
			refuse(c.errf("num_vcs", "= %d with dim_order on a torus: BookSim2's dim_order_torus puts the middle VC of an odd number in both dateline classes, wormlab's dor-booksim splits the VCs in two disjoint halves; they agree with an even number only", v))
		}
	}
	if rf == "valiant" && topo == "mesh" {
		if v, _ := c.int("num_vcs"); v != 2 {
			refuse(c.errf("num_vcs", "= %d with valiant: wormlab's valiant uses one VC per phase, BookSim2's splits the VCs in halves; they agree with 2 VCs only", v))
		}
	}
	set("vcs", "num_vcs", c.str("num_vcs"))
	set("buf", "vc_buf_size", c.str("vc_buf_size"))

	// packets and load
	sizes, sizeNotes, err := bsSizes(c)
	if err != nil {
		refuse(err)
	} else {
		set("flits", "packet_size", sizes)
		notes = append(notes, sizeNotes...)
	}
	flitsRate, err := c.int("injection_rate_uses_flits")
	if err != nil {
		return run, nil, nil, err
	}
	if a, ok := c.set["injection_rate"]; ok && a.Kind == 'l' {
		refuse(c.errf("injection_rate", "= %s: one rate per traffic class; wormlab has one class", a.Value))
	} else if flitsRate != 0 {
		set("rate", "injection_rate", c.str("injection_rate"))
	} else {
		set("msg-rate", "injection_rate", c.str("injection_rate"))
	}
	switch proc := c.str("injection_process"); {
	case proc == "bernoulli":
		set("process", "injection_process", "bernoulli")
	case proc == "on_off" || strings.HasPrefix(proc, "on_off("):
		set("process", "injection_process", "onoff")
		params := map[string]string{"burst-alpha": c.str("burst_alpha"), "burst-beta": c.str("burst_beta"), "burst-rate": c.str("burst_r1")}
		keys := map[string]string{"burst-alpha": "burst_alpha", "burst-beta": "burst_beta", "burst-rate": "burst_r1"}
		if inner, ok := strings.CutPrefix(proc, "on_off("); ok {
			ps := strings.Split(strings.TrimSuffix(inner, ")"), ",")
			if len(ps) > 3 {
				refuse(c.errf("injection_process", "= %s: initial states per node are not wormlab's (each source starts on or off with probability 1/2)", proc))
			}
			for i, name := range []string{"burst-alpha", "burst-beta", "burst-rate"} {
				if i < len(ps) {
					params[name], keys[name] = ps[i], "injection_process"
				}
			}
		}
		for _, name := range []string{"burst-alpha", "burst-beta", "burst-rate"} {
			set(name, keys[name], params[name])
		}
	default:
		refuse(c.errf("injection_process", "= %s: wormlab has bernoulli and on_off", proc))
	}
	tr := c.str("traffic")
	switch {
	case slices.Contains(bsTraffic, tr):
		set("traffic", "traffic", tr)
	case tr == "bad_dragon" && topo == "dragonflynew":
		// every group's terminals to random terminals of the next group
		// (traffic.cpp, BadPermDFlyTrafficPattern; sim/pattern_group.go)
		set("traffic", "traffic", "worstcase")
	case strings.HasPrefix(tr, "hotspot("):
		hot, err := bsHotspot(tr)
		if err != nil {
			refuse(c.errf("traffic", "= %s: %v", tr, err))
			break
		}
		set("traffic", "traffic", "hotspot")
		set("hot", "traffic", hot)
		set("hot-fraction", "traffic", "1")
	default:
		refuse(c.errf("traffic", "= %s: no wormlab traffic pattern has its meaning (wormlab reads %s, hotspot({{nodes}}), bad_dragon on dragonflynew)", tr, strings.Join(bsTraffic, ", ")))
	}

	// the router's pipeline
	set("pipeline", "routing_delay", "booksim")
	for _, d := range []struct{ key, param string }{
		{"routing_delay", "route-delay"}, {"vc_alloc_delay", "vc-delay"}, {"sw_alloc_delay", "sw-delay"}, {"st_final_delay", "st-delay"},
	} {
		if c.has(d.key) {
			set(d.param, d.key, c.str(d.key))
		}
	}
	noc, err := c.int("use_noc_latency")
	if err != nil {
		return run, nil, nil, err
	}
	link := 1
	if topo == "torus" && noc != 0 {
		link = 2 // BookSim2's folded torus: every channel 2 cycles
	}
	credit, err := c.int("credit_delay")
	if err != nil {
		return run, nil, nil, err
	}
	if credit < 0 {
		refuse(c.errf("credit_delay", "%d is negative", credit))
	}
	if c.has("use_noc_latency") {
		set("link-delay", "use_noc_latency", strconv.Itoa(link))
	}
	if c.has("credit_delay") || c.has("use_noc_latency") {
		// a credit crosses the credit channel (as slow as the link), then waits
		// credit_delay cycles in the upstream router (iq_router.cpp)
		set("credit-delay", "credit_delay", strconv.Itoa(link+credit))
	}
	switch wt := c.str("wait_for_tail_credit"); wt {
	case "0":
		set("atomic-vc", "wait_for_tail_credit", "off")
	case "1":
		set("atomic-vc", "wait_for_tail_credit", "on")
	default:
		refuse(c.errf("wait_for_tail_credit", "= %s: want 0 or 1", wt))
	}
	reads := map[string]bool{} // alloc_iters, arb_type: read by an allocator
	for _, key := range []string{"vc_allocator", "sw_allocator"} {
		v := c.str(key)
		rule, ok := bsAllocatorRule(c, key, reads, refuse)
		if !ok {
			continue
		}
		if key == "vc_allocator" {
			set("select", key, rule.vcSelect)
		} else {
			set("switch-input", key, rule.swInput)
		}
		if rule.note != "" && (c.has(key) || c.has("alloc_iters")) {
			notes = append(notes, key+" = "+v+" "+rule.note)
		}
	}
	// BookSim2's iSLIP reads no priorities (allocators/islip.cpp): as its VC
	// allocator it takes min_adapt's escape VCs as readily as the adaptive one,
	// which is minadapt-booksim-islip; its separable allocators prefer the
	// adaptive VC, as minadapt-booksim does (docs/booksim.md, "min_adapt")
	if name, _ := bsAllocatorName(c.str("vc_allocator")); name == "islip" && run.Routing == "minadapt-booksim" {
		set("routing", "routing_function", "minadapt-booksim-islip")
		notes = append(notes, "routing_function = min_adapt runs as minadapt-booksim-islip: BookSim2's islip VC allocator reads no priorities, so the adaptive VC is not preferred to the escape")
	}
	// one refusal for both allocators; unread, BookSim2 ignores the key too
	if iters, err := c.int("alloc_iters"); err != nil || iters != 1 {
		if reads["alloc_iters"] {
			refuse(c.errf("alloc_iters", "= %s: wormlab has no iterative allocation (wormlab's allocators make one pass) (only alloc_iters = 1 runs)", c.str("alloc_iters")))
		} else {
			ignored = append(ignored, "alloc_iters")
		}
	}
	if arb := c.str("arb_type"); arb != "round_robin" {
		if reads["arb_type"] {
			refuse(c.errf("arb_type", "= %s: wormlab's separable allocators arbitrate round-robin (only arb_type = round_robin runs)", arb))
		} else {
			ignored = append(ignored, "arb_type")
		}
	}

	// the simulation
	switch st := c.str("sim_type"); st {
	case "latency", "throughput":
		// wormlab reports the accepted load of every point, and runs on past
		// saturation (BookSim2's latency mode stops there): both read the same
	default:
		refuse(c.errf("sim_type", "= %s: wormlab runs open loop (latency, throughput); closed batches are sim --batch", st))
	}
	if c.has("seed") {
		if s := c.str("seed"); s == "time" {
			refuse(c.errf("seed", "= time: wormlab runs are reproducible: give a number"))
		} else {
			set("seed", "seed", s)
		}
	}
	if c.has("perm_seed") && c.str("traffic") == "randperm" {
		notes = append(notes, "perm_seed: wormlab draws randperm's permutation from the run's seed")
	}
	period, err1 := c.int("sample_period")
	warm, err2 := c.int("warmup_periods")
	samples, err3 := c.int("max_samples")
	for _, e := range []error{err1, err2, err3} {
		if e != nil {
			return run, nil, nil, e
		}
	}
	if c.has("sample_period") || c.has("warmup_periods") || c.has("max_samples") {
		if period < 1 || warm < 0 || samples < 1 {
			refuse(c.errf("sample_period", "sample_period %d, warmup_periods %d, max_samples %d: want positive periods", period, warm, samples))
		} else {
			budget := int64(period) * int64(warm+samples)
			key := "sample_period"
			if !c.has(key) {
				key = "max_samples"
				if !c.has(key) {
					key = "warmup_periods"
				}
			}
			set("max-cycles", key, strconv.FormatInt(budget, 10))
			set("min-cycles", key, strconv.FormatInt(min(run.MinCycles, budget), 10))
			notes = append(notes, fmt.Sprintf("sample_period x (warmup_periods + max_samples) = %d cycles is wormlab's budget (--max-cycles); wormlab measures by MSER-5 and batch means, not by BookSim2's periods", budget))
		}
	}
	if len(ignored) > 0 {
		notes = append(notes, "ignored (output only, or read only by features wormlab refuses, which this configuration does not use): "+strings.Join(ignored, ", "))
	}
	slices.SortStableFunc(refusals, func(a, b refusal) int { return a.at - b.at })
	refused := unknown
	for _, r := range refusals {
		refused = append(refused, r.err)
	}
	if len(refused) > 0 {
		if !lenient {
			return run, origin, notes, refused[0]
		}
		for _, e := range refused {
			notes = append(notes, "not honoured: "+e.Error())
		}
	}
	if err := run.Validate(); err != nil {
		if e, ok := err.(*Error); ok {
			if o, ok := origin[e.Param]; ok {
				return run, origin, notes, &BookSimError{"", o, e.Msg}
			}
		}
		return run, origin, notes, err
	}
	return run, origin, notes, nil
}

// checkKind checks an assignment's value against the key's kind.
func checkKind(a Assignment, kind byte) error {
	bad := func(want string) error {
		return &BookSimError{a.Where, a.Key, fmt.Sprintf("%q is not %s", a.Value, want)}
	}
	switch kind {
	case 'i':
		if a.Kind != 'i' {
			return bad("an integer")
		}
	case 'f':
		if a.Kind == 'i' {
			// BookSim2's lexer reads it as an integer, which a real key refuses
			// (config_utils.cpp: "Unknown integer field")
			return &BookSimError{a.Where, a.Key, fmt.Sprintf("%q is an integer, which BookSim2 refuses for a real key: write %s.0", a.Value, a.Value)}
		}
		if a.Kind != 'f' && a.Kind != 'l' {
			return bad("a number")
		}
	case 's':
		if a.Kind == 'l' {
			return bad("one value")
		}
	}
	return nil
}

// sameValue compares two values as numbers when both are.
func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	x, e1 := strconv.ParseFloat(a, 64)
	y, e2 := strconv.ParseFloat(b, 64)
	return e1 == nil && e2 == nil && x == y
}

// bsList splits a BookSim2 value at its top-level commas: {a,{b,c}} is a and
// {b,c}; a value that is not a list is itself (config_utils.cpp's tokenize_str).
func bsList(v string) []string {
	if !strings.HasPrefix(v, "{") {
		return []string{v}
	}
	var out []string
	depth, start := 0, 1
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
				continue
			}
			fallthrough
		case ',':
			if depth == 0 {
				if i > start {
					out = append(out, v[start:i])
				}
				start = i + 1
			}
		}
	}
	return out
}

// bsSizes is packet_size with packet_size_rate's weights as wormlab's --flits.
// Each lists one entry per traffic class ({a,b}: class 0 has packets of a flits,
// class 1 of b), an entry a size or a mix {{1,16}}; wormlab has class 0 only
// (BookSim2 too with classes = 1: it reads the first entry), noted when the others
// are given.
func bsSizes(c *bsConfig) (string, []string, error) {
	var notes []string
	classes := bsList(c.str("packet_size"))
	if len(classes) == 0 {
		return "", nil, c.errf("packet_size", "empty")
	}
	if len(classes) > 1 {
		notes = append(notes, fmt.Sprintf("packet_size = %s lists one size per traffic class: class 0's, %s (a mix within the class is {{a,b}})", c.str("packet_size"), classes[0]))
	}
	sizes := bsList(classes[0])
	rates := []string{"1"}
	if c.has("packet_size_rate") {
		rc := bsList(c.str("packet_size_rate"))
		if len(rc) == 0 {
			return "", nil, c.errf("packet_size_rate", "empty")
		}
		rates = bsList(rc[0])
	}
	for len(rates) < len(sizes) {
		rates = append(rates, rates[len(rates)-1]) // BookSim2 repeats the last
	}
	if len(sizes) == 1 {
		return strings.TrimSpace(sizes[0]), notes, nil
	}
	parts := make([]string, len(sizes))
	for i, sz := range sizes {
		parts[i] = strings.TrimSpace(sz) + ":" + strings.TrimSpace(rates[i])
	}
	return strings.Join(parts, ","), notes, nil
}

// bsHotspot reads hotspot(P) as BookSim2 does (traffic.cpp, TrafficPattern::New):
// the parameters are bsTokens(P), the hot nodes bsInts of the first, their
// rates bsInts of the second (the last repeated for the nodes it leaves out;
// 1 each without it). So hotspot({{a,b}}) has hot nodes a and b, and
// hotspot({a,b}) one, a, of rate b. Every packet goes to one of the nodes,
// uniformly: unequal rates are refused.
func bsHotspot(tr string) (string, error) {
	param := tr[strings.Index(tr, "(")+1:]
	if r := strings.LastIndex(param, ")"); r >= 0 {
		param = param[:r]
	}
	params := bsTokens(param)
	if len(params) == 0 {
		return "", fmt.Errorf("no hot nodes (BookSim2 draws a node then; wormlab does not)")
	}
	nodes := bsTokens(params[0])
	for _, x := range nodes {
		if v, err := strconv.Atoi(strings.TrimSpace(x)); err != nil || v < 0 {
			return "", fmt.Errorf("hot node %q: want node numbers (BookSim2 draws a node for -1; wormlab does not)", x)
		}
	}
	if len(nodes) == 0 {
		return "", fmt.Errorf("no hot nodes (BookSim2 draws a node then; wormlab does not)")
	}
	if len(params) >= 2 {
		ws := bsTokens(params[1])
		for len(ws) > 0 && len(ws) < len(nodes) {
			ws = append(ws, ws[len(ws)-1])
		}
		// BookSim2 asserts every hot node's rate is above 0
		// (HotSpotTrafficPattern's constructor): refused here as a line.
		for _, w := range ws[:min(len(ws), len(nodes))] {
			if v, err := strconv.Atoi(strings.TrimSpace(w)); err != nil || v <= 0 {
				return "", fmt.Errorf("hot node rate %q: want an integer above 0 (BookSim2 asserts rate > 0)", strings.TrimSpace(w))
			}
		}
		for _, w := range ws[:min(len(ws), len(nodes))] {
			if strings.TrimSpace(w) != strings.TrimSpace(ws[0]) {
				return "", fmt.Errorf("unequal rates: wormlab's hotspot sends to its hot nodes uniformly")
			}
		}
	}
	for i := range nodes {
		nodes[i] = strings.TrimSpace(nodes[i])
	}
	return strings.Join(nodes, ","), nil
}

// bsTokens is BookSim2's tokenize_str (config_utils.cpp): a string that does
// not open with '{' is one token; else the items of the braced list at its top
// level, where a '}' at the top level ends an item too (so {a,b},{c} reads as a
// and b).
func bsTokens(data string) []string {
	if data == "" {
		return nil
	}
	if data[0] != '{' {
		return []string{data}
	}
	var out []string
	start, nested := 1, 0
	for curr := 1; curr < len(data); curr++ {
		switch ch := data[curr]; {
		case ch == '{':
			nested++
		case ch == '}' && nested > 0:
			nested--
		case (ch == ',' || ch == '}') && nested == 0:
			if curr > start {
				out = append(out, data[start:curr])
			}
			start = curr + 1
		}
	}
	return out
}
