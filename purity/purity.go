// Package purity is the static pass of `clusterlab check`: an analysis
// (golang.org/x/tools/go/analysis) of an algorithm's package that refuses what a
// pure state machine must not do, because it would make a run depend on more than
// its seed and its events:
//   - reading the wall clock or sleeping (time.Now, time.Sleep, time.After, …):
//     use env.Now() and env.After;
//   - go statements, channels and locks: a process reacts to one event at a time;
//   - the global random source (math/rand's functions, crypto/rand): use
//     env.Rand();
//   - I/O (os, net, log, fmt.Print…): act through env, write with env.Logf;
//   - package-level variables written outside init: every process would share
//     them;
//   - ranging over a map when the order can reach an effect (a send, a timer, a
//     random draw, a line of the trace, stable storage), directly or through the
//     package's own functions, or fills a slice that is not sorted afterwards:
//     range over sorted keys.
//
// Each finding names its file:line and what to use instead. The pass is a guide,
// not a proof: check's determinism runs catch what it cannot see (a function
// value, an interface).
package purity

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/clusterlab/clusterlab/lang"
)

// Rules, each a kind of finding. A finding's text is the catalog's "purity.RULE"
// (package lang), filled with its Args.
const (
	RuleClock     = "clock"     // time.Now, time.Since, time.Until
	RuleSleep     = "sleep"     // time.Sleep, time.After, timers and tickers
	RuleGo        = "go"        // a go statement
	RuleChan      = "chan"      // a channel type, send, receive or select
	RuleLock      = "lock"      // sync, sync/atomic
	RuleRand      = "rand"      // the global random source
	RuleIO        = "io"        // os, net, log, fmt.Print…
	RuleGlobal    = "global"    // a package variable written outside init
	RuleMapEffect = "mapeffect" // map order reaching an effect
	RuleMapSlice  = "mapslice"  // map order filling a slice not sorted after
)

// Finding is one thing the pass refuses, at Pos.
type Finding struct {
	Pos  token.Position
	Rule string
	Args []any
}

// Text is the finding in language l, without its place.
func (f Finding) Text(l lang.Lang) string { return l.F("purity."+f.Rule, f.Args...) }

// Analyzer is the pass. Its result is the []Finding it reported, in the order of
// the files and of their positions.
var Analyzer = &analysis.Analyzer{
	Name:       "purity",
	Doc:        "refuses what a pure state machine must not do: wall clock, goroutines, channels, global random source, I/O, shared variables, map order reaching an effect",
	Run:        run,
	ResultType: reflect.TypeFor[[]Finding](),
}

// nodePath is the package of Env.
const nodePath = "github.com/clusterlab/clusterlab/node"

// effects are Env's methods whose order shows in a run.
var effects = map[string]bool{"Send": true, "Broadcast": true, "After": true, "At": true, "Cancel": true, "Store": true, "Logf": true, "Rand": true}

var (
	clockFuncs = map[string]bool{"Now": true, "Since": true, "Until": true}
	sleepFuncs = map[string]bool{"Sleep": true, "After": true, "AfterFunc": true, "Tick": true, "NewTimer": true, "NewTicker": true}
	// randMakers make a source of one's own: not the global one.
	randMakers = map[string]bool{"New": true, "NewSource": true, "NewPCG": true, "NewChaCha8": true, "NewZipf": true}
	printFuncs = map[string]bool{"Print": true, "Printf": true, "Println": true, "Fprint": true, "Fprintf": true, "Fprintln": true,
		"Scan": true, "Scanf": true, "Scanln": true, "Fscan": true, "Fscanf": true, "Fscanln": true}
	sortFuncs = map[string]bool{"sort.Slice": true, "sort.SliceStable": true, "sort.Sort": true, "sort.Stable": true, "sort.Strings": true,
		"sort.Ints": true, "sort.Float64s": true, "slices.Sort": true, "slices.SortFunc": true, "slices.SortStableFunc": true}
)

// ioPackage reports whether a package does I/O.
func ioPackage(path string) bool {
	switch path {
	case "os", "net", "syscall", "io/ioutil", "log", "log/slog", "log/syslog":
		return true
	}
	return strings.HasPrefix(path, "os/") || strings.HasPrefix(path, "net/")
}

type walker struct {
	pass     *analysis.Pass
	findings []Finding
	seen     map[string]bool // rule and line, so that one line says each thing once
	reaches  map[*types.Func]token.Pos
}

