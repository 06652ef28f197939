package purity

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// Check loads the packages patterns names, from the module of dir, with the go
// command, and runs the pass over them (their tests left out). The findings come
// in file and line order. The error is a package that does not load or type-check.
func Check(dir string, patterns ...string) ([]Finding, error) {
	cfg := &packages.Config{
		Dir:  dir,
		Mode: packages.LoadSyntax | packages.NeedModule,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %v", strings.Join(patterns, " "), err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("found no package for %s in %s", strings.Join(patterns, " "), dir)
	}
	g, err := checker.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, act := range g.Roots {
		if act.Err != nil {
			return nil, act.Err
		}
		out = append(out, act.Result.([]Finding)...)
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Pos.Filename, b.Pos.Filename), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column))
	})
	return out, nil
}
