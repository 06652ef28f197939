package tui

import (
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/node"
)

// topoPane draws the cluster as RaftScope does: the processes on a circle, their
// links, and every message in flight as a glyph travelling along its link. It is a
// pure function of the snapshot (and the selection), so a replay draws the same
// picture at the same instant.
type topoPane struct {
	st   *Styles
	w, h int

	// the graph layout of the last graph drawn, in the unit square, and the edges
	// it was made for
	layEdges [][2]node.ID
	layout   [][2]float64
	// the latency the last snapshot named and the mean delay read from it (µs)
	lat string
	est int64
	// where the last frame drew the nodes, for the mouse
	drawn topoHit
	// left is the nodes that just left the critical section (board.left)
	left map[node.ID]int64
	// hold is how long (virtual µs) a drop's burst stays drawn at least: half
	// a second of wall time at the speed of the run, so that it is seen at ×1
	hold int64
	// hover is the node under the pointer, as index + 1; 0 for none
	hover int
	// msg is the selected message in flight (board.msg)
	msg uint64
}

// SetSize sets the pane's box.
func (p *topoPane) SetSize(w, h int) { p.w, p.h = w, h }

// meshLinks is the largest mesh whose every link is drawn; beyond it the links of a
// mesh would fill the circle, so only messages, cuts and partitions are drawn.
const meshLinks = 8

// labelNodes is the largest cluster whose nodes are labelled on the circle; beyond
// it only the selected node is.
const labelNodes = 32

// canvas cell colours: fixed ones, then the message types' colours, then the
// partition groups'.
const (
	tcBlank uint8 = iota
	tcLink
	tcCut
	tcBurst
	tcUp
	tcDown
	tcLead
	tcWarn
	tcSel
	tcText
	tcMsg // first of msgColours
)

// msgColours colour message types (by a hash of the type name, so a type keeps its
// colour from frame to frame and run to run).
var msgColours = []string{"75", "177", "49", "226", "209", "117"}

const tcGroup = tcMsg + uint8(6) // first partition group colour

// topoCanvas is a grid of cells, each a rune and a colour.
type topoCanvas struct {
	w, h int
	r    []rune
	c    []uint8
}

func newTopoCanvas(w, h int) *topoCanvas {
	cv := &topoCanvas{w: w, h: h, r: make([]rune, w*h), c: make([]uint8, w*h)}
	for i := range cv.r {
		cv.r[i] = ' '
	}
	return cv
}

func (cv *topoCanvas) set(x, y int, r rune, c uint8) {
	if x >= 0 && x < cv.w && y >= 0 && y < cv.h {
		cv.r[y*cv.w+x], cv.c[y*cv.w+x] = r, c
	}
}

func (cv *topoCanvas) at(x, y int) rune {
	if x >= 0 && x < cv.w && y >= 0 && y < cv.h {
		return cv.r[y*cv.w+x]
	}
	return 0
}

func (cv *topoCanvas) text(x, y int, s string, c uint8) {
	for _, r := range s {
		cv.set(x, y, r, c)
		x++
	}
}

// line draws a link from a to b, leaving both ends (the nodes) alone. The glyph
// follows the slope as seen on screen, where a cell is about twice as tall as wide.
func (cv *topoCanvas) line(a, b point, c uint8) {
	dx, dy := b.x-a.x, b.y-a.y
	steps := max(abs(dx), abs(dy))
	if steps < 2 {
		return
	}
	ch := '─'
	if c == tcCut {
		ch = '╌' // a cut link is dashed, so it reads without colour
	}
	ax, ay := float64(abs(dx)), float64(abs(dy))*2
	switch {
	case c == tcCut:
	case ay < ax/2:
		ch = '─'
	case ax < ay/2:
		ch = '│'
	case (dx > 0) == (dy > 0):
		ch = '╲'
	default:
		ch = '╱'
	}
	for i := 1; i < steps; i++ {
		x := a.x + int(math.Round(float64(dx*i)/float64(steps)))
		y := a.y + int(math.Round(float64(dy*i)/float64(steps)))
		// a cut link keeps its colour where another crosses it
		if cv.at(x, y) == ' ' || c == tcCut {
			cv.set(x, y, ch, c)
		}
	}
}

type point struct{ x, y int }

func lerp(a, b point, f float64) point {
	return point{a.x + int(math.Round(float64(b.x-a.x)*f)), a.y + int(math.Round(float64(b.y-a.y)*f))}
}

