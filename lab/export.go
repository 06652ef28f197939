package lab

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/clusterlab/clusterlab/internal/termtext"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/netsim/trace/export"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/tui"
)

type exportCmd struct {
	File   string `arg:"" help:"${help_export_file}" type:"existingfile"`
	Format string `required:"" help:"${help_export_format}" placeholder:"FORMAT"`
	From   string `help:"${help_export_from}" placeholder:"T"`
	To     string `help:"${help_export_to}" placeholder:"T"`
	Nodes  string `help:"${help_export_nodes}" placeholder:"n1,n2,…"`
	Split  bool   `help:"${help_export_split}"`
	Table  string `help:"${help_export_table}" placeholder:"TABLE"`
	Output string `short:"o" help:"${help_export_output}" placeholder:"OUT"`
	Force  bool   `help:"${help_export_force}"`
	Size   string `help:"${help_export_size}" default:"120x36"`
	FPS    int    `name:"fps" help:"${help_export_fps}" default:"10"`
	Idle   string `help:"${help_export_idle}" default:"1s"`
	View   string `help:"${help_export_view}" default:"nodes" enum:"nodes,topology,history"`
}

// Run streams the recording into the export: the file is read as often as the
// format needs (see export.Source), never held, and the output is written as it
// is made into a file that gets its name only when it is complete.
func (c *exportCmd) Run() error {
	sig := catchSignals()
	defer sig.stop()
	// An export cannot stop part-way: a signal removes its unfinished outputs and
	// exits at once.
	sig.onSignal(session.RemovePending)
	setDoing("while export read %s", c.File)
	r, closer, err := session.OpenTrace(c.File)
	if err != nil {
		return badInput(err)
	}
	closer.Close()
	h := r.Header
	// The state an export folds, and the snapshot it takes, per node: a header
	// edited to a million nodes is refused here, before anything is folded.
	if err := session.NeedFold(c.File, h, 2); err != nil {
		return resourceFailure(err)
	}
	src := export.ReaderSource(&h, func() (*trace.Reader, io.Closer, error) { return session.OpenTrace(c.File) })
	if c.FPS < 1 { // ParseOptions reads 0 as "the default"; typed on the command line it is a mistake
		return badInput(fmt.Errorf("--fps: found %d, expected frames per second from 1 to 60", c.FPS))
	}
	o, err := export.ParseOptions(&h, export.Flags{Format: c.Format, From: c.From, To: c.To, Nodes: c.Nodes, Size: c.Size, FPS: c.FPS, Idle: c.Idle, Split: c.Split, Table: c.Table, Force: c.Force})
	if err != nil {
		return badInput(err)
	}
	if _, err := tui.ReplayRenderer(0, 0, nil, c.View); err != nil {
		return badInput(fmt.Errorf("--view: %v", err))
	}
	if o.Format == "cast" {
		// The cast shows the real dashboard, replaying the recording (replay keys),
		// with the timeout bars the live session drew.
		ol, err := export.OutlineOf(src)
		if err != nil {
			return badInput(err)
		}
		o.Cast.Render, _ = tui.ReplayRenderer(ol.Events, ol.End, ol.Marks, c.View)
		o.Cast.Render = withTimers(c.File, h, ol.Events, o.Cast.Render, os.Stderr)
	}
	o.TraceName, o.Lang = c.File, ui
	if o.Split && o.Format == "mermaid" {
		if c.Output == "" {
			return badInput(errors.New("--split: expected -o FILE as well (the parts go to FILE-1.mmd, FILE-2.mmd, …)"))
		}
		return c.writeParts(src, o)
	}
	if c.Output == "" {
		// To a terminal, perhaps: the export quotes the recording (names,
		// markers), so it goes through the sanitiser.
		tw := termtext.NewWriter(stdout)
		bw := bufio.NewWriterSize(tw, 64<<10)
		if err := export.Write(bw, src, o); err != nil {
			return exportError("stdout", err)
		}
		if err := errors.Join(bw.Flush(), tw.Flush()); err != nil {
			return ioError("stdout", err)
		}
		return nil
	}
	f, err := session.CreateOutput(c.Output, c.Force, c.File)
	if err != nil {
		return badInput(fmt.Errorf("-o: %w", err))
	}
	defer f.Abort()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err := export.Write(bw, src, o); err != nil {
		return exportError(c.Output, err)
	}
	if err := bw.Flush(); err != nil {
		return ioError(c.Output, err)
	}
	if err := f.Commit(); err != nil {
		return ioError(c.Output, err)
	}
	return nil
}

// writeParts writes a diagram cut to Mermaid's size into numbered files, each
// created as its part is made; a name refused, or a refusal of the diagram,
// leaves none of them behind.
func (c *exportCmd) writeParts(src export.Source, o export.Options) error {
	p := &partFiles{path: c.Output, force: c.Force, input: c.File}
	defer p.Restart()
	n, err := export.MermaidSplit(src, o.Window, p)
	if err != nil {
		return exportError(c.Output, err)
	}
	for _, f := range p.files {
		if err := f.Commit(); err != nil {
			return ioError(f.Path(), err)
		}
	}
	if n > 1 {
		fmt.Fprintf(os.Stderr, "wrote %d diagrams: %s\n", n, strings.Join(p.names, ", "))
	}
	return nil
}

// partFiles writes the parts of a diagram to FILE-1.mmd, FILE-2.mmd, ….
type partFiles struct {
	path, input string
	force       bool
	files       []*session.Output
	names       []string
}

func (p *partFiles) Part(i int, text string) error {
	name := export.PartName(p.path, i)
	f, err := session.CreateOutput(name, p.force, p.input)
	if err != nil {
		return badInput(fmt.Errorf("-o: %w", err))
	}
	p.files, p.names = append(p.files, f), append(p.names, name)
	_, err = io.WriteString(f, text)
	return err
}

// Restart removes the parts written: they are made again (and, after Commit, it
// does nothing).
func (p *partFiles) Restart() error {
	for _, f := range p.files {
		f.Abort()
	}
	p.files, p.names = nil, nil
	return nil
}

// withTimers gives a cast's frames the timeout bars the live session drew, found by
// re-running the recording (session.FileTimers); a recording that is not what
// its scenario gives is said so in one line on warn, and drawn without them.
func withTimers(file string, h trace.Header, n int, render export.RenderFunc, warn io.Writer) export.RenderFunc {
	tm, err := session.FileTimers(file, h, n)
	if err != nil {
		fmt.Fprintf(warn, "clusterlab: %v: the cast has no timeout bars\n", err)
		return render
	}
	return func(s *trace.Snapshot, w, h int) string {
		tm.Fill(s)
		return render(s, w, h)
	}
}

// exportError exits 2 on an export refused as asked (an empty window, a diagram
// too big) and on a trace that cannot be read, 3 with the output's name when it
// could not be written (a full disk), 1 on anything else.
func exportError(out string, err error) error {
	var r *export.RefusedError
	var rd *export.ReadError
	var x *exitError
	var bad *trace.FileError
	switch {
	case errors.As(err, &r), errors.As(err, &rd), errors.As(err, &bad):
		return badInput(err)
	case errors.As(err, &x):
		return x
	case diskError(err):
		return ioError(out, err)
	}
	return err
}
