package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"

	"github.com/clusterlab/clusterlab/internal/membudget"
	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/tui"
)

// RecordCommand is the one command a --lab server runs: `ssh -p PORT host
// record > mine.jsonl` writes the student's latest recording.
const RecordCommand = "record"

// Lab is --lab mode: each student gets a private world, recorded from its start
// into Dir, within caps that keep a class of them on one machine.
type Lab struct {
	// Dir keeps each student's latest recording, one file per public key.
	Dir string
	// MaxNodes is the largest world a student may open.
	MaxNodes int
	// MaxSpeed is the fastest a private world runs (virtual seconds a wall
	// second); "as fast as possible" is not offered.
	MaxSpeed float64
	// Memory is what the private worlds open at once may take together,
	// estimated before each opens (labWorldBytes).
	Memory uint64
}

// Lab's defaults: every preset fits in MaxNodes, and Memory holds the session
// cap's worth of worlds of that size.
const (
	DefaultLabNodes  = 32
	DefaultLabSpeed  = 50.0
	DefaultLabMemory = 1 << 30
	// labPending bounds the events waiting in a private world (the storm
	// guard's bound): a world of 32 nodes holds a few thousand at most, unless
	// it storms, and then it stops at this many, about 9 MB.
	labPending = 100_000
	// labSessionBytes is what a private world's session holds beside the
	// world's own estimate: its trace state, snapshots and dashboard (2.3 MB for
	// the largest preset at ×50, TestLabWorldEstimate) and its SSH side and
	// renderer (3.6 MB, TestClassOf50's figure per extra session).
	labSessionBytes = 6 << 20
)

// labWorldBytes is the estimate a private world of cfg is admitted by.
func labWorldBytes(cfg netsim.Config) uint64 {
	return netsim.WorldBytes(cfg) + labPending*90 + labSessionBytes
}

// CheckLab refuses a scenario over the lab's caps, in one line naming the flag.
func CheckLab(lab *Lab, s *presets.Scenario, cfg netsim.Config, speed float64) error {
	if n := len(cfg.IDs); n > lab.MaxNodes {
		return fmt.Errorf("--lab-nodes: %s has %d nodes, over the lab's cap of %d; expected a scenario of at most %d nodes (or a higher --lab-nodes)", s.Name, n, lab.MaxNodes, lab.MaxNodes)
	}
	if speed <= 0 || speed > lab.MaxSpeed {
		return fmt.Errorf("--lab-speed: found --speed %v, over the lab's cap of %v; expected 0.01 to %v (a lab never runs as fast as possible)", speed, lab.MaxSpeed, lab.MaxSpeed)
	}
	if b := labWorldBytes(cfg); b > lab.Memory {
		return fmt.Errorf("--lab-memory: a private world of %s takes about %s, over the lab's %s; expected at least that much", s.Name, membudget.Bytes(b), membudget.Bytes(lab.Memory))
	}
	return nil
}

// labState is the private worlds of a --lab server.
type labState struct {
	o    Options
	menu []string // the presets offered when no scenario is given

	mu     sync.Mutex
	used   uint64               // the estimated bytes of the worlds open
	opened map[string]int       // sessions open per student (key id)
	worlds map[*labSession]bool // the sessions with a world open
	seq    int                  // numbers each session's recording while it runs
}

func newLabState(o Options) (*labState, error) {
	lab := o.Lab
	if lab.MaxNodes <= 0 {
		lab.MaxNodes = DefaultLabNodes
	}
	if lab.MaxSpeed <= 0 {
		lab.MaxSpeed = DefaultLabSpeed
	}
	if lab.Memory == 0 {
		lab.Memory = DefaultLabMemory
	}
	if lab.Dir == "" {
		return nil, errors.New("--lab-dir: expected a folder to keep the students' recordings in")
	}
	if err := os.MkdirAll(lab.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("--lab-dir: %w", err)
	}
	ls := &labState{o: o, opened: map[string]int{}, worlds: map[*labSession]bool{}}
	if o.Scenario != nil {
		if err := CheckLab(lab, o.Scenario, o.Config, o.Speed); err != nil {
			return nil, err
		}
		return ls, nil
	}
	for _, name := range presets.Names() {
		if s, cfg, err := loadPreset(name); err == nil && CheckLab(lab, s, cfg, labSpeed(lab, cfg)) == nil {
			ls.menu = append(ls.menu, name)
		}
	}
	if len(ls.menu) == 0 {
		return nil, fmt.Errorf("--lab-nodes, --lab-memory: no preset fits the lab's caps (%d nodes, %s together); expected caps that hold at least one world", lab.MaxNodes, membudget.Bytes(lab.Memory))
	}
	return ls, nil
}