// palette is the styles of the canvas colours.
func (p *topoPane) palette() []lipgloss.Style {
	st := p.st
	out := []lipgloss.Style{
		tcBlank: lipgloss.NewStyle(),
		tcLink:  st.Lane,
		tcCut:   st.Dropped,
		tcBurst: st.Dropped.Bold(true),
		tcUp:    st.Up,
		tcDown:  st.Down,
		tcLead:  st.Lead,
		tcWarn:  st.Warn,
		tcSel:   st.Selected,
		tcText:  st.Muted,
	}
	for _, c := range msgColours {
		out = append(out, lipgloss.NewStyle().Foreground(lipgloss.Color(c)))
	}
	for g := 1; g <= max(len(st.Groups), 1); g++ {
		out = append(out, st.Group(g).Bold(true))
	}
	return out
}

// render turns the canvas into lines, one style change per run of equal colours.
func (cv *topoCanvas) render(pal []lipgloss.Style) []string {
	lines := make([]string, cv.h)
	var b, run strings.Builder
	for y := 0; y < cv.h; y++ {
		b.Reset()
		row := cv.r[y*cv.w : (y+1)*cv.w]
		col := cv.c[y*cv.w : (y+1)*cv.w]
		for x := 0; x < cv.w; {
			c := col[x]
			run.Reset()
			for x < cv.w && col[x] == c {
				run.WriteRune(row[x])
				x++
			}
			if c == tcBlank || int(c) >= len(pal) {
				b.WriteString(run.String())
			} else {
				b.WriteString(pal[c].Render(run.String()))
			}
		}
		lines[y] = b.String()
	}
	return lines
}

// typeLetters gives each message type the letter its messages are drawn with on
// the circle: its first letter not taken by a type before it (ELECTION E,
// ELECTED L), so that types read without their colours.
func typeLetters(types []trace.TypeCount) map[string]rune {
	out := make(map[string]rune, len(types))
	taken := map[rune]bool{}
	for _, t := range types {
		r := '•'
		for _, c := range strings.ToUpper(t.Type) {
			if c >= 'A' && c <= 'Z' && !taken[c] {
				r = c
				break
			}
		}
		taken[r] = true
		out[t.Type] = r
	}
	return out
}

// typeColour is the canvas colour of message type t.
func typeColour(t string) uint8 {
	h := fnv.New32a()
	h.Write([]byte(t))
	return tcMsg + uint8(h.Sum32()%uint32(len(msgColours)))
}

// meanDelay is the mean one-way delay (µs) the snapshot's latency names, which
// places a message along its link: a send event does not carry its delivery time,
// so a glyph moves at the mean pace and waits near the end of its link until the
// delivery (or drop) is seen.
func (p *topoPane) meanDelay(s *trace.Snapshot) int64 {
	if s.Latency == p.lat && p.est > 0 {
		return p.est
	}
	p.lat, p.est = s.Latency, 0
	var ds []time.Duration
	for _, f := range strings.Fields(s.Latency) {
		if d, err := time.ParseDuration(f); err == nil {
			ds = append(ds, d)
		}
	}
	switch len(ds) {
	case 1:
		p.est = ds[0].Microseconds()
	case 2:
		p.est = (ds[0] + ds[1]).Microseconds() / 2
	case 3:
		p.est = ds[1].Microseconds()
	}
	if p.est <= 0 {
		p.est = max(s.Delta, 10_000)
	}
	return p.est
}

// flight is a message in flight or just dropped, as the pane draws it.
type flight struct {
	from, to node.ID
	typ      string
	frac     float64
	mid      uint64
	sent     int64 // when it was sent, µs
}

