// Package serve is the lab for a whole class over SSH: one shared world, run in
// one goroutine (session.Live), and a dashboard per SSH session (tui), each with
// its own view (focus, selection, scroll, help, language, size). Keys listed as
// teachers act on the world; everyone else watches. Nothing is installed on the
// students' side: `ssh -p 2222 host`.
//
// It is safe by default: it listens on the loopback unless told otherwise,
// authenticates with public keys only (an explicit handler: without one the SSH
// library would let anyone in), refuses commands, forwarding and sessions without
// a terminal, limits new connections per address and the sessions at once, drops
// an idle spectator and demotes an idle teacher (measured in the dashboard, since
// a live dashboard writes all the time and never idles on the wire), caps a
// session's length, and keeps its host key in a file created 0600.
package serve

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/clusterlab/clusterlab/lang"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/tui"
)

// TeacherUser is the SSH user name that asks for the teacher's role: `ssh
// teacher@host`. Its key must be in the teachers file.
const TeacherUser = "teacher"

// Defaults of Options.
const (
	DefaultListen        = "127.0.0.1:2222"
	DefaultMaxSessions   = 60
	DefaultRate          = 1.0 // new connections a second, per address
	DefaultBurst         = 5
	DefaultIdleSpectator = 30 * time.Minute
	DefaultIdleTeacher   = 15 * time.Minute
	DefaultMaxSession    = 3 * time.Hour
	// SpectatorFPS is how many frames a second a spectator's dashboard draws at
	// most; a teacher's draws the dashboard's default.
	SpectatorFPS = 10
	// renderFPS is how often a session's renderer looks whether its screen
	// changed, and writes what did: a picture pushed by a teacher's action goes
	// out within a thirtieth of a second, not at the next tenth. A look at an
	// unchanged screen is a comparison of strings, and writes nothing.
	renderFPS = 30
)

// Options set a server.
type Options struct {
	HostKey  string // the host key's file, created (0600) if absent
	Teachers string // an authorized_keys file: the teachers' keys
	Scenario *presets.Scenario
	Config   netsim.Config
	Record   string // record the shared world to this file ("" for none)
	Force    bool   // overwrite Record
	Speed    float64
	Paused   bool // the shared world starts paused
	// Lang is the language of a session whose client sends no LANG.
	Lang lang.Lang
	// Lab, when set, gives each student a private world instead of the shared
	// one (--lab): Scenario's, or one picked from a menu when Scenario is nil.
	Lab *Lab
	// Log receives the server's own lines (a session's dashboard that panicked);
	// nil is standard error.
	Log io.Writer

	// The limits; zero values take the defaults.
	MaxSessions   int
	Rate          float64
	Burst         int
	IdleSpectator time.Duration
	IdleTeacher   time.Duration
	MaxSession    time.Duration

	// panicKey, in tests, makes a session's dashboard panic on that key.
	panicKey string
}

// Server is a class's server: the shared world and the SSH server.
type Server struct {
	o        Options
	live     *session.Live
	ssh      *ssh.Server
	teachers []teacher
	hostKey  gossh.Signer
	limiter  *limiter
	sessions atomic.Int64
	closed   sync.Once
	log      *log.Logger
	lab      *labState // --lab's private worlds; nil for a shared world

	mu      sync.Mutex
	screens map[ssh.Session]*screen // the dashboards open, for a Refresh
	// handlers counts the sessions' handlers running, which Close waits for:
	// each closes its own private world
	handlers sync.WaitGroup
}

// teacher is a key of the teachers file and the name its markers carry.
type teacher struct {
	key  gossh.PublicKey
	name string
}

