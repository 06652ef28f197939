package nodetest

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clusterlab/clusterlab/algos"
	"github.com/clusterlab/clusterlab/node"
)

// The data-driven scripts: a file of commands, each followed by the output it must
// give, in the style of etcd/raft's interaction tests. A script drives a small
// cluster of one registered algorithm without any network: messages wait in
// flight until the script delivers them, and timers fire only when the script
// lets time pass, so a test says exactly which interleaving it checks.
//
//	# A comment.
//	cluster nodes=3 timeout=400ms
//	----
//
//	start
//	----
//	n1 start
//	  send n2 ELECTION id=n1
//	  …
//
// A command is one line; the line "----" ends it; its expected output follows,
// up to a blank line. An output that holds blank lines itself is written between
// two "----" lines and ends with two "----" lines. Blank lines and comments
// (lines starting with #) between commands are kept as they are.
//
// Run the test with -rewrite (or NODETEST_REWRITE=1) to write what the commands
// give into the file in place of what it expected: then read the diff.
//
// The commands:
//
//	cluster nodes=N [seed=S] [PARAM=VALUE …]  a new cluster n1…nN, not started; the
//	                                          parameters are the algorithm's own
//	start [nX …]                              Start, to the named processes (all)
//	deliver [nX …]                            deliver the messages in flight now to the
//	                                          named processes (all), in send order; what
//	                                          they send stays in flight
//	drop [nX …]                               lose the messages in flight to them (all)
//	stabilize                                 deliver until nothing is in flight
//	tick D                                    let D of virtual time pass, firing every
//	                                          timer due, each at its deadline
//	crash nX …                                the process stops: its state, its timers
//	                                          and the messages in flight to it are lost,
//	                                          as are those sent to it while it is down
//	recover nX …                              a new incarnation: Recover, with its
//	                                          stable storage
//	request nX WHAT…                          a user request, such as "cs" or "election"
//	state [nX …]                              each process's status, or "down"
//	msgs                                      the messages in flight, in send order
//
// Each step a process takes prints one line ("n2 ← n1 ELECTION id=n1", "n1 timer
// election", "n3 start") and, indented below it, what the step did: "send n3
// ELECTION id=n2", "timer election 400ms", "log …", and "status …" when the
// status changed.

// rewriteFlag is the name of the flag that rewrites scripts.
const rewriteFlag = "rewrite"

func init() {
	if flag.Lookup(rewriteFlag) == nil {
		flag.Bool(rewriteFlag, false, "nodetest: write what each data-driven script's commands give as their expected output")
	}
}

func rewriting() bool {
	if os.Getenv("NODETEST_REWRITE") == "1" {
		return true
	}
	f := flag.Lookup(rewriteFlag)
	return f != nil && f.Value.String() == "true"
}