// flights lists the messages of the snapshot's recent events that are sent and not
// yet delivered or dropped, and those dropped less than one mean delay, or hold
// (µs), ago. A drop bursts where the message was lost: half way along its link
// (lost, or cut by a partition at its sending), or at the receiver that was down.
func flights(s *trace.Snapshot, est, hold int64) (inFlight, bursts []flight) {
	sent := make(map[uint64]int, len(s.Recent))
	done := make(map[uint64]bool, len(s.Recent))
	for i := range s.Recent {
		e := &s.Recent[i]
		switch e.Ev {
		case trace.Send:
			if !e.Local {
				sent[e.MID] = i
			}
		case trace.Deliver:
			done[e.MID] = true
		case trace.Drop:
			done[e.MID] = true
			if s.T-e.T <= max(est, hold) && e.From != e.To {
				f := 0.5
				if e.Reason == trace.ReasonDown {
					f = 0.85
				}
				bursts = append(bursts, flight{from: e.From, to: e.To, typ: msgType(e), frac: f})
			}
		}
	}
	for i := range s.Recent {
		e := &s.Recent[i]
		if e.Ev != trace.Send || e.Local || done[e.MID] || e.From == e.To || sent[e.MID] != i {
			continue
		}
		f := float64(s.T-e.T) / float64(est)
		inFlight = append(inFlight, flight{from: e.From, to: e.To, typ: msgType(e), frac: min(max(f, 0), 0.95), mid: e.MID, sent: e.T})
	}
	return inFlight, bursts
}

func msgType(e *trace.Event) string {
	if e.Msg == nil {
		return ""
	}
	return e.Msg.Type
}