func run(pass *analysis.Pass) (any, error) {
	c := &walker{pass: pass, seen: map[string]bool{}}
	c.reaches = reachers(pass)
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if pass.Pkg.Name() == "main" && d.Name.Name == "main" && d.Recv == nil {
					continue // the program's entry (lab.Main), not the algorithm
				}
				c.body(d, d.Name.Name == "init" && d.Recv == nil)
			case *ast.GenDecl:
				c.uses(d) // package-level types and variables
			}
		}
	}
	return c.findings, nil
}

func (c *walker) report(pos token.Pos, rule string, args ...any) {
	p := c.pass.Fset.Position(pos)
	key := fmt.Sprintf("%s:%d:%s:%v", p.Filename, p.Line, rule, args)
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.findings = append(c.findings, Finding{Pos: p, Rule: rule, Args: args})
	c.pass.Reportf(pos, "%s", lang.En.F("purity."+rule, args...))
}

// uses checks every identifier under n for what it names.
func (c *walker) uses(n ast.Node) {
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.GoStmt:
			c.report(x.Go, RuleGo)
		case *ast.ChanType:
			c.report(x.Begin, RuleChan, "chan")
		case *ast.SendStmt:
			c.report(x.Arrow, RuleChan, "<-")
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				c.report(x.OpPos, RuleChan, "<-")
			}
		case *ast.SelectStmt:
			c.report(x.Select, RuleChan, "select")
		case *ast.SelectorExpr:
			c.qualified(x)
		}
		return true
	})
}

// qualified checks a pkg.Name reference.
func (c *walker) qualified(sel *ast.SelectorExpr) {
	obj := c.pass.TypesInfo.Uses[sel.Sel]
	if obj == nil || obj.Pkg() == nil {
		return
	}
	if id, ok := sel.X.(*ast.Ident); !ok || c.pass.TypesInfo.Uses[id] == nil {
		return
	} else if _, isPkg := c.pass.TypesInfo.Uses[id].(*types.PkgName); !isPkg {
		return
	}
	path, name := obj.Pkg().Path(), obj.Name()
	full := obj.Pkg().Name() + "." + name
	_, isFunc := obj.(*types.Func)
	switch {
	case path == "time" && isFunc && clockFuncs[name]:
		c.report(sel.Pos(), RuleClock, full)
	case path == "time" && isFunc && sleepFuncs[name]:
		c.report(sel.Pos(), RuleSleep, full)
	case (path == "math/rand" || path == "math/rand/v2") && isFunc && !randMakers[name]:
		c.report(sel.Pos(), RuleRand, full)
	case path == "crypto/rand":
		c.report(sel.Pos(), RuleRand, full)
	case path == "sync" || path == "sync/atomic":
		c.report(sel.Pos(), RuleLock, full)
	case ioPackage(path) || (path == "fmt" && printFuncs[name]):
		c.report(sel.Pos(), RuleIO, full)
	}
}

// body checks a function: what it uses, the package variables it writes, and
// its ranges over maps.
func (c *walker) body(fn *ast.FuncDecl, isInit bool) {
	c.uses(fn)
	if fn.Body == nil {
		return
	}
	ast.Inspect(fn.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.AssignStmt:
			if !isInit && x.Tok != token.DEFINE {
				for _, l := range x.Lhs {
					c.global(l)
				}
			}
		case *ast.IncDecStmt:
			if !isInit {
				c.global(x.X)
			}
		case *ast.RangeStmt:
			if _, ok := c.pass.TypesInfo.TypeOf(x.X).Underlying().(*types.Map); ok {
				c.mapRange(fn, x)
			}
		}
		return true
	})
}

