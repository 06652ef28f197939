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
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

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
	// Lang is the language of a session whose client sends no LANG.
	Lang lang.Lang

	// The limits; zero values take the defaults.
	MaxSessions   int
	Rate          float64
	Burst         int
	IdleSpectator time.Duration
	IdleTeacher   time.Duration
	MaxSession    time.Duration
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
	teachers, err := readTeachers(o.Teachers)
	if err != nil {
		return nil, err
	}
	live, err := session.NewLive(o.Scenario, o.Config, session.LiveOptions{Record: o.Record, Force: o.Force, Speed: o.Speed})
	if err != nil {
		return nil, err
	}
	s := &Server{o: o, live: live, teachers: teachers, hostKey: signer, limiter: newLimiter(o.Rate, o.Burst)}
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
		live.Close()
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

// Live is the shared world.
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
		err = s.live.CloseFor(reason)
	})
	return err
}

// publicKey lets any key watch, and only the teachers' keys in as TeacherUser.
// Passwords and keyboard-interactive logins have no handler: they are refused.
func (s *Server) publicKey(ctx ssh.Context, key ssh.PublicKey) bool {
	if ctx.User() == TeacherUser {
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
		l := sessionLang(sess, s.o.Lang)
		_, _, pty := sess.Pty()
		switch {
		case len(sess.Command()) > 0 || sess.Subsystem() != "":
			wish.Fatalln(sess, l.T("serve.nocommand"))
			return
		case !pty:
			wish.Fatalln(sess, l.T("serve.nopty"))
			return
		case sess.User() == TeacherUser:
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
		next(sess)
	}
}

// program makes a session's dashboard over the shared world.
func (s *Server) program(sess ssh.Session) *tea.Program {
	l := sessionLang(sess, s.o.Lang)
	v := &viewer{live: s.live, l: l}
	fps := SpectatorFPS
	if name, ok := s.teacherOf(sess.PublicKey()); ok && sess.User() == TeacherUser {
		v.name = name
		v.teacher.Store(true)
		fps = 0
	}
	seed := s.o.Config.Seed
	// Steady: a viewer learns of another's action on its tick, which must not
	// slow to a second while the world is idle.
	m := &classModel{Model: tui.New(v, tui.Options{Title: s.o.Scenario.Name, Seed: &seed, Lang: l, FPS: fps, Steady: true}),
		v: v, idleSpectator: s.o.IdleSpectator, idleTeacher: s.o.IdleTeacher, last: time.Now()}
	opts := append(bubbletea.MakeOptions(sess), tea.WithFPS(max(fps, SpectatorFPS)), tea.WithoutSignalHandler())
	return tea.NewProgram(m, opts...)
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
// time: keys, not the wire (a live dashboard writes all the time).
type classModel struct {
	*tui.Model
	v                          *viewer
	idleSpectator, idleTeacher time.Duration
	last                       time.Time
}

func (m *classModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
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
	case !m.v.teacher.Load() && m.v.name == "" && idle >= m.idleSpectator:
		return m, tea.Quit
	}
	_, cmd := m.Model.Update(msg)
	return m, cmd
}