// New reads the host key (creating it if absent) and the teachers, starts the
// shared world, and makes the SSH server; Serve serves it.
func New(o Options) (*Server, error) {
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.Rate <= 0 {
		o.Rate = DefaultRate
	}
	if o.Burst <= 0 {
		o.Burst = DefaultBurst
	}
	if o.IdleSpectator <= 0 {
		o.IdleSpectator = DefaultIdleSpectator
	}
	if o.IdleTeacher <= 0 {
		o.IdleTeacher = DefaultIdleTeacher
	}
	if o.MaxSession <= 0 {
		o.MaxSession = DefaultMaxSession
	}
	signer, err := HostKey(o.HostKey)
	if err != nil {
		return nil, err
	}
	var teachers []teacher
	if o.Lab == nil || o.Teachers != "" {
		if teachers, err = readTeachers(o.Teachers); err != nil {
			return nil, err
		}
	}
	if o.Log == nil {
		o.Log = os.Stderr
	}
	s := &Server{o: o, teachers: teachers, hostKey: signer, limiter: newLimiter(o.Rate, o.Burst),
		log: log.New(o.Log, "clusterlab serve: ", 0), screens: map[ssh.Session]*screen{}}
	if o.Lab != nil {
		if s.lab, err = newLabState(o); err != nil {
			return nil, err
		}
	} else if s.live, err = session.NewLive(o.Scenario, o.Config, session.LiveOptions{Record: o.Record, Force: o.Force, Speed: o.Speed, Paused: o.Paused}); err != nil {
		return nil, err
	}
	live := s.live
	s.ssh, err = wish.NewServer(
		ssh.Option(func(srv *ssh.Server) error {
			srv.AddHostKey(signer)
			return nil
		}),
		wish.WithPublicKeyAuth(s.publicKey),
		wish.WithMaxTimeout(o.MaxSession),
		wish.WithMiddleware(
			bubbletea.MiddlewareWithProgramHandler(s.program),
			s.guard,
		),
	)
	if err != nil {
		if live != nil {
			live.Close()
		}
		return nil, err
	}
	// Before any handshake: a flood from one address costs it nothing.
	s.ssh.ConnCallback = func(ctx ssh.Context, conn net.Conn) net.Conn {
		if !s.limiter.allow(conn.RemoteAddr()) {
			conn.Close()
			return nil
		}
		return conn
	}
	return s, nil
}

// Fingerprint is the host key's SHA-256 fingerprint, as ssh shows it.
func (s *Server) Fingerprint() string { return gossh.FingerprintSHA256(s.hostKey.PublicKey()) }

// Live is the shared world (nil in --lab mode).
func (s *Server) Live() *session.Live { return s.live }

// Sessions is how many SSH sessions are open.
func (s *Server) Sessions() int { return int(s.sessions.Load()) }

// Serve serves SSH sessions on ln until Close.
func (s *Server) Serve(ln net.Listener) error {
	err := s.ssh.Serve(ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Close ends every session and the world, whose recording then ends with reason
// quit.
func (s *Server) Close() error { return s.CloseFor(trace.EndQuit) }

// CloseFor is Close with the recording's end reason (trace.EndInterrupted on a
// signal).
func (s *Server) CloseFor(reason string) error {
	var err error
	s.closed.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if e := s.ssh.Shutdown(ctx); e != nil {
			s.ssh.Close()
		}
		// every session's handler has ended, and closed its private world
		s.handlers.Wait()
		if s.live != nil {
			err = s.live.CloseFor(reason)
		}
	})
	return err
}

// publicKey lets any key watch, and only the teachers' keys in as TeacherUser.
// Passwords and keyboard-interactive logins have no handler: they are refused.
func (s *Server) publicKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if ctx.User() == TeacherUser && s.lab == nil {
		_, ok := s.teacherOf(key)
		return ok
	}
	return true
}

func (s *Server) teacherOf(key ssh.PublicKey) (string, bool) {
	if key == nil {
		return "", false
	}
	for _, t := range s.teachers {
		if ssh.KeysEqual(key, t.key) {
			return t.name, true
		}
	}
	return "", false
}

// guard refuses what a class's server does not serve, before any dashboard: a
// command, a session without a terminal, one session too many, and a teacher's
// login whose key, checked again here, is not a teacher's (the public-key
// callback may have been asked about another key than the one used).
func (s *Server) guard(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		s.handlers.Add(1)
		defer s.handlers.Done()
		l := sessionLang(sess, s.o.Lang)
		_, _, pty := sess.Pty()
		switch {
		case s.lab != nil && !pty && sess.Subsystem() == "" && slices.Equal(sess.Command(), []string{RecordCommand}):
			s.lab.fetch(sess, l)
			return
		case len(sess.Command()) > 0 || sess.Subsystem() != "":
			if s.lab != nil {
				wish.Fatalln(sess, l.T("serve.lab.nocommand"))
				return
			}
			wish.Fatalln(sess, l.T("serve.nocommand"))
			return
		case !pty:
			wish.Fatalln(sess, l.T("serve.nopty"))
			return
		case sess.User() == TeacherUser && s.lab == nil:
			if _, ok := s.teacherOf(sess.PublicKey()); !ok {
				wish.Fatalln(sess, l.T("serve.notteacher"))
				return
			}
		}
		if n := s.sessions.Add(1); n > int64(s.o.MaxSessions) {
			s.sessions.Add(-1)
			wish.Fatalln(sess, l.F("serve.full", s.o.MaxSessions))
			return
		}
		defer s.sessions.Add(-1)
		if s.lab != nil {
			ls := s.lab.open(sess)
			defer ls.close()
			// the lab's own scenario opens before the dashboard: a lab without
			// the memory for it says so in a line, as a full class does
			if s.o.Scenario != nil {
				if _, err := ls.start(s.o.Scenario, s.o.Config, s.o.Speed, l); err != nil {
					wish.Fatalln(sess, err.Error())
					return
				}
			}
			sess.Context().SetValue(labKey{}, ls)
		}
		defer s.forget(sess)
		next(sess)
	}
}