// global reports a write to a package-level variable of this package.
func (c *walker) global(lhs ast.Expr) {
	root := base(lhs)
	id, ok := root.(*ast.Ident)
	if !ok {
		return
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if ok && v.Pkg() == c.pass.Pkg && v.Parent() == c.pass.Pkg.Scope() {
		c.report(lhs.Pos(), RuleGlobal, id.Name)
	}
}

// mapRange reports a range over a map whose order reaches an effect, or fills a
// slice declared outside it that the function does not sort after the loop.
func (c *walker) mapRange(fn *ast.FuncDecl, r *ast.RangeStmt) {
	what := types.ExprString(r.X)
	reported := false
	ast.Inspect(r.Body, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok || reported {
			return !reported
		}
		if f := c.callee(call); f != nil {
			if isEffect(f) {
				c.report(r.For, RuleMapEffect, what, "env."+f.Name(), c.pass.Fset.Position(call.Pos()).Line)
				reported = true
			} else if at, ok := c.reaches[f.Origin()]; ok {
				c.report(r.For, RuleMapEffect, what, f.Name()+" (which calls env."+c.effectName(at)+")", c.pass.Fset.Position(call.Pos()).Line)
				reported = true
			}
		}
		return !reported
	})
	if reported {
		return
	}
	ast.Inspect(r.Body, func(x ast.Node) bool {
		as, ok := x.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		call, ok := as.Rhs[0].(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		if b, ok := c.pass.TypesInfo.Uses[identOf(call.Fun)].(*types.Builtin); !ok || b.Name() != "append" {
			return true
		}
		target := types.ExprString(as.Lhs[0])
		if target != types.ExprString(call.Args[0]) || declaredWithin(c.pass.TypesInfo, as.Lhs[0], r) {
			return true
		}
		if !c.sortedAfter(fn, r, target) {
			c.report(r.For, RuleMapSlice, what, target)
		}
		return true
	})
}

// base is the variable an assignment's left side writes into: a[i].f = … and
// *p = … write into a and p.
func base(e ast.Expr) ast.Expr {
	for {
		switch x := e.(type) {
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return e
		}
	}
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// declaredWithin reports whether the variable e names is declared inside r (a
// slice made afresh for each key does not carry the order out).
func declaredWithin(info *types.Info, e ast.Expr, r *ast.RangeStmt) bool {
	id := identOf(e)
	if id == nil {
		return false
	}
	obj := info.Uses[id]
	return obj != nil && obj.Pos() >= r.Pos() && obj.Pos() < r.End()
}

// sortedAfter reports whether fn sorts target after the range r.
func (c *walker) sortedAfter(fn *ast.FuncDecl, r *ast.RangeStmt, target string) bool {
	sorted := false
	ast.Inspect(fn.Body, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok || call.Pos() < r.End() || len(call.Args) == 0 || sorted {
			return !sorted
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !sortFuncs[types.ExprString(sel)] {
			return true
		}
		arg := ast.Unparen(call.Args[0])
		if conv, ok := arg.(*ast.CallExpr); ok && len(conv.Args) == 1 { // sort.Sort(byID(s))
			arg = conv.Args[0]
		}
		sorted = types.ExprString(arg) == target
		return !sorted
	})
	return sorted
}

// callee is the function or method a call calls, when the types say which.
func (c *walker) callee(call *ast.CallExpr) *types.Func {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, _ := c.pass.TypesInfo.Uses[id].(*types.Func)
	return fn
}

// isEffect reports whether f is one of Env's effect methods.
func isEffect(f *types.Func) bool {
	sig, ok := f.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !effects[f.Name()] {
		return false
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "Env" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == nodePath
}

// effectName is the name of the effect method called at pos.
func (c *walker) effectName(pos token.Pos) string {
	name := "Send"
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(x ast.Node) bool {
			if call, ok := x.(*ast.CallExpr); ok && call.Pos() == pos {
				if fn := c.callee(call); fn != nil && isEffect(fn) {
					name = fn.Name()
				}
				return false
			}
			return true
		})
	}
	return name
}

// reachers finds the package's functions and methods that make an effect,
// directly or through others of the package, each with the position of an
// effect call it reaches.
func reachers(pass *analysis.Pass) map[*types.Func]token.Pos {
	type decl struct {
		fn    *types.Func
		calls []*types.Func
		first token.Pos // its own first effect call, or NoPos
	}
	var decls []decl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			dc := decl{fn: fn}
			ast.Inspect(fd.Body, func(x ast.Node) bool {
				call, ok := x.(*ast.CallExpr)
				if !ok {
					return true
				}
				var id *ast.Ident
				switch f := ast.Unparen(call.Fun).(type) {
				case *ast.Ident:
					id = f
				case *ast.SelectorExpr:
					id = f.Sel
				}
				callee, _ := pass.TypesInfo.Uses[id].(*types.Func)
				switch {
				case callee == nil:
				case isEffect(callee):
					if dc.first == token.NoPos {
						dc.first = call.Pos()
					}
				case callee.Pkg() == pass.Pkg:
					dc.calls = append(dc.calls, callee.Origin())
				}
				return true
			})
			decls = append(decls, dc)
		}
	}
	reach := map[*types.Func]token.Pos{}
	for _, d := range decls {
		if d.first != token.NoPos {
			reach[d.fn] = d.first
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if _, ok := reach[d.fn]; ok {
				continue
			}
			if i := slices.IndexFunc(d.calls, func(f *types.Func) bool { _, ok := reach[f]; return ok }); i >= 0 {
				reach[d.fn] = reach[d.calls[i]]
				changed = true
			}
		}
	}
	return reach
}