// RunScript runs the data-driven script at path against the registered algorithm
// called algorithm, and fails t at each command whose output is not the one
// written (or, with -rewrite, writes the outputs into the file).
func RunScript(t testing.TB, path, algorithm string) {
	t.Helper()
	diffs, err := runScript(path, algorithm, rewriting())
	for _, d := range diffs {
		t.Error(d)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// runScript runs the script at path and returns a text for each command whose
// output differs, or rewrites the file with what the commands gave. The error is
// a script that cannot run: a file that does not read, a bad command.
func runScript(path, algorithm string, rewrite bool) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sc, err := parseScript(path, string(data))
	if err != nil {
		return nil, err
	}
	c := NewCluster(algorithm)
	var outs, diffs []string
	for _, cmd := range sc.cmds {
		if cmd.line < 0 { // the comments after the last command
			outs = append(outs, "")
			continue
		}
		got, err := c.Do(cmd.text)
		if err != nil {
			return diffs, fmt.Errorf("%s:%d: %s: %v", path, cmd.line, cmd.text, err)
		}
		outs = append(outs, got)
		if !rewrite && got != cmd.want {
			diffs = append(diffs, fmt.Sprintf("%s:%d: %s: the output differs (run the test with -rewrite to write what it gives)\n--- expected\n%s--- got\n%s",
				path, cmd.line, cmd.text, indentBlock(cmd.want), indentBlock(got)))
		}
	}
	if rewrite {
		return nil, os.WriteFile(path, []byte(sc.render(outs)), 0o644)
	}
	return diffs, nil
}

func indentBlock(s string) string {
	if s == "" {
		return "    (nothing)\n"
	}
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// script is a parsed file: its commands, and the text around their outputs so
// that a rewrite keeps everything else.
type script struct {
	cmds []scriptCmd
}

type scriptCmd struct {
	line   int    // of the command
	text   string // the command line
	before string // the file's text from the end of the previous output to the "----"
	want   string // the expected output, each line with its newline
}

// parseScript reads a script. Errors name the file and line.
func parseScript(path, data string) (*script, error) {
	lines := strings.SplitAfter(data, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	sc := &script{}
	var before strings.Builder
	trim := func(l string) string { return strings.TrimRight(l, "\r\n") }
	for i := 0; i < len(lines); i++ {
		l := trim(lines[i])
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			before.WriteString(lines[i])
			continue
		}
		if l == "----" {
			return nil, fmt.Errorf("%s:%d: found ----, expected a command before it", path, i+1)
		}
		cmd := scriptCmd{line: i + 1, text: strings.TrimSpace(l)}
		before.WriteString(lines[i])
		i++
		if i >= len(lines) || trim(lines[i]) != "----" {
			return nil, fmt.Errorf("%s:%d: found %q, expected ---- after the command %q", path, i+1, lineAt(lines, i), cmd.text)
		}
		before.WriteString(lines[i])
		cmd.before = before.String()
		before.Reset()
		i++
		var want strings.Builder
		if i < len(lines) && trim(lines[i]) == "----" {
			// The long form: the output may hold blank lines; it ends with ---- ----.
			i++
			for ; ; i++ {
				if i >= len(lines) {
					return nil, fmt.Errorf("%s:%d: the output of %q never ends: expected two ---- lines", path, cmd.line, cmd.text)
				}
				if trim(lines[i]) == "----" && i+1 < len(lines) && trim(lines[i+1]) == "----" {
					i++
					break
				}
				want.WriteString(trim(lines[i]) + "\n")
			}
		} else {
			for ; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
				want.WriteString(trim(lines[i]) + "\n")
			}
			i-- // the blank line, if any, belongs to what comes next
		}
		cmd.want = want.String()
		sc.cmds = append(sc.cmds, cmd)
	}
	if before.Len() > 0 {
		sc.cmds = append(sc.cmds, scriptCmd{before: before.String(), line: -1})
	}
	return sc, nil
}

func lineAt(lines []string, i int) string {
	if i >= len(lines) {
		return "the end of the file"
	}
	return strings.TrimRight(lines[i], "\r\n")
}

// render writes the script back with the given outputs.
func (sc *script) render(outs []string) string {
	var b strings.Builder
	for i, c := range sc.cmds {
		b.WriteString(c.before)
		if c.line < 0 { // the text after the last command
			continue
		}
		out := outs[i]
		if strings.Contains(out, "\n\n") || strings.HasPrefix(out, "\n") {
			b.WriteString("----\n" + out + "----\n----\n")
		} else {
			b.WriteString(out)
		}
		if i+1 < len(sc.cmds) && !strings.HasPrefix(sc.cmds[i+1].before, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Cluster is a few processes of one algorithm wired together without a network,
// driven one command at a time (see RunScript for the commands). Tests that want
// the interleavings in Go rather than in a script call Do themselves.
type Cluster struct {
	algorithm string
	steps     int // steps taken by the command under way
	procs     []*Harness
	down      []bool
	last      []node.Status
	flight    []inFlight
	now       time.Duration
	out       strings.Builder
}

type inFlight struct {
	from, to node.ID
	msg      node.Message
}

// NewCluster makes a cluster of the registered algorithm called algorithm; its
// first command must be "cluster nodes=N …".
func NewCluster(algorithm string) *Cluster { return &Cluster{algorithm: algorithm} }

// Do runs one command and returns what it printed. An error is a command that
// cannot run: a typo, a process that does not exist.
func (c *Cluster) Do(cmd string) (string, error) {
	c.out.Reset()
	c.steps = 0
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return "", fmt.Errorf("found an empty command, expected one of %s", commandNames)
	}
	if f[0] != "cluster" && c.procs == nil {
		return "", fmt.Errorf("found %q before any cluster, expected \"cluster nodes=N\" first", f[0])
	}
	var err error
	switch f[0] {
	case "cluster":
		err = c.cluster(f[1:])
	case "start":
		err = c.each(f[1:], true, func(i int) { c.step(i, node.Event{Kind: node.Start}, "start") })
	case "deliver":
		err = c.deliver(f[1:])
	case "drop":
		err = c.drop(f[1:])
	case "stabilize":
		err = c.stabilize(f[1:])
	case "tick":
		err = c.tick(f[1:])
	case "crash":
		err = c.each(f[1:], false, c.crash)
	case "recover":
		err = c.each(f[1:], false, c.recover)
	case "request":
		err = c.request(f[1:])
	case "state":
		err = c.each(f[1:], true, c.state)
	case "msgs":
		if len(f) > 1 {
			return "", fmt.Errorf("found %q, expected msgs alone", cmd)
		}
		for _, m := range c.flight {
			c.printf("%v → %v %s\n", m.from, m.to, FormatMessage(m.msg))
		}
	default:
		return "", fmt.Errorf("found %q, expected one of %s", f[0], commandNames)
	}
	return c.out.String(), err
}

const commandNames = "cluster, start, deliver, drop, stabilize, tick, crash, recover, request, state, msgs"

func (c *Cluster) printf(format string, args ...any) { fmt.Fprintf(&c.out, format, args...) }

// cluster builds a new cluster from "nodes=N seed=S param=value…".
func (c *Cluster) cluster(args []string) error {
	n, seed := 0, uint64(1)
	params := map[string]any{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("found %q, expected NAME=VALUE such as nodes=3", a)
		}
		switch k {
		case "nodes":
			x, err := strconv.Atoi(v)
			if err != nil || x < 1 || x > 64 {
				return fmt.Errorf("found nodes=%s, expected 1 to 64 processes", v)
			}
			n = x
		case "seed":
			x, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return fmt.Errorf("found seed=%s, expected a whole number", v)
			}
			seed = x
		default:
			params[k] = paramValue(v)
		}
	}
	if n == 0 {
		return fmt.Errorf("expected nodes=N, the number of processes")
	}
	ids := IDs(n)
	_, f, err := algos.Build(c.algorithm, ids, params)
	if err != nil {
		return err
	}
	*c = Cluster{algorithm: c.algorithm}
	for _, id := range ids {
		c.procs = append(c.procs, New(f, id, ids, seed))
	}
	c.down = make([]bool, n)
	c.last = make([]node.Status, n)
	for i, h := range c.procs {
		c.last[i] = h.Status().Clone()
	}
	return nil
}

// paramValue reads a parameter as a scenario file would give it: a whole number,
// a number, true or false, or else a string.
func paramValue(v string) any {
	if i, err := strconv.ParseInt(v, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return v
}

// procs reads process names ("n2") into indexes; none means all when all is set.
func (c *Cluster) indexes(args []string, all bool) ([]int, error) {
	if len(args) == 0 {
		if !all {
			return nil, fmt.Errorf("expected the processes it applies to, such as n1")
		}
		var out []int
		for i := range c.procs {
			out = append(out, i)
		}
		return out, nil
	}
	var out []int
	for _, a := range args {
		id, ok := node.ParseID(a)
		if !ok || int(id) > len(c.procs) {
			return nil, fmt.Errorf("found %q, expected a process n1 to n%d", a, len(c.procs))
		}
		out = append(out, int(id)-1)
	}
	return out, nil
}

func (c *Cluster) each(args []string, all bool, do func(i int)) error {
	is, err := c.indexes(args, all)
	if err != nil {
		return err
	}
	for _, i := range is {
		do(i)
	}
	return nil
}

// step hands ev to process i, prints the step and what it did, and queues its
// messages. A message a process sends itself arrives at once, as in the world.
func (c *Cluster) step(i int, ev node.Event, what string) {
	c.steps++
	h := c.procs[i]
	if c.down[i] {
		c.printf("%v is down: %s is lost\n", h.ID, what)
		return
	}
	c.printf("%v %s\n", h.ID, what)
	h.Now = c.now
	var effs []node.Effect
	switch ev.Kind {
	case node.Start:
		effs = h.Start()
	case node.Recover:
		effs = h.Recover()
	case node.Deliver:
		effs = h.Deliver(ev.From, ev.Msg)
	case node.Request:
		effs = h.Request(ev.Name)
	case node.Timer:
		effs = h.Fire(ev.Name)
	}
	var local []node.Message
	for _, e := range effs {
		switch e.Kind {
		case node.EffSend:
			switch to := int(e.To) - 1; {
			case e.To == h.ID:
				c.printf("  send %v %s\n", e.To, FormatMessage(e.Msg))
				local = append(local, e.Msg)
			case to >= 0 && to < len(c.down) && c.down[to]:
				c.printf("  send %v %s (lost: %v is down)\n", e.To, FormatMessage(e.Msg), e.To)
			default:
				c.printf("  send %v %s\n", e.To, FormatMessage(e.Msg))
				c.flight = append(c.flight, inFlight{h.ID, e.To, e.Msg})
			}
		case node.EffTimer:
			c.printf("  timer %s %v\n", e.Name, e.Delay)
		case node.EffLog:
			c.printf("  log %s\n", e.Name)
		}
	}
	if st := h.Status(); !st.Equal(c.last[i]) {
		c.last[i] = st.Clone()
		c.printf("  status %s\n", FormatStatus(st))
	}
	for _, m := range local {
		c.step(i, node.Event{Kind: node.Deliver, From: h.ID, Msg: m}, fmt.Sprintf("← %v %s", h.ID, FormatMessage(m)))
	}
}

// deliver hands every message in flight now to its destination (only those to
// the named processes, when some are named), in send order.
func (c *Cluster) deliver(args []string) error {
	is, err := c.indexes(args, true)
	if err != nil {
		return err
	}
	var now, later []inFlight
	for _, m := range c.flight {
		if slices.Contains(is, int(m.to)-1) {
			now = append(now, m)
		} else {
			later = append(later, m)
		}
	}
	c.flight = later
	for _, m := range now {
		c.step(int(m.to)-1, node.Event{Kind: node.Deliver, From: m.from, Msg: m.msg}, fmt.Sprintf("← %v %s", m.from, FormatMessage(m.msg)))
	}
	return nil
}

func (c *Cluster) drop(args []string) error {
	is, err := c.indexes(args, true)
	if err != nil {
		return err
	}
	c.flight = slices.DeleteFunc(c.flight, func(m inFlight) bool {
		lost := slices.Contains(is, int(m.to)-1)
		if lost {
			c.printf("lost %v → %v %s\n", m.from, m.to, FormatMessage(m.msg))
		}
		return lost
	})
	return nil
}

// maxStabilize bounds how many rounds stabilize delivers: an algorithm whose
// messages never stop (heartbeats answered by heartbeats) is an error, not a hang.
const maxStabilize = 1000

// maxSteps bounds the steps one command takes (a tick of a year, a storm of
// messages): an error, not a hang.
const maxSteps = 100_000

func (c *Cluster) stabilize(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("found %q, expected stabilize alone", strings.Join(args, " "))
	}
	for round := 0; len(c.flight) > 0; round++ {
		if round == maxStabilize || c.steps >= maxSteps {
			return fmt.Errorf("%d messages are still in flight after %d rounds and %d steps: the messages never stop", len(c.flight), round, c.steps)
		}
		if err := c.deliver(nil); err != nil {
			return err
		}
	}
	return nil
}

// tick lets d pass, firing the timers due on the way in deadline order (ties by
// process, then timer name).
func (c *Cluster) tick(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("expected tick D, such as tick 100ms")
	}
	d, err := time.ParseDuration(args[0])
	if err != nil || d < 0 {
		return fmt.Errorf("found %q, expected a duration such as 100ms", args[0])
	}
	end := c.now + d
	for {
		best, bestAt, bestName := -1, time.Duration(0), ""
		for i, h := range c.procs {
			if c.down[i] {
				continue
			}
			for _, name := range h.TimerNames() {
				at, _ := h.Armed(name)
				if at > end {
					continue
				}
				if best < 0 || at < bestAt || (at == bestAt && i == best && name < bestName) {
					best, bestAt, bestName = i, at, name
				}
			}
		}
		if best < 0 {
			break
		}
		if c.steps >= maxSteps {
			return fmt.Errorf("more than %d steps before %v: expected a shorter tick", maxSteps, end)
		}
		c.now = max(c.now, bestAt)
		c.step(best, node.Event{Kind: node.Timer, Name: bestName}, "timer "+bestName)
	}
	c.now = end
	return nil
}