// screen is a session's program, to which Refresh is pushed.
type screen struct {
	p       *tea.Program
	pending atomic.Bool // a Refresh is on its way: one is enough
}

// push sends the program a Refresh without waiting for it: a screen busy
// drawing is not waited for, and gets one Refresh however many actions came.
func (c *screen) push() {
	if c.pending.Swap(true) {
		return
	}
	go func() {
		c.p.Send(tui.Refresh{}) // returns once the program has ended, if it has
		c.pending.Store(false)
	}()
}

// refreshAll pushes the shared world's latest picture to every screen at once:
// a teacher's action shows everywhere now, not at each screen's next tick.
func (s *Server) refreshAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.screens {
		c.push()
	}
}

func (s *Server) forget(sess ssh.Session) {
	s.mu.Lock()
	delete(s.screens, sess)
	s.mu.Unlock()
}

// program makes a session's dashboard: over the shared world, or over the
// student's private world in --lab mode (after its menu, when there is one).
func (s *Server) program(sess ssh.Session) *tea.Program {
	l := sessionLang(sess, s.o.Lang)
	var m tea.Model
	fps := SpectatorFPS
	who := fmt.Sprintf("%s (%s)", sess.RemoteAddr(), sess.User())
	if s.lab != nil {
		ls, _ := sess.Context().Value(labKey{}).(*labSession)
		m, fps = s.labModel(ls, l, who), 0
	} else {
		v := &viewer{live: s.live, l: l, acted: s.refreshAll}
		if name, ok := s.teacherOf(sess.PublicKey()); ok && sess.User() == TeacherUser {
			v.name = name
			v.teacher.Store(true)
			fps = 0
		}
		m = s.dashboard(v, s.o.Scenario.Name, s.o.Config.Seed, l, fps, who)
	}
	opts := append(bubbletea.MakeOptions(sess), tea.WithFPS(renderFPS), tea.WithoutSignalHandler())
	p := tea.NewProgram(m, opts...)
	s.mu.Lock()
	s.screens[sess] = &screen{p: p}
	s.mu.Unlock()
	return p
}

// dashboard is a session's dashboard on v's world. Steady: a viewer learns of
// another's action on its tick (or a Refresh), and the tick must not slow to a
// second while the world is idle.
func (s *Server) dashboard(v *viewer, title string, seed uint64, l lang.Lang, fps int, who string) *classModel {
	m := &classModel{v: v, idleSpectator: s.o.IdleSpectator, idleTeacher: s.o.IdleTeacher, last: time.Now(),
		log: s.log, who: who, panicKey: s.o.panicKey}
	m.Model = tui.New(v, tui.Options{Title: title, Seed: &seed, Lang: l, FPS: fps, Steady: true, Extra: []tui.Extra{langKey(v)}})
	return m
}

// langKey changes a viewer's language, the dashboard's and the server's lines:
// English, Portuguese, Spanish, round.
func langKey(v *viewer) tui.Extra {
	return tui.Extra{Key: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "")), Desc: "serve.key.lang",
		Do: func(m *tui.Model) tea.Cmd {
			next := map[lang.Lang]lang.Lang{lang.En: lang.Pt, lang.Pt: lang.Es}[m.Lang()]
			if next == "" {
				next = lang.En
			}
			v.l = next // read only by this session's dashboard, in its Update
			m.SetLang(next)
			return nil
		}}
}

