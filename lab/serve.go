package lab

import (
	"errors"
	"fmt"
	"net"
	"os"

	"github.com/clusterlab/clusterlab/netsim/trace"
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
	Teachers string   `required:"" help:"${help_serve_teachers}" placeholder:"FILE"`
	Record   string   `help:"${help_run_record}" placeholder:"FILE"`
	Force    bool     `help:"${help_force}"`
	Speed    *float64 `help:"${help_run_speed}" placeholder:"X"`
}

func (c *serveCmd) Run() error {
	src := c.source()
	if src.Preset == "" && src.File == "" {
		src.Preset = defaultPreset
	}
	s, cfg, err := session.Open(src)
	if err != nil {
		return badInput(err)
	}
	warnScenario(os.Stderr, s)
	if err := c.stormFlags.apply(&cfg); err != nil {
		return badInput(err)
	}
	if c.Record != "" {
		if err := session.CheckOutput(c.Record, c.Force, src.File); err != nil {
			return badInput(fmt.Errorf("--record: %w", err))
		}
	}
	speed := tui.OpeningSpeed(string(cfg.Spec.Family))
	if c.Speed != nil {
		speed = *c.Speed
	}
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return badInput(fmt.Errorf("--listen: %w", err))
	}
	srv, err := serve.New(serve.Options{HostKey: c.HostKey, Teachers: c.Teachers, Scenario: s, Config: cfg,
		Record: c.Record, Force: c.Force, Speed: speed, Lang: ui})
	if err != nil {
		ln.Close()
		return badInput(err)
	}
	fmt.Println(ui.F("serve.started", s.Name, ln.Addr(), srv.Fingerprint()))
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