func (c *Cluster) crash(i int) {
	h := c.procs[i]
	if c.down[i] {
		c.printf("%v is down already\n", h.ID)
		return
	}
	c.down[i] = true
	h.Crash()
	c.flight = slices.DeleteFunc(c.flight, func(m inFlight) bool { return m.to == h.ID })
	c.printf("%v crashed\n", h.ID)
}

func (c *Cluster) recover(i int) {
	if !c.down[i] {
		c.printf("%v is up already\n", c.procs[i].ID)
		return
	}
	c.down[i] = false
	c.last[i] = node.Status{}
	c.step(i, node.Event{Kind: node.Recover}, "recover")
}

func (c *Cluster) request(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("expected request nX WHAT, such as request n1 cs")
	}
	is, err := c.indexes(args[:1], false)
	if err != nil {
		return err
	}
	what := strings.Join(args[1:], " ")
	c.step(is[0], node.Event{Kind: node.Request, Name: what}, "request "+what)
	return nil
}

func (c *Cluster) state(i int) {
	h := c.procs[i]
	if c.down[i] {
		c.printf("%v down\n", h.ID)
		return
	}
	c.printf("%v %s\n", h.ID, FormatStatus(h.Status()))
}

// FormatMessage writes a message as scripts show it: its type, then the fields
// that are set ("ELECTION id=n3 term=2 ts=7 flag list=[n1 n2]").
func FormatMessage(m node.Message) string {
	parts := []string{m.Type}
	if m.ID != node.None {
		parts = append(parts, "id="+m.ID.String())
	}
	if m.Term != 0 {
		parts = append(parts, "term="+strconv.FormatInt(m.Term, 10))
	}
	if m.Stamp != 0 {
		parts = append(parts, "ts="+strconv.FormatInt(m.Stamp, 10))
	}
	if m.Flag {
		parts = append(parts, "flag")
	}
	if m.List.Len() > 0 {
		parts = append(parts, "list="+idList(m.List.IDs()))
	}
	return strings.Join(parts, " ")
}

// FormatStatus writes a status as scripts show it: the fields that are set
// ("role=leader leader=n3 suspects=[n1] cs=held entries=2").
func FormatStatus(s node.Status) string {
	var parts []string
	if s.Role != "" {
		parts = append(parts, "role="+s.Role)
	}
	if s.Leader != node.None {
		parts = append(parts, "leader="+s.Leader.String())
	}
	if s.Term != 0 {
		parts = append(parts, "term="+strconv.FormatInt(s.Term, 10))
	}
	if s.Inc != 0 {
		parts = append(parts, "inc="+strconv.FormatInt(s.Inc, 10))
	}
	if len(s.Suspects) > 0 {
		parts = append(parts, "suspects="+idList(s.Suspects))
	}
	if s.CS != node.CSNone {
		parts = append(parts, "cs="+s.CS.String())
	}
	for _, k := range s.Counters {
		parts = append(parts, k.Name+"="+strconv.FormatInt(k.Value, 10))
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, " ")
}

func idList(ids []node.ID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	return "[" + strings.Join(s, " ") + "]"
}
