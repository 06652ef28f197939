package lab

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSweepCommand runs the real binary's sweep command as a user would: bad
// flags and paths, one run's recording, the report's reproduce line, signals and
// a disk that fills.
func TestSweepCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	dir, bin := buildBinary(t)
	run := func(t *testing.T, args ...string) (string, string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return stdout.String(), stderr.String(), ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), 0
	}
	writeFile(t, filepath.Join(dir, "afile"), "x")
	writeFile(t, filepath.Join(dir, "cr.toml"), "base = \"ring\"\nseeds = 2\n[set]\n\"params.initiators\" = [\"n1\"]\n[axes]\nnodes = [4, 8, 16, 32]\n")

	t.Run("bad-input", func(t *testing.T) {
		for _, c := range []struct {
			args []string
			want string
		}{
			{[]string{"sweep", "--preset", "ring-complexity", "--jobs", "0"}, "clusterlab: --jobs: found 0, expected 1 to 256 runs at once"},
			{[]string{"sweep", "--preset", "ring-complexity", "--jobs=-1"}, "clusterlab: --jobs: found -1, expected 1 to 256 runs at once"},
			{[]string{"sweep", "--preset", "ring-complexity", "--jobs", "10000"}, "clusterlab: --jobs: found 10000, expected 1 to 256 runs at once"},
			{[]string{"sweep", "--preset", "ring-complexity", "--jobs", "1e9"}, `clusterlab: --jobs: found "1e9", expected a whole number`},
			{[]string{"sweep", "--preset", "ring-complexity", "--out", "afile"}, "clusterlab: --out: afile is a file; expected a folder for the outputs"},
			{[]string{"sweep", "missing.toml"}, "clusterlab: missing.toml: found no such file, expected a sweep file (TOML)"},
			{[]string{"sweep", "/dev/zero"}, "clusterlab: /dev/zero: found a device, pipe or directory, expected a sweep file (TOML)"},
			{[]string{"sweep", "merge", "missing", "--out", "m"}, "clusterlab: missing: found no folder, expected a shard's output folder"},
			{[]string{"sweep", "cr.toml", "--run", "3"}, "clusterlab: --run, --cell, --seed: expected --record FILE as well"},
		} {
			_, stderr, code := run(t, c.args...)
			if code != 2 || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "<") {
				t.Errorf("clusterlab %s: exit %d, %q; want 2 and one line %q…", strings.Join(c.args, " "), code, stderr, c.want)
			}
		}
	})

	t.Run("bad-input-lang", func(t *testing.T) {
		// The same refusals in Portuguese and Spanish: one line, exit 2, and no
		// English left but what the user typed (paths, quotes, keys, flags).
		writeFile(t, filepath.Join(dir, "e1.toml"), "name = \"a b\"\nbase = \"ring\"\n")
		writeFile(t, filepath.Join(dir, "e2.toml"), "base = \"ring\"\n[axes]\nnodes = 4\n")
		writeFile(t, filepath.Join(dir, "e3.toml"), "base = \"ring\"\n[axes]\nnodes = [8]\n[[plot]]\nx = \"nodes\"\ny = \"foo\"\n")
		writeFile(t, filepath.Join(dir, "e4.toml"), "base = \"ring\"\nfoo = 1\n")
		writeFile(t, filepath.Join(dir, "e5.toml"), "base = \"ring\"\nbase = \"ring\"\n")
		writeFile(t, filepath.Join(dir, "e6.toml"), "\uFEFFbase = \"ring\"\n")
		english := regexp.MustCompile(`\b(found|expected|such as|one of|or|and|with|no such|folder|file|sweep|runs?|shards?|seeds?|cells?|axis|axes|values?|metrics?|keys?|majority|coordinator|dots|inch|at (least|most)|new|plain|name|list|see|value)\b`)
		userParts := regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`|\\b[a-z_][a-z_.0-9]* =|--[a-z-]+|[^ ]+\\.(toml|csv|jsonl)|sweep-NAME|[A-Z]{2,}")
		choices := regexp.MustCompile(`: [^ ]+(, [^ ]+)+\n$`)
		for _, args := range [][]string{{"sweep", "missing.toml"}, {"sweep", "/dev/zero"}, {"sweep", "--preset", "ring-complexity", "--jobs", "0"},
			{"sweep", "--preset", "nope"}, {"sweep", "--preset", "ring-complexity", "--out", "afile"}, {"sweep", "merge", "missing", "--out", "m"},
			{"sweep", "--preset", "ring-complexity", "--run", "1"}, {"sweep", "--preset", "ring-complexity", "--run", "100000", "--record", "x.jsonl"},
			{"sweep", "--preset", "ring-complexity", "--cell", "nodes=3", "--seed", "1", "--record", "x.jsonl"},
			{"sweep", "--preset", "ring-complexity", "--cell", "order=increasing", "--seed", "1", "--record", "x.jsonl"},
			{"calc", "pv", "--n", "3", "--m", "1", "--p", "0.1"}, {"calc", "pv", "--n", "0", "--m", "1", "--p", "0.1"},
			{"sweep", "--preset", "ring-complexity", "--dpi", "5"}, {"sweep"}, {"sweep", "e1.toml"}, {"sweep", "e2.toml"}, {"sweep", "e3.toml"}, {"sweep", "e4.toml"}, {"sweep", "e5.toml"}, {"sweep", "e6.toml"}} {
			_, en, _ := run(t, args...)
			for _, l := range []string{"pt", "es"} {
				_, stderr, code := run(t, append([]string{"--lang", l}, args...)...)
				// The lists of choices after the last colon are the user's words.
				msg := stderr
				msg = choices.ReplaceAllString(msg, "")
				if code != 2 || strings.Count(stderr, "\n") != 1 || stderr == en {
					t.Errorf("--lang %s %s: exit %d, %q; want 2 and one translated line", l, strings.Join(args, " "), code, stderr)
				} else if m := english.FindString(userParts.ReplaceAllString(strings.TrimPrefix(msg, "clusterlab: "), "")); m != "" {
					t.Errorf("--lang %s %s: %q keeps the English %q", l, strings.Join(args, " "), stderr, m)
				}
			}
		}
	})

	t.Run("record-one-run", func(t *testing.T) {
		_, stderr, code := run(t, "sweep", "cr.toml", "--out", "cr")
		if code != 1 || !strings.Contains(stderr, "FAIL nodes=32 seed=1: until 3s ended the run before the election finished") {
			t.Fatalf("the Chang-Roberts sweep cut off at N = 32: exit %d, %s", code, stderr)
		}
		rows := readRows(t, filepath.Join(dir, "cr", "results.csv"))
		for _, c := range []struct {
			args []string
			row  int
		}{{[]string{"--run", "7"}, 7}, {[]string{"--cell", "nodes=8", "--seed", "1"}, 2}, {[]string{"--cell", "1", "--seed", "2"}, 3}} {
			rec := filepath.Join(dir, "run.jsonl")
			os.Remove(rec)
			out, stderr, code := run(t, append([]string{"sweep", "cr.toml", "--record", rec}, c.args...)...)
			want := rows[c.row]["trace_hash"]
			if code != 0 || want == "" || !strings.HasSuffix(strings.TrimSpace(out), "hash "+want) {
				t.Errorf("%v: exit %d, %q %s; want the hash of row %d, %s", c.args, code, out, stderr, c.row, want)
			}
			v, err := exec.Command(bin, "verify", rec).CombinedOutput()
			if err != nil || !strings.HasPrefix(string(v), "verified: ") || !strings.Contains(string(v), want) {
				t.Errorf("%v: verify: %v %s", c.args, err, v)
			}
		}
	})

	t.Run("lang", func(t *testing.T) {
		out, _, code := run(t, "--lang", "pt", "sweeps")
		if code != 0 || !strings.Contains(out, "ring-complexity    Chang-Roberts (Chang & Roberts 1979; notas do curso 001") {
			t.Errorf("sweeps --lang pt: exit %d:\n%s", code, out)
		}
		for _, c := range []struct {
			lang, dir string
			want      []string // on stdout and stderr, and in report.md
		}{
			{"pt", "cr-pt", []string{"passou  concluiu", "⚠ until 3s encerrou 2 execuções antes que a eleição terminasse: aumente until",
				"FAIL nodes=32 seed=1: until 3s encerrou a execução antes que a eleição terminasse", "2 de 8 execuções falharam",
				"# Varredura cr", "## Execuções que falharam", "| eixo | valores |"}},
			{"es", "cr-es", []string{"pasó  terminó", "⚠ until 3s terminó 2 ejecuciones antes de que la elección terminara: aumente until",
				"FAIL nodes=32 seed=2: until 3s terminó la ejecución antes de que la elección terminara", "2 de 8 ejecuciones fallaron",
				"# Barrido cr", "## Ejecuciones que fallaron", "| eje | valores |"}},
		} {
			stdout, stderr, code := run(t, "--lang", c.lang, "sweep", "cr.toml", "--out", c.dir)
			report, _ := os.ReadFile(filepath.Join(dir, c.dir, "report.md"))
			all := stdout + stderr + string(report)
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("--lang %s (exit %d): no %q in:\n%s", c.lang, code, w, all)
				}
			}
		}
	})

	t.Run("report-canonical", func(t *testing.T) {
		base := []string{"sweep", "--preset", "ring-complexity", "--seeds", "2"}
		for _, a := range [][]string{{"--jobs", "1", "--out", "j1"}, {"--jobs", "2", "--out", "j2"},
			{"--shard", "1/2", "--out", "s1"}, {"--shard", "2/2", "--out", "s2", "--jobs", "1"}} {
			if _, stderr, code := run(t, append(base, a...)...); code != 0 {
				t.Fatalf("%v: exit %d: %s", a, code, stderr)
			}
		}
		if _, stderr, code := run(t, "sweep", "merge", "s2", "s1", "--out", "merged"); code != 0 {
			t.Fatalf("merge: exit %d: %s", code, stderr)
		}
		one, _ := os.ReadFile(filepath.Join(dir, "j1", "report.md"))
		if !bytes.Contains(one, []byte("```sh\nclusterlab sweep --preset ring-complexity --seeds 2\n```")) {
			t.Errorf("report.md's reproduce line is not the canonical command:\n%s", one[:min(len(one), 800)])
		}
		for _, d := range []string{"j2", "merged"} {
			other, _ := os.ReadFile(filepath.Join(dir, d, "report.md"))
			if !bytes.Equal(one, other) {
				t.Errorf("%s/report.md differs from j1's", d)
			}
		}
	})

	t.Run("signals", func(t *testing.T) {
		// Rings of 20,000 that take seconds each: a signal comes while runs go on.
		writeFile(t, filepath.Join(dir, "slow.toml"), "base = \"ring\"\nseeds = 50\n[set]\n\"params.initiators\" = [\"n1\"]\nuntil = \"60s\"\n[axes]\nnodes = [20000]\n")
		for _, c := range []struct {
			sig  syscall.Signal
			code int
			name string
		}{{syscall.SIGINT, 130, "SIGINT"}, {syscall.SIGTERM, 143, "SIGTERM"}, {syscall.SIGHUP, 129, "SIGHUP"}} {
			out := "slow-" + c.name
			cmd := exec.Command(bin, "sweep", "slow.toml", "--jobs", "1", "--out", out)
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(1500 * time.Millisecond)
			cmd.Process.Signal(c.sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != c.code {
				t.Fatalf("%s: %v, want exit %d; %s", c.name, err, c.code, stderr.String())
			}
			if want := "clusterlab: interrupted by " + c.name + "; " + out + "/ holds the runs that ended\n"; stderr.String() != want {
				t.Errorf("%s: stderr %q, want %q", c.name, stderr.String(), want)
			}
			rows := readRows(t, filepath.Join(dir, out, "results.csv"))
			report, _ := os.ReadFile(filepath.Join(dir, out, "report.md"))
			if len(rows) == 0 || len(rows) == 50 || !strings.Contains(string(report), "**Stopped by "+c.name+"**") ||
				!strings.Contains(stdout.String(), " of the 50 runs ended; their outputs are in "+out+"/") {
				t.Errorf("%s: %d rows kept, stdout %q; want the runs that ended, said so", c.name, len(rows), stdout.String())
			}
			// The folder is not left locked, and holds no temporary folder.
			if left, _ := filepath.Glob(filepath.Join(dir, out, ".*")); len(left) > 0 {
				t.Errorf("%s: left %v", c.name, left)
			}
		}
	})

	t.Run("signal-while-checking", func(t *testing.T) {
		// 100,000 cells, each built once before any run starts (seconds): a
		// signal meanwhile stops the sweep at once, with nothing written, and
		// stderr, not a terminal, holds no progress line.
		writeBigGrid(t, filepath.Join(dir, "big.toml"))
		cmd := exec.Command(bin, "sweep", "big.toml", "--out", "big")
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 || stderr.String() != "clusterlab: interrupted by SIGINT\n" || stdout.Len() != 0 {
			t.Errorf("SIGINT while the cells are checked: %v, stdout %q, stderr %q; want exit 130 and one line", err, stdout.String(), stderr.String())
		}
		if _, err := os.Stat(filepath.Join(dir, "big")); err == nil {
			t.Error("a sweep stopped before any run wrote its folder")
		}
	})

	t.Run("calc-lang", func(t *testing.T) {
		for lang, want := range map[string]string{
			"en": "(course notes 003, \"Quórum\")\nn = 32, m = 24, P = 0.0001, k from 16\nP_v = 7.349174e-59",
			"pt": "(notas do curso 003, \"Quórum\")\nn = 32, m = 24, P = 0.0001, k a partir de 16\nP_v = 7.349174e-59",
			"es": "(apuntes del curso 003, \"Quórum\")\nn = 32, m = 24, P = 0.0001, k desde 16\nP_v = 7.349174e-59",
		} {
			stdout, stderr, code := run(t, "--lang", lang, "calc", "pv", "--n", "32", "--m", "24", "--p", "1e-4")
			if code != 0 || !strings.Contains(stdout, want) {
				t.Errorf("--lang %s calc pv: exit %d, %q %q; want %q", lang, code, stdout, stderr, want)
			}
		}
	})

	t.Run("stdout-full", func(t *testing.T) {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Skip("no /dev/full here: a full standard output cannot be made")
		}
		defer full.Close()
		// What these commands print is lost: they say so and exit 3.
		for _, args := range [][]string{{"sweeps"}, {"calc", "pv", "--n", "3", "--m", "2", "--p", "0.1"},
			{"sweep", "--preset", "ring-complexity", "--seeds", "1", "--out", "to-full"}} {
			cmd := exec.Command(bin, args...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = full, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 3 || stderr.String() != "clusterlab: write stdout: no space left on device\n" {
				t.Errorf("clusterlab %s > /dev/full: %v, %q; want exit 3 and one line", strings.Join(args, " "), err, stderr.String())
			}
		}
	})

	t.Run("disk-full", func(t *testing.T) {
		sh, err := exec.LookPath("sh")
		if err != nil {
			t.Skip("no sh to set a file size limit with ulimit")
		}
		// A file size limit of 10 kB: writing results.csv fails as on a full disk.
		cmd := exec.Command(sh, "-c", `ulimit -f 20 && exec "$0" sweep --preset ring-complexity --out full`, bin)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.HasPrefix(string(out), "clusterlab: write full/") {
			t.Errorf("a sweep whose disk fills: %v, %q; want exit 3 naming the file", err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "full", "results.csv")); err == nil {
			t.Error("a sweep that could not write its outputs left a results.csv")
		}
	})
}

// readRows reads a CSV file as rows keyed by its header.
func readRows(t *testing.T, path string) []map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, r := range recs[1:] {
		row := map[string]string{}
		for i, v := range r {
			row[recs[0][i]] = v
		}
		out = append(out, row)
	}
	return out
}

// writeBigGrid writes a sweep file of 100,000 valid cells (10 values on each of 5
// axes): seconds of checking before any run.
func writeBigGrid(t *testing.T, path string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("base = \"ring\"\n[set]\n\"params.initiators\" = [\"n1\"]\n[axes]\n")
	for _, axis := range []string{"nodes", "\"network.loss\"", "\"network.dup\"", "\"params.retry\"", "until"} {
		var vals []string
		for i := range 10 {
			vals = append(vals, map[string]string{"nodes": fmt.Sprint(4 + i), "\"network.loss\"": fmt.Sprintf("0.00%d", i),
				"\"network.dup\"": fmt.Sprintf("0.00%d", i), "\"params.retry\"": fmt.Sprintf("\"%dms\"", 10+i), "until": fmt.Sprintf("\"%ds\"", 3+i)}[axis])
		}
		fmt.Fprintf(&b, "%s = [%s]\n", axis, strings.Join(vals, ", "))
	}
	writeFile(t, path, b.String())
}
