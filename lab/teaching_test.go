package lab

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/clusterlab/clusterlab/internal/sshtest"
	"github.com/clusterlab/clusterlab/serve"
)

// TestTeachingPage runs docs/teaching.md as a teacher would: the key made with
// ssh-keygen, the teachers' file, the server started with the page's command (on
// a loopback port of the system's choosing) and its start line compared with the
// page's; the ssh lines as a Go SSH client with a PTY (the student watches, the
// teacher crashes n2 from the : line and the student sees it); Ctrl-C; then the
// page's verify, replay (parsed) and grade, on the class's recording.
func TestTeachingPage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary, serves a class and runs docs/teaching.md's commands; skipped in -short mode")
	}
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Skip("ssh-keygen is not installed (Debian's openssh-client; .ci/run installs it): docs/teaching.md makes the teacher's key with it")
	}
	page := "../docs/teaching.md"
	dir, bin := buildBinary(t)
	blocks := docBlocks(t, page)
	page, _ = filepath.Abs(page)
	t.Chdir(dir) // the parser checks files from the working folder
	var srv *exec.Cmd
	var addr string
	var host gossh.PublicKey
	var started string
	last := ""
	for i, b := range blocks {
		switch b.lang {
		case "text":
			if i > 0 && blocks[i-1].lang == "sh" && last != "" {
				fp := regexp.MustCompile(`SHA256:[A-Za-z0-9+/]+`)
				got := strings.ReplaceAll(fp.ReplaceAllString(last, "SHA256:…"), addr, "127.0.0.1:2222")
				if want := strings.TrimSpace(b.text); got != want {
					t.Errorf("%s:%d: the page shows\n%s\nthe server prints\n%s", page, b.line, want, got)
				}
			}
		case "sh":
			for _, line := range strings.Split(b.text, "\n") {
				code, _, _ := strings.Cut(line, "#")
				f := strings.Fields(code)
				if len(f) == 0 {
					continue
				}
				switch f[0] {
				case "ssh-keygen", "cp":
					if out, err := exec.Command("sh", "-c", "cd "+dir+" && "+code).CombinedOutput(); err != nil {
						t.Fatalf("%s: %v\n%s", code, err, out)
					}
				case "ssh":
					if srv == nil {
						t.Fatalf("%s: %s before the server starts", page, code)
					}
					watch(t, dir, addr, host, f)
				case "clusterlab":
					args := f[1:]
					if args[0] != "serve" && srv != nil {
						stopServer(t, srv) // Ctrl-C: the class ends, its recording kept
						srv = nil
					}
					if args[0] == "grade" {
						// The folder of recordings handed in: the class's.
						os.MkdirAll(filepath.Join(dir, args[1]), 0o755)
						data, _ := os.ReadFile(filepath.Join(dir, "class.jsonl"))
						os.WriteFile(filepath.Join(dir, args[1], "class.jsonl"), data, 0o644)
					}
					if _, err := cliParser().Parse(args); err != nil {
						t.Fatalf("%s: clusterlab %s: %v", page, strings.Join(args, " "), err)
					}
					switch args[0] {
					case "serve":
						srv, addr, started = startServer(t, dir, bin, args)
						last = started
						key, err := serve.HostKey(filepath.Join(dir, "host_key"))
						if err != nil {
							t.Fatal(err)
						}
						host = key.PublicKey()
					case "replay":
						// The dashboard: docs/dashboard.md's tests open it in tmux.
					default:
						if out, code := runCLI(t, dir, bin, args...); code != 0 {
							t.Errorf("%s: clusterlab %s exits %d:\n%s", page, strings.Join(args, " "), code, out)
						}
					}
				}
			}
		}
	}
	if srv != nil {
		stopServer(t, srv)
	}
}

// startServer starts the page's serve command on a loopback port of the system's
// choosing, and returns it, its address and its start line.
func startServer(t *testing.T, dir, bin string, args []string) (*exec.Cmd, string, string) {
	t.Helper()
	cmd := exec.Command(bin, append(args, "--listen", "127.0.0.1:0")...)
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed no start line: %v", err)
	}
	m := regexp.MustCompile(`on (127\.0\.0\.1:\d+);`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("serve's start line names no address: %q", line)
	}
	return cmd, m[1], strings.TrimSpace(line)
}

// stopServer ends the class with Ctrl-C: exit 130, the recording kept.
func stopServer(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
			t.Errorf("serve on SIGINT: %v, expected exit 130", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve does not end on SIGINT")
	}
}

// watch does what an ssh line of the page does: a student watches; a teacher
// (teacher@, with the key made on the page) crashes n2 from the : line, which a
// student's screen then shows.
func watch(t *testing.T, dir, addr string, host gossh.PublicKey, f []string) {
	t.Helper()
	user := "student"
	auth := gossh.PublicKeys(sshtest.NewKey(t))
	if strings.HasPrefix(f[len(f)-1], serve.TeacherUser+"@") {
		data, err := os.ReadFile(filepath.Join(dir, "ana"))
		if err != nil {
			t.Fatal(err)
		}
		key, err := gossh.ParsePrivateKey(data)
		if err != nil {
			t.Fatal(err)
		}
		user, auth = serve.TeacherUser, gossh.PublicKeys(key)
	}
	cl, err := sshtest.Dial(addr, user, host, auth)
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(f, " "), err)
	}
	s := sshtest.Open(t, cl, nil)
	if !s.Wait("clusterlab", 20*time.Second) {
		t.Fatalf("%s: no dashboard:\n%q", strings.Join(f, " "), s.Text())
	}
	if user == serve.TeacherUser {
		sc, err := sshtest.Dial(addr, "student", host, gossh.PublicKeys(sshtest.NewKey(t)))
		if err != nil {
			t.Fatal(err)
		}
		student := sshtest.Open(t, sc, nil)
		student.Wait("clusterlab", 20*time.Second)
		s.In.Write([]byte(":crash n2\r"))
		if !student.Wait("teacher:ana crash n2", 10*time.Second) {
			t.Errorf("the teacher's crash n2 does not show on a student's screen:\n%q", student.Text())
		}
		sc.Close()
	} else {
		s.In.Write([]byte("c"))
		if !s.Wait("you are watching", 10*time.Second) {
			t.Errorf("a student's c is not refused:\n%q", s.Text())
		}
	}
	cl.Close()
}