// links is the links the pane draws, as pairs of node indices, and a note when some
// are left out.
func links(s *trace.Snapshot, index map[node.ID]int) (out [][2]int, note string) {
	n := len(s.Nodes)
	if len(s.Info.Edges) > 0 {
		for _, e := range s.Info.Edges {
			a, ok1 := index[e[0]]
			b, ok2 := index[e[1]]
			if ok1 && ok2 {
				out = append(out, [2]int{a, b})
			}
		}
		return out, ""
	}
	switch s.Info.Topology {
	case "ring":
		for i := 0; i < n && n > 2; i++ {
			out = append(out, [2]int{i, (i + 1) % n})
		}
		if n == 2 {
			out = append(out, [2]int{0, 1})
		}
	case "graph":
		// without the graph's edges (a header that does not carry them), draw the
		// links that carried a recent message (a send to a non-neighbour is dropped
		// for the topology)
		bad := map[uint64]bool{}
		for i := range s.Recent {
			if e := &s.Recent[i]; e.Ev == trace.Drop && e.Reason == trace.ReasonTopology {
				bad[e.MID] = true
			}
		}
		seen := map[[2]int]bool{}
		for i := range s.Recent {
			e := &s.Recent[i]
			if e.Ev != trace.Send || bad[e.MID] {
				continue
			}
			a, ok1 := index[e.From]
			b, ok2 := index[e.To]
			if !ok1 || !ok2 || a == b {
				continue
			}
			k := [2]int{min(a, b), max(a, b)}
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
		note = "links seen lately"
	default: // mesh
		if n > meshLinks {
			return nil, "mesh: links not drawn"
		}
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out, note
}

// cut reports whether the link between nodes a and b is cut: by `cut`, by a
// partition or by isolation.
func cut(s *trace.Snapshot, a, b trace.NodeView) bool {
	if a.Isolated || b.Isolated || a.Group != b.Group {
		return true
	}
	for _, c := range s.Cuts {
		if (c[0] == a.ID && c[1] == b.ID) || (c[0] == b.ID && c[1] == a.ID) {
			return true
		}
	}
	return false
}

// draw renders the pane for snapshot s with node index sel selected.
func (p *topoPane) draw(s *trace.Snapshot, sel int, focused bool) string {
	iw, ih := p.w-2, p.h-2
	if iw < 4 || ih < 1 {
		return box(p.st, p.st.T("tui.title.topology"), nil, p.w, p.h, focused)
	}
	n := len(s.Nodes)
	// a table of the nodes at the right when there is room for it
	tw := 0
	if iw >= 56 {
		tw = min(34, iw*2/5)
	}
	cw := iw - tw
	if tw > 0 {
		cw-- // a gap
	}
	cv := newTopoCanvas(cw, ih)
	// the circle: an ellipse that looks round (cells are about twice as tall as
	// wide), leaving room for the labels on either side
	labels := n <= labelNodes
	margin := 1
	if labels {
		margin = 5
	}
	cx := cw / 2
	// the centre, exact, so that rounding keeps every node inside the box
	fx, fy := float64(cw-1)/2, float64(ih-1)/2
	ry := float64(ih-1) / 2
	rx := math.Min(float64(cw/2-margin), ry*2.2)
	if rx < 1 {
		rx = math.Max(float64(cw/2-1), 0)
	}
	pos := make([]point, n)
	index := make(map[node.ID]int, n)
	for i, nv := range s.Nodes {
		a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(max(n, 1))
		pos[i] = point{int(math.Round(fx + rx*math.Cos(a))), int(math.Round(fy + ry*math.Sin(a)))}
		index[nv.ID] = i
	}
	if g := p.graphLayout(s, index); g != nil {
		// a graph is laid out by its links, scaled into the circle's box
		for i, u := range g {
			pos[i] = point{int(math.Round(fx + rx*(2*u[0]-1))), int(math.Round(fy + ry*(2*u[1]-1)))}
		}
	}
	p.drawn = topoHit{pos: pos, cx: cx, labels: labels}
	ls, note := links(s, index)
	for _, l := range ls {
		c := tcLink
		if cut(s, s.Nodes[l[0]], s.Nodes[l[1]]) {
			c = tcCut
		}
		cv.line(pos[l[0]], pos[l[1]], c)
	}
	// cuts named by `cut` are drawn even where the topology's links are not
	if len(ls) == 0 {
		for _, c := range s.Cuts {
			a, ok1 := index[c[0]]
			b, ok2 := index[c[1]]
			if ok1 && ok2 {
				cv.line(pos[a], pos[b], tcCut)
			}
		}
	}
	est := p.meanDelay(s)
	fl, bursts := flights(s, est, p.hold)
	letters := typeLetters(s.Types)
	// beyond what fits, every k-th message is drawn
	room := max(8, cw*ih/6)
	stride := 1
	if len(fl) > room {
		stride = (len(fl) + room - 1) / room
	}
	shown := 0
	types := []string{}
	for i := 0; i < len(fl); i++ {
		f := fl[i]
		if i%stride != 0 && f.mid != p.msg {
			continue // the selected message is drawn whatever the stride
		}
		a, ok1 := index[f.from]
		b, ok2 := index[f.to]
		if !ok1 || !ok2 {
			continue
		}
		frac, c := f.frac, typeColour(f.typ)
		if f.mid == p.msg {
			// the selected message off its ends, where the nodes would hide it
			frac, c = min(max(frac, 0.2), 0.8), tcSel
		}
		q := lerp(pos[a], pos[b], frac)
		g := letters[f.typ]
		if g == 0 {
			g = '•'
		}
		cv.set(q.x, q.y, g, c)
		p.drawn.msgs = append(p.drawn.msgs, msgHit{q, f})
		shown++
		if len(types) < 6 && !slices.Contains(types, f.typ) {
			types = append(types, f.typ)
		}
	}
	for _, f := range bursts {
		a, ok1 := index[f.from]
		b, ok2 := index[f.to]
		if ok1 && ok2 {
			q := lerp(pos[a], pos[b], f.frac)
			cv.set(q.x, q.y, '✶', tcBurst)
		}
	}
	// where nodes share a cell (hundreds on a circle), the telling ones are drawn
	// last and stay visible: down nodes and critical sections, then leaders, then
	// the selected node with its label
	for pass := range 4 {
		for i, nv := range s.Nodes {
			if nodePass(nv, i == sel) == pass {
				p.drawNode(cv, nv, pos[i], i == sel, labels, cx)
			}
		}
	}
	shared := 0
	cells := make(map[point]bool, n)
	for _, q := range pos {
		if cells[q] {
			shared++
		}
		cells[q] = true
	}
	lines := cv.render(p.palette())
	if tw > 0 {
		rows := p.table(s, sel, tw, ih)
		p.drawn.tableX, p.drawn.tableFirst, p.drawn.tableRows = cw+1, p.tableFirst(n, sel, ih), len(rows)
		// the legend of the message types drawn, below the table if there is room
		pal := p.palette()
		if len(rows)+1+len(types) <= ih {
			rows = append(rows, "")
			for _, t := range types {
				rows = append(rows, pal[typeColour(t)].Render(string(letters[t]))+" "+p.st.Muted.Render(t))
			}
		}
		for y := range lines {
			lines[y] += " "
			if y < len(rows) {
				lines[y] += fit(rows[y], tw)
			}
		}
	}
	title := p.st.T("tui.title.topology") + " · " + topologyName(s.Info.Topology) + " · " + strconv.Itoa(len(fl)) + " " + p.st.T("tui.net.inflight")
	if stride > 1 {
		title += " (" + p.st.Lang.F("tui.topo.shown", shown) + ")"
	}
	if shared > 0 {
		title += " · " + strconv.Itoa(shared) + " share cells"
	}
	if note != "" {
		title += " · " + note
	}
	// the node under the pointer, else the selected one, named as the cards do
	if h := p.hover - 1; h >= 0 && h < n && h != sel {
		title += " · ↖ " + nodeSummary(p.st.Lang, s.Nodes[h], s.Info.Family, s.T)
	} else if sel >= 0 && sel < n {
		title += " · " + nodeSummary(p.st.Lang, s.Nodes[sel], s.Info.Family, s.T)
	}
	return box(p.st, title, lines, p.w, p.h, focused)
}

func topologyName(t string) string {
	if t == "" {
		return "mesh"
	}
	return t
}

// table is one line per node beside the circle: its glyph, role, main timer, term
// and leader (or its critical section state), keeping the selected node in view.
func (p *topoPane) table(s *trace.Snapshot, sel, w, h int) []string {
	st := p.st
	n := len(s.Nodes)
	first := p.tableFirst(n, sel, h)
	idW := 0
	for _, nv := range s.Nodes {
		idW = max(idW, len(nv.ID.String()))
	}
	timers := false
	for i := first; i < n && i < first+h; i++ {
		if s.Nodes[i].Up && s.Nodes[i].Status.Deadline.Running() {
			timers = true
		}
	}
	out := make([]string, 0, min(n, h))
	for i := first; i < n && len(out) < h; i++ {
		nv := s.Nodes[i]
		id := nv.ID.String()
		id += strings.Repeat(" ", idW-len(id))
		var b strings.Builder
		if i == sel {
			b.WriteString(st.Selected.Render(id))
		} else if nv.Group > 0 {
			b.WriteString(st.Group(nv.Group).Render(id))
		} else {
			b.WriteString(id)
		}
		b.WriteString(" " + glyph(nv) + " ")
		if !nv.Up {
			b.WriteString(st.Down.Render(st.T("tui.node.down")))
			out = append(out, b.String())
			continue
		}
		role := st.Lang.Word(nv.Status.Role)
		if role == "" {
			role = st.T("tui.node.up")
		}
		rs := st.Up
		if nv.Status.Leader == nv.ID {
			rs = st.Lead
		}
		b.WriteString(rs.Render(fit(role, 9)))
		// the main timer running down: RaftScope's timeout ring, as a bar (a
		// column of its own, blank for a node with none)
		if bar, _, ok := timerBar(st, nv, s.T, 4); ok {
			b.WriteString(" " + bar)
		} else if timers {
			b.WriteString("     ")
		}
		if nv.Status.Term > 0 {
			b.WriteString(" t" + strconv.FormatInt(nv.Status.Term, 10))
		}
		if s.Info.Family == "mutex" {
			if justLeft(p.left, nv) {
				b.WriteString(" " + st.T("tui.node.cs") + " " + st.Left.Render("◇ "+st.T("tui.node.left")))
			} else if nv.Status.CS != node.CSNone {
				b.WriteString(" " + st.T("tui.node.cs") + " " + st.Lang.Word(nv.Status.CS.String()))
			}
		} else if nv.Status.Leader != node.None {
			b.WriteString(st.Muted.Render(" "+st.T("tui.card.ldr")+" ") + nv.Status.Leader.String())
		}
		if nv.Group > 0 {
			b.WriteString(" " + st.Group(nv.Group).Render(groupLetter(nv.Group)))
		}
		out = append(out, b.String())
	}
	return out
}

// tableFirst is the first of n nodes the table shows in h lines, keeping sel in
// view.
func (p *topoPane) tableFirst(n, sel, h int) int {
	if n > h && sel >= h {
		return min(sel-h+1, n-h)
	}
	return 0
}

// graphNodes is the largest graph laid out by its links; a larger one stays on the
// circle, since the layout costs time quadratic in the nodes.
const graphNodes = 100

// graphLayout places the nodes of a graph topology by a force-directed layout
// (Fruchterman and Reingold, 1991): linked nodes pull together, all push apart. It
// starts from the circle and runs a fixed number of rounds, so it is the same on
// every run, and it is computed once per graph. Nil for any other topology.
func (p *topoPane) graphLayout(s *trace.Snapshot, index map[node.ID]int) [][2]float64 {
	n := len(s.Nodes)
	if s.Info.Topology != "graph" || len(s.Info.Edges) == 0 || n < 3 || n > graphNodes {
		return nil
	}
	if len(p.layout) == n && len(p.layEdges) == len(s.Info.Edges) && &p.layEdges[0] == &s.Info.Edges[0] {
		return p.layout
	}
	pos := make([][2]float64, n)
	for i := range pos {
		a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(n)
		pos[i] = [2]float64{0.5 + 0.5*math.Cos(a), 0.5 + 0.5*math.Sin(a)}
	}
	var es [][2]int
	for _, e := range s.Info.Edges {
		a, ok1 := index[e[0]]
		b, ok2 := index[e[1]]
		if ok1 && ok2 {
			es = append(es, [2]int{a, b})
		}
	}
	k := 1 / math.Sqrt(float64(n))
	disp := make([][2]float64, n)
	const rounds = 200
	for r := range rounds {
		clear(disp)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				dx, dy := pos[i][0]-pos[j][0], pos[i][1]-pos[j][1]
				d := math.Max(math.Hypot(dx, dy), 1e-6)
				f := k * k / d / d
				disp[i][0] += dx * f
				disp[i][1] += dy * f
				disp[j][0] -= dx * f
				disp[j][1] -= dy * f
			}
		}
		for _, e := range es {
			a, b := e[0], e[1]
			dx, dy := pos[a][0]-pos[b][0], pos[a][1]-pos[b][1]
			d := math.Hypot(dx, dy)
			f := d / k
			disp[a][0] -= dx * f
			disp[a][1] -= dy * f
			disp[b][0] += dx * f
			disp[b][1] += dy * f
		}
		temp := 0.1 * (1 - float64(r)/rounds)
		for i := range pos {
			d := math.Hypot(disp[i][0], disp[i][1])
			if d > 0 {
				step := math.Min(d, temp) / d
				pos[i][0] += disp[i][0] * step
				pos[i][1] += disp[i][1] * step
			}
		}
	}
	// fit the layout into the unit square
	lo, hi := pos[0], pos[0]
	for _, q := range pos {
		lo = [2]float64{math.Min(lo[0], q[0]), math.Min(lo[1], q[1])}
		hi = [2]float64{math.Max(hi[0], q[0]), math.Max(hi[1], q[1])}
	}
	for i := range pos {
		for c := range 2 {
			if w := hi[c] - lo[c]; w > 1e-9 {
				pos[i][c] = (pos[i][c] - lo[c]) / w
			} else {
				pos[i][c] = 0.5
			}
		}
	}
	p.layEdges, p.layout = s.Info.Edges, pos
	return pos
}

