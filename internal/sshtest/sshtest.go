// Package sshtest is an SSH client for tests of clusterlab serve: a key, a login,
// and a dashboard session with a PTY whose output is kept and searched.
package sshtest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// NewKey makes an Ed25519 key.
func NewKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Dial logs in to addr as user with auth, accepting only host as the server's key.
func Dial(addr, user string, host gossh.PublicKey, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: auth,
		HostKeyCallback: gossh.FixedHostKey(host), Timeout: 30 * time.Second})
}

// Screen is a PTY session's output so far, the screen it draws (a small
// terminal: cursor moves, erases, text; colours ignored), and its keyboard.
type Screen struct {
	Sess *gossh.Session
	In   io.Writer
	// Ends receives the session's end (its exit error, nil for 0).
	Ends chan error
	mu   sync.Mutex
	out  bytes.Buffer
	term term
}

func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.term.feed(p)
	return s.out.Write(p)
}

// Shown is the screen as drawn now, its rows joined by newlines.
func (s *Screen) Shown() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.term.String()
}

// Text is everything the session printed so far.
func (s *Screen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// Wait waits until the screen shows want, or the output holds it, or d passes.
// (A renderer that draws only what changed may write a text in pieces.) It
// searches only the output that came since it last looked: a copy of all of it,
// each time, under the lock, would hold up the session's output.
func (s *Screen) Wait(want string, d time.Duration) bool {
	end := time.Now().Add(d)
	from := -1
	for time.Now().Before(end) {
		s.mu.Lock()
		b := s.out.Bytes()
		// the screen is drawn again only when something came: fifty waiting
		// clients would otherwise take a core from the server they measure
		found := from != len(b) && (bytes.Contains(b[max(from-len(want), 0):], []byte(want)) || strings.Contains(s.term.String(), want))
		from = len(b)
		s.mu.Unlock()
		if found {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// NewScreen is a screen of 120×40 for sess's output, for a caller that sets up
// the session itself.
func NewScreen(sess *gossh.Session) *Screen {
	return &Screen{Sess: sess, Ends: make(chan error, 1), term: newTerm(40, 120)}
}

// Open opens a dashboard: a session with a 120×40 PTY, env set, and a shell.
func Open(t testing.TB, cl *gossh.Client, env map[string]string) *Screen {
	t.Helper()
	sess, err := cl.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range env {
		sess.Setenv(k, v)
	}
	s := NewScreen(sess)
	sess.Stdout, sess.Stderr = s, s
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.In = in
	if err := sess.RequestPty("xterm-256color", s.term.h, s.term.w, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() { s.Ends <- sess.Wait() }()
	return s
}