func loadPreset(name string) (*presets.Scenario, netsim.Config, error) {
	s, err := presets.Load(name)
	if err != nil {
		return nil, netsim.Config{}, err
	}
	cfg, err := s.Resolve()
	return s, cfg, err
}

// labSpeed is the opening speed of a preset picked from the menu: its family's,
// within the cap.
func labSpeed(lab *Lab, cfg netsim.Config) float64 {
	return min(tui.OpeningSpeed(string(cfg.Spec.Family)), lab.MaxSpeed)
}

// studentID names a student's recordings: their public key's SHA-256, in hex.
func studentID(key ssh.PublicKey) string {
	sum := sha256.Sum256(key.Marshal())
	return hex.EncodeToString(sum[:12])
}

// latest is the file that keeps a student's latest recording.
func (l *labState) latest(id string) string { return filepath.Join(l.o.Lab.Dir, id+".jsonl") }

// MenuSize is how many presets a --lab server's menu offers (0 with a scenario
// of its own, or without --lab).
func (s *Server) MenuSize() int {
	if s.lab == nil {
		return 0
	}
	return len(s.lab.menu)
}

// labKey is the session context's key of its labSession.
type labKey struct{}

// labSession is one student's session: the private world, once one is open.
type labSession struct {
	l    *labState
	id   string
	mu   sync.Mutex
	live *session.Live
	file string // where the world records while it runs
	held uint64 // the world's share of the memory budget
}

// open counts a student's session; close closes its world.
func (l *labState) open(sess ssh.Session) *labSession {
	id := studentID(sess.PublicKey())
	l.mu.Lock()
	l.opened[id]++
	l.mu.Unlock()
	return &labSession{l: l, id: id}
}

// start opens the student's private world of s, recorded from its start. It is
// refused when the lab's memory is taken.
func (ls *labSession) start(s *presets.Scenario, cfg netsim.Config, speed float64, lg lang.Lang) (*session.Live, error) {
	l := ls.l
	if err := CheckLab(l.o.Lab, s, cfg, speed); err != nil {
		return nil, err
	}
	cfg.MaxPending = labPending
	need := labWorldBytes(cfg)
	l.mu.Lock()
	if l.used+need > l.o.Lab.Memory {
		used := l.used
		l.mu.Unlock()
		return nil, errors.New(lg.F("serve.lab.full", membudget.Bytes(used), membudget.Bytes(l.o.Lab.Memory)))
	}
	l.used += need
	l.seq++
	file := filepath.Join(l.o.Lab.Dir, fmt.Sprintf("%s.%d.jsonl", ls.id, l.seq))
	l.mu.Unlock()
	live, err := session.NewLive(s, cfg, session.LiveOptions{Record: file, Force: true, Speed: speed})
	if err != nil {
		l.release(need)
		return nil, err
	}
	ls.mu.Lock()
	ls.live, ls.file, ls.held = live, file, need
	ls.mu.Unlock()
	l.mu.Lock()
	l.worlds[ls] = true
	l.mu.Unlock()
	return live, nil
}

func (l *labState) release(n uint64) {
	l.mu.Lock()
	l.used -= n
	l.mu.Unlock()
}

// close closes the student's world, whose recording ends with reason quit and
// becomes their latest, and gives its memory back.
func (ls *labSession) close() {
	ls.mu.Lock()
	live, file, held := ls.live, ls.file, ls.held
	ls.live = nil
	ls.mu.Unlock()
	if live != nil {
		err := live.Close()
		if err == nil {
			err = os.Rename(file, ls.l.latest(ls.id))
		}
		if err != nil {
			fmt.Fprintf(ls.l.o.Log, "clusterlab serve: a student's recording was not kept: %v\n", err)
		}
		ls.l.release(held)
	}
	ls.l.mu.Lock()
	delete(ls.l.worlds, ls)
	if ls.l.opened[ls.id]--; ls.l.opened[ls.id] <= 0 {
		delete(ls.l.opened, ls.id)
	}
	ls.l.mu.Unlock()
}