// nodePass is the drawing pass of a node: plain ones first, down ones and critical
// sections next, then leaders, the selected one last.
func nodePass(nv trace.NodeView, sel bool) int {
	switch {
	case sel:
		return 3
	case nv.Up && nv.Status.Leader == nv.ID:
		return 2
	case !nv.Up || nv.Status.CS == node.CSHeld:
		return 1
	}
	return 0
}

// drawNode draws a node's glyph at q, and its id beside it (outwards of the
// centre column cx) when labels are on or it is selected.
func (p *topoPane) drawNode(cv *topoCanvas, nv trace.NodeView, q point, sel, labels bool, cx int) {
	c := tcUp
	switch {
	case sel:
		c = tcSel
	case !nv.Up:
		c = tcDown
	case nv.Status.Leader == nv.ID:
		c = tcLead
	case nv.Group > 0:
		c = tcGroup + uint8((nv.Group-1)%max(len(p.st.Groups), 1))
	case nv.Status.CS == node.CSHeld || nv.Slow > 1 || nv.Isolated:
		c = tcWarn
	}
	g := []rune(glyph(nv))[0]
	switch {
	case nv.Up && nv.Status.CS == node.CSHeld:
		g = '◆'
	case g == '●' && justLeft(p.left, nv):
		g = '◇'
	case g == '●' && nv.Group > 0 && !labels:
		// a partition's side reads without its colour on a big circle, where no
		// label names the node (the table beside a small one gives the letter)
		g = []rune(groupLetter(nv.Group))[0]
	}
	cv.set(q.x, q.y, g, c)
	if labels || sel {
		lc := tcText
		if nv.Group > 0 {
			lc = tcGroup + uint8((nv.Group-1)%max(len(p.st.Groups), 1))
		}
		id := nv.ID.String()
		if q.x >= cx {
			cv.text(q.x+1, q.y, id, lc)
		} else {
			cv.text(q.x-len(id), q.y, id, lc)
		}
	}
}
