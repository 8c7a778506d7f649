// Package budget measures the core against issue 42's budget: its size in
// non-test lines (the whole core, and internal/actor alone), and the length
// and cyclomatic complexity of each of its functions.
package budget

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// core are the packages of the core, as directories from the repository's
// root: the public door, the implementation packages (internal/timers
// came out of internal/actor) and the pure core.
var core = []string{".", "internal/actor", "internal/task", "internal/registry", "internal/supervisor", "internal/timers", "state"}

// The budget (issue 42, part 4): non-test lines of the core and of
// internal/actor, and the most lines and the most complexity of a function.
const (
	coreLines      = 9700
	actorLines     = 3500
	funcLines      = 60
	funcCyclomatic = 15
)

// root is the repository's root, two levels above this package.
func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// sources are the non-test Go files of dir, sorted.
func sources(t *testing.T, dir string) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range all {
		if !strings.HasSuffix(f, "_test.go") {
			files = append(files, f)
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return files
}

// lines counts the lines of files as wc -l does: their newlines.
func lines(t *testing.T, files []string) int {
	t.Helper()
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += bytes.Count(b, []byte{'\n'})
	}
	return n
}

func TestTheCoreIsWithinItsLineBudget(t *testing.T) {
	top := root(t)
	total := 0
	for _, dir := range core {
		n := lines(t, sources(t, filepath.Join(top, dir)))
		t.Logf("%-20s %5d lines", dir, n)
		total += n
		if dir == "internal/actor" && n > actorLines {
			t.Errorf("internal/actor has %d non-test lines, over its budget of %d", n, actorLines)
		}
	}
	t.Logf("%-20s %5d lines (budget %d)", "core", total, coreLines)
	if total > coreLines {
		t.Errorf("the core has %d non-test lines, over its budget of %d", total, coreLines)
	}
}

func TestNoCoreFunctionIsTooLongOrTooComplex(t *testing.T) {
	top := root(t)
	for _, dir := range core {
		fset := token.NewFileSet()
		for _, f := range sources(t, filepath.Join(top, dir)) {
			file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				name := filepath.Join(dir, filepath.Base(f)) + ": " + funcName(fn)
				if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > funcLines {
					t.Errorf("%s is %d lines long, over %d", name, n, funcLines)
				}
				if c := cyclomatic(fn); c > funcCyclomatic {
					t.Errorf("%s has a cyclomatic complexity of %d, over %d", name, c, funcCyclomatic)
				}
			}
		}
	}
}

// funcName is fn's name, with its receiver's type: (*breaker).Receive.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	typ := fn.Recv.List[0].Type
	star := ""
	if s, ok := typ.(*ast.StarExpr); ok {
		star, typ = "*", s.X
	}
	if ix, ok := typ.(*ast.IndexExpr); ok { // a generic receiver
		typ = ix.X
	}
	if ix, ok := typ.(*ast.IndexListExpr); ok {
		typ = ix.X
	}
	id, _ := typ.(*ast.Ident)
	if id == nil {
		return fn.Name.Name
	}
	return fmt.Sprintf("(%s%s).%s", star, id.Name, fn.Name.Name)
}

// cyclomatic is fn's cyclomatic complexity as gocyclo counts it: one, and
// one more for each if, for, range, case and select case (not default),
// && and ||, in its body and the function literals in it.
func cyclomatic(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}