// sessionLang is the language the client's LANG (or LC_ALL, LC_MESSAGES) asks
// for, or def.
func sessionLang(sess ssh.Session, def lang.Lang) lang.Lang {
	env := map[string]string{}
	for _, kv := range sess.Environ() {
		for i := 0; i < len(kv); i++ {
			if kv[i] == '=' {
				env[kv[:i]] = kv[i+1:]
				break
			}
		}
	}
	if len(env) == 0 {
		return def
	}
	l, err := lang.FromEnv(func(k string) string { return env[k] })
	if err != nil || (env["LANG"] == "" && env["LC_ALL"] == "" && env["LC_MESSAGES"] == "" && env["CLUSTERLAB_LANG"] == "") {
		return def
	}
	return l
}

// HostKey reads the host key at path, or creates it (Ed25519, mode 0600, never
// over an existing file) when there is none. The same file gives the same key,
// and the same fingerprint, on every start.
func HostKey(path string) (gossh.Signer, error) {
	if path == "" {
		return nil, errors.New("--host-key: expected a file to keep the server's key in")
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		block, err := gossh.MarshalPrivateKey(priv, "clusterlab serve")
		if err != nil {
			return nil, err
		}
		data = pem.EncodeToMemory(block)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("--host-key: %w", err)
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return nil, fmt.Errorf("--host-key: %w", err)
		}
		if err := f.Close(); err != nil {
			return nil, fmt.Errorf("--host-key: %w", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("--host-key: %w", err)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("--host-key: %s: found no private key this server can read (%v), expected an OpenSSH private key such as it creates", path, err)
	}
	return signer, nil
}

// readTeachers reads an authorized_keys file: one key a line, its comment the
// teacher's name in the markers (teacher-N without one).
func readTeachers(path string) ([]teacher, error) {
	if path == "" {
		return nil, errors.New("--teachers: expected an authorized_keys file of the teachers' public keys")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--teachers: %w", err)
	}
	var out []teacher
	line := 1
	for rest := data; len(rest) > 0; {
		key, comment, _, next, err := gossh.ParseAuthorizedKey(rest)
		if err != nil {
			if len(out) == 0 {
				return nil, fmt.Errorf("--teachers: %s: found no public key, expected authorized_keys lines such as 'ssh-ed25519 AAAA… name'", path)
			}
			break
		}
		if comment == "" {
			comment = fmt.Sprintf("teacher-%d", line)
		}
		out = append(out, teacher{key, comment})
		rest, line = next, line+1
	}
	return out, nil
}

// classModel is a session's dashboard, which also measures the viewer's idle
// time (keys, not the wire: a live dashboard writes all the time), and keeps a
// panic to its own session: the session ends, the server logs one line, and the
// other sessions and the world go on.
type classModel struct {
	*tui.Model
	v                          *viewer
	idleSpectator, idleTeacher time.Duration
	last                       time.Time
	log                        *log.Logger
	who                        string // the session, for the log
	panicKey                   string
	failed                     bool // it panicked: it draws one line until it ends
}

func (m *classModel) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	if m.failed {
		return m, nil
	}
	defer func() {
		if r := recover(); r != nil {
			model, cmd = m, m.fail(r)
		}
	}()
	if k, ok := msg.(tea.KeyPressMsg); ok && m.panicKey != "" && k.String() == m.panicKey {
		panic("the test's panic key")
	}
	return m.update(msg)
}

// View draws the dashboard; a panic drawing it ends the session as one in
// Update does.
func (m *classModel) View() (v tea.View) {
	if !m.failed {
		defer func() {
			if r := recover(); r != nil {
				m.fail(r)
				v = tea.NewView("")
			}
		}()
		return m.Model.View()
	}
	return tea.NewView("clusterlab: " + m.v.l.T("serve.panicked") + "\n")
}

// fail logs a panic in one line and ends the session.
func (m *classModel) fail(r any) tea.Cmd {
	m.failed = true
	m.log.Printf("session %s: the dashboard failed (%v) and was closed; the other sessions go on", m.who, r)
	return tea.Quit
}

func (m *classModel) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	now := time.Now()
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseMsg:
		m.last = now
	}
	// The dashboard's own tick brings a message at least once a second: the idle
	// time is checked then, with no timer of its own to outlive the session.
	idle := now.Sub(m.last)
	switch {
	case m.v.teacher.Load() && idle >= m.idleTeacher:
		m.v.teacher.Store(false) // demoted: a forgotten teacher's terminal acts no more
	case m.v.own && idle >= m.idleSpectator:
		return m, tea.Quit // a student's lab is closed, and its recording kept
	case !m.v.own && !m.v.teacher.Load() && m.v.name == "" && idle >= m.idleSpectator:
		return m, tea.Quit
	}
	_, cmd := m.Model.Update(msg)
	return m, cmd
}