// fetch writes the student's latest recording to the session: `ssh host record
// > mine.jsonl`. The latest is the one of the last lab session that ended: a
// recording still being made has no end yet, and would not verify; a student
// with a session open is told so on standard error.
func (l *labState) fetch(sess ssh.Session, lg lang.Lang) {
	id := studentID(sess.PublicKey())
	l.mu.Lock()
	running := l.opened[id] > 0
	l.mu.Unlock()
	f, err := os.Open(l.latest(id))
	if err != nil {
		if running {
			wish.Fatalln(sess, lg.T("serve.lab.running"))
		} else {
			wish.Fatalln(sess, lg.T("serve.lab.none"))
		}
		return
	}
	defer f.Close()
	if running {
		fmt.Fprintln(sess.Stderr(), lg.T("serve.lab.previous"))
	}
	if _, err := io.Copy(sess, f); err != nil {
		sess.Exit(1)
		return
	}
	sess.Exit(0)
}

// labModel is a student's program: the dashboard of the lab's scenario, or the
// menu of presets that opens one.
func (s *Server) labModel(ls *labSession, lg lang.Lang, who string) tea.Model {
	return &labModel{l: s.lab, ls: ls, lang: lg, srv: s, who: who}
}

// labModel is a student's session in --lab mode: the menu (when the server has
// no scenario of its own), then the dashboard of the private world.
type labModel struct {
	l      *labState
	ls     *labSession
	lang   lang.Lang
	srv    *Server
	who    string // the session, for the log
	cursor int
	err    string
	w, h   int
	dash   *classModel
}

func (m *labModel) Init() tea.Cmd {
	if s := m.l.o.Scenario; s != nil {
		// opened by the session's guard
		m.ls.mu.Lock()
		live := m.ls.live
		m.ls.mu.Unlock()
		return m.open(live, s.Name, m.l.o.Config.Seed)
	}
	return nil
}

// choose opens a private world of the preset picked, and its dashboard.
func (m *labModel) choose(s *presets.Scenario, cfg netsim.Config, speed float64) tea.Cmd {
	live, err := m.ls.start(s, cfg, speed, m.lang)
	if err != nil {
		m.err = err.Error()
		return nil
	}
	return m.open(live, s.Name, cfg.Seed)
}

// open shows the dashboard of the student's world.
func (m *labModel) open(live *session.Live, title string, seed uint64) tea.Cmd {
	v := &viewer{live: live, l: m.lang, own: true, speed: m.l.o.Lab.MaxSpeed}
	m.dash = m.srv.dashboard(v, title, seed, m.lang, 0, m.who)
	if m.w == 0 {
		return m.dash.Init() // the size comes after
	}
	size := func() tea.Msg { return tea.WindowSizeMsg{Width: m.w, Height: m.h} }
	return tea.Batch(m.dash.Init(), size)
}

func (m *labModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.dash != nil {
		_, cmd := m.dash.Update(msg)
		return m, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		switch msg.String() {
		case "q", "ctrl+c", "esc":
			return m, tea.Quit
		case "up", "k":
			m.cursor = max(m.cursor-1, 0)
		case "down", "j":
			m.cursor = min(m.cursor+1, len(m.l.menu)-1)
		case "home":
			m.cursor = 0
		case "end":
			m.cursor = len(m.l.menu) - 1
		case "enter":
			s, cfg, err := loadPreset(m.l.menu[m.cursor])
			if err != nil {
				m.err = err.Error()
				return m, nil
			}
			return m, m.choose(s, cfg, labSpeed(m.l.o.Lab, cfg))
		}
	}
	return m, nil
}

func (m *labModel) View() tea.View {
	if m.dash != nil {
		return m.dash.View()
	}
	var b strings.Builder
	b.WriteString("clusterlab: " + m.lang.T("serve.lab.menu") + "\n\n")
	rows := max(m.h-6, 3)
	from := min(max(m.cursor-rows/2, 0), max(len(m.l.menu)-rows, 0))
	for i := from; i < len(m.l.menu) && i < from+rows; i++ {
		mark := "  "
		if i == m.cursor {
			mark = "▸ "
		}
		b.WriteString(mark + m.l.menu[i] + "\n")
	}
	b.WriteString("\n")
	if m.err != "" {
		b.WriteString("✗ " + m.err + "\n")
	}
	b.WriteString(m.lang.T("serve.lab.menukeys"))
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}
