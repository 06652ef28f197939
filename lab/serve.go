package lab

import (
	"errors"
	"fmt"
	"net"
	"os"

	"github.com/clusterlab/clusterlab/internal/membudget"
	"github.com/clusterlab/clusterlab/netsim"
	"github.com/clusterlab/clusterlab/netsim/trace"
	"github.com/clusterlab/clusterlab/presets"
	"github.com/clusterlab/clusterlab/serve"
	"github.com/clusterlab/clusterlab/session"
	"github.com/clusterlab/clusterlab/tui"
)

// The class's server: clusterlab serve. See docs/teaching.md.
type serveCmd struct {
	scenarioFlags
	stormFlags
	Listen   string   `help:"${help_serve_listen}" default:"127.0.0.1:2222" placeholder:"ADDR"`
	HostKey  string   `name:"host-key" required:"" help:"${help_serve_hostkey}" placeholder:"FILE"`
	Teachers string   `help:"${help_serve_teachers}" placeholder:"FILE"`
	Record   string   `help:"${help_run_record}" placeholder:"FILE"`
	Force    bool     `help:"${help_force}"`
	Speed    *float64 `help:"${help_run_speed}" placeholder:"X"`
	Lab      bool     `help:"${help_serve_lab}"`
	LabDir   string   `name:"lab-dir" help:"${help_serve_labdir}" default:"lab-recordings" placeholder:"DIR"`
	LabNodes int      `name:"lab-nodes" help:"${help_serve_labnodes}" default:"32" placeholder:"N"`
	LabSpeed float64  `name:"lab-speed" help:"${help_serve_labspeed}" default:"50" placeholder:"X"`
	LabMem   string   `name:"lab-memory" help:"${help_serve_labmem}" default:"1GB" placeholder:"SIZE"`
}

func (c *serveCmd) Run() error {
	src := c.source()
	lab, err := c.lab()
	if err != nil {
		return badInput(err)
	}
	var s *presets.Scenario
	var cfg netsim.Config
	var speed float64
	if lab == nil || src.Preset != "" || src.File != "" {
		if src.Preset == "" && src.File == "" {
			src.Preset = defaultPreset
		}
		if s, cfg, speed, err = liveWorld(src, c.stormFlags, c.Record, c.Force, c.Speed); err != nil {
			return err
		}
		if lab != nil && c.Speed == nil {
			speed = min(speed, lab.MaxSpeed)
		}
	}
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return badInput(fmt.Errorf("--listen: %w", err))
	}
	srv, err := serve.New(serve.Options{HostKey: c.HostKey, Teachers: c.Teachers, Scenario: s, Config: cfg,
		Record: c.Record, Force: c.Force, Speed: speed, Lang: ui, Lab: lab})
	if err != nil {
		ln.Close()
		return badInput(err)
	}
	switch {
	case lab == nil:
		fmt.Println(ui.F("serve.started", s.Name, ln.Addr(), srv.Fingerprint()))
	case s != nil:
		fmt.Println(ui.F("serve.startedlab", s.Name, ln.Addr(), srv.Fingerprint()))
	default:
		fmt.Println(ui.F("serve.startedlab", ui.F("serve.lab.menuof", srv.MenuSize()), ln.Addr(), srv.Fingerprint()))
	}
	sig := catchSignals()
	defer sig.stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case <-sig.ctx.Done():
		cerr := srv.CloseFor(trace.EndInterrupted)
		<-served
		kept := ""
		if c.Record != "" && cerr == nil {
			kept = fmt.Sprintf("%s ends with reason %q", c.Record, trace.EndInterrupted)
		}
		return sig.interruptedErr(kept)
	case err := <-served:
		cerr := srv.Close()
		return errors.Join(err, cerr)
	}
}

// lab is --lab's caps, checked, or nil without --lab. A lab needs no teachers
// (each student acts on their own world) and records each world itself.
func (c *serveCmd) lab() (*serve.Lab, error) {
	if !c.Lab {
		if c.Teachers == "" {
			return nil, errors.New("--teachers: expected an authorized_keys file of the teachers' public keys (or --lab, where each student has a world of their own)")
		}
		return nil, nil
	}
	if c.Record != "" {
		return nil, errors.New("--record: records the one shared world; with --lab each student's world is recorded into --lab-dir")
	}
	if c.LabNodes < 1 {
		return nil, fmt.Errorf("--lab-nodes: found %d, expected at least 1", c.LabNodes)
	}
	if c.LabSpeed < 0.01 || c.LabSpeed > 1000 {
		return nil, fmt.Errorf("--lab-speed: found %v, expected 0.01 to 1000", c.LabSpeed)
	}
	mem, err := membudget.Parse(c.LabMem)
	if err != nil {
		return nil, fmt.Errorf("--lab-memory: %v", err)
	}
	return &serve.Lab{Dir: c.LabDir, MaxNodes: c.LabNodes, MaxSpeed: c.LabSpeed, Memory: mem}, nil
}

// liveWorld opens the scenario of a world run live (run, serve): the speed
// checked, the event bound applied, the recording's file checked before anything
// starts. The speed is the flag's, or the family's opening speed.
func liveWorld(src session.Source, storm stormFlags, record string, force bool, speedFlag *float64) (*presets.Scenario, netsim.Config, float64, error) {
	if speedFlag != nil && (*speedFlag < 0 || (*speedFlag > 0 && (*speedFlag < 0.01 || *speedFlag > 1000))) {
		return nil, netsim.Config{}, 0, badInput(fmt.Errorf("--speed: found %v, expected 0 (as fast as possible) or 0.01 to 1000", *speedFlag))
	}
	s, cfg, err := session.Open(src)
	if err != nil {
		return nil, cfg, 0, badInput(err)
	}
	warnScenario(os.Stderr, s)
	if err := storm.apply(&cfg); err != nil {
		return nil, cfg, 0, badInput(err)
	}
	if record != "" {
		if err := session.CheckRecording(record, force, src.File); err != nil {
			return nil, cfg, 0, badInput(fmt.Errorf("--record: %w", err))
		}
	}
	speed := tui.OpeningSpeed(string(cfg.Spec.Family))
	if speedFlag != nil {
		speed = *speedFlag
	}
	return s, cfg, speed, nil
}
