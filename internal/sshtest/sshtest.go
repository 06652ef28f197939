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

// Screen is a PTY session's output so far, and its keyboard.
type Screen struct {
	Sess *gossh.Session
	In   io.Writer
	// Ends receives the session's end (its exit error, nil for 0).
	Ends chan error
	mu   sync.Mutex
	out  bytes.Buffer
}

func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(p)
}

// Text is everything the session printed so far.
func (s *Screen) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// Wait waits until the output holds want, or d passes.
func (s *Screen) Wait(want string, d time.Duration) bool {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		if strings.Contains(s.Text(), want) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
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
	s := &Screen{Sess: sess, Ends: make(chan error, 1)}
	sess.Stdout, sess.Stderr = s, s
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.In = in
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	go func() { s.Ends <- sess.Wait() }()
	return s
}
