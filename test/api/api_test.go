// Package api checks Tripwire's API: a golden listing of every exported
// name and signature of the public packages (api/*.txt at the repository
// root), which an API change must update together with CHANGELOG.md; the
// size of the surface; and that no public export names a type of the
// implementation packages.
package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden listings in api/ from the code")

const module = "github.com/tripwire-go/tripwire"

// implementation are the packages with no compatibility promise, under
// internal/ so that no program can import them: they export only what
// another package of the module needs.
var implementation = []string{"internal/actor", "internal/task", "internal/registry", "internal/supervisor"}

// Budgets of the surface (issue 41): exported names of the root, and of
// the implementation packages together. The implementation packages are
// under internal/, so no program can import them whatever they export; the
// bound keeps what they export to each other from growing (issue 41 asked
// for 60 of them at the top level; see docs/architecture.md).
const (
	rootBudget           = 60
	implementationBudget = 154
)

// pkgs loads the module's packages from their export data.
type pkgs struct {
	fset    *token.FileSet
	exports map[string]string // import path → export data file
	imp     types.Importer
}

func load(t *testing.T) *pkgs {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-json", module+"/...")
	cmd.Dir = root(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	p := &pkgs{fset: token.NewFileSet(), exports: map[string]string{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var lp struct{ ImportPath, Export string }
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		p.exports[lp.ImportPath] = lp.Export
	}
	p.imp = importer.ForCompiler(p.fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := p.exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	return p
}

// public are the module's packages a user imports: all but the internal,
// test, program and implementation packages.
func (p *pkgs) public() []string {
	var out []string
	for path := range p.exports {
		rel, ok := strings.CutPrefix(path, module)
		if !ok || strings.Contains(path, "/internal") || strings.HasPrefix(rel, "/test") || strings.HasPrefix(rel, "/cmd") {
			continue
		}
		if isImplementation(path) {
			continue
		}
		out = append(out, path)
	}
	sort.Strings(out)
	return out
}

func isImplementation(path string) bool {
	for _, name := range implementation {
		if path == module+"/"+name {
			return true
		}
	}
	return false
}

func (p *pkgs) pkg(t *testing.T, path string) *types.Package {
	t.Helper()
	pkg, err := p.imp.Import(path)
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	return pkg
}

// listing is a package's exported names with their signatures, one a line,
// sorted: every top-level object and every method of an exported type.
func listing(pkg *types.Package) []string {
	qual := func(other *types.Package) string {
		if other == pkg {
			return ""
		}
		return other.Path()
	}
	var lines []string
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.IsAlias() {
			lines = append(lines, types.ObjectString(obj, qual))
			continue
		}
		lines = append(lines, typeLines(tn, qual)...)
		for _, ptr := range []bool{false, true} {
			var typ types.Type = tn.Type()
			if ptr {
				typ = types.NewPointer(typ)
			}
			ms := types.NewMethodSet(typ)
			for i := range ms.Len() {
				m := ms.At(i).Obj()
				if !m.Exported() || (ptr && types.NewMethodSet(tn.Type()).Lookup(m.Pkg(), m.Name()) != nil) {
					continue
				}
				if _, embedded := ms.At(i).Type().(*types.Signature); embedded && len(ms.At(i).Index()) > 1 {
					continue // promoted from an embedded type, listed there
				}
				lines = append(lines, types.ObjectString(m, qual))
			}
		}
	}
	sort.Strings(lines)
	return lines
}

// typeLines lists a named type: a struct's exported fields and an
// interface's exported methods on lines of their own, so that a change of
// what a program cannot see changes no line.
func typeLines(tn *types.TypeName, qual types.Qualifier) []string {
	head := "type " + tn.Name()
	if tp := tn.Type().(*types.Named).TypeParams(); tp.Len() > 0 {
		var ps []string
		for i := range tp.Len() {
			ps = append(ps, tp.At(i).Obj().Name()+" "+types.TypeString(tp.At(i).Constraint(), qual))
		}
		head += "[" + strings.Join(ps, ", ") + "]"
	}
	switch u := tn.Type().Underlying().(type) {
	case *types.Struct:
		lines := []string{head + " struct"}
		for i := range u.NumFields() {
			if f := u.Field(i); f.Exported() {
				line := fmt.Sprintf("field %s.%s %s", tn.Name(), f.Name(), types.TypeString(f.Type(), qual))
				if tag := u.Tag(i); tag != "" {
					line += " `" + tag + "`" // JSON names are API too
				}
				lines = append(lines, line)
			}
		}
		return lines
	case *types.Interface:
		lines := []string{head + " interface"}
		for i := range u.NumMethods() {
			if m := u.Method(i); m.Exported() {
				lines = append(lines, fmt.Sprintf("method (%s) %s%s", tn.Name(), m.Name(), strings.TrimPrefix(types.TypeString(m.Type(), qual), "func")))
			}
		}
		return lines
	}
	return []string{head + " " + types.TypeString(tn.Type().Underlying(), qual)}
}

// names counts a listing's names: its top-level objects and methods, not
// the fields of its structs.
func names(lines []string) int {
	n := 0
	for _, l := range lines {
		if !strings.HasPrefix(l, "field ") {
			n++
		}
	}
	return n
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func goldenFile(t *testing.T, path string) string {
	name := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
	if name == "" {
		name = "tripwire"
	}
	return filepath.Join(root(t), "api", strings.ReplaceAll(name, "/", "_")+".txt")
}

// TestAPIListing compares every public package's exported names and
// signatures with api/*.txt; an API change must update both the listing
// (go test ./test/api -update) and CHANGELOG.md, which names the listing's
// digest (see TestChangelogNamesTheAPI).
func TestAPIListing(t *testing.T) {
	p := load(t)
	want := map[string]bool{}
	for _, path := range p.public() {
		file := goldenFile(t, path)
		want[filepath.Base(file)] = true
		got := strings.Join(listing(p.pkg(t, path)), "\n") + "\n"
		got = "pkg " + path + "\n" + got
		if *update {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(file)
		if err != nil {
			t.Errorf("%s has no golden listing (%v): run go test ./test/api -update and record the new API in CHANGELOG.md", path, err)
			continue
		}
		if string(old) != got {
			t.Errorf("the API of %s changed:\n%s\nIf that is meant, run go test ./test/api -update and record it in CHANGELOG.md", path, diff(string(old), got))
		}
	}
	files, _ := filepath.Glob(filepath.Join(root(t), "api", "*.txt"))
	for _, f := range files {
		if !want[filepath.Base(f)] {
			if *update {
				_ = os.Remove(f)
				continue
			}
			t.Errorf("%s lists a package that is gone or no longer public", f)
		}
	}
}

// TestChangelogNamesTheAPI: CHANGELOG.md names the digest of the listing
// in api/, so a change of the API cannot land without an entry there.
func TestChangelogNamesTheAPI(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(root(t), "api", "*.txt"))
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h.Write(b)
	}
	digest := hex.EncodeToString(h.Sum(nil))[:12]
	log, err := os.ReadFile(filepath.Join(root(t), "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(log, []byte("API listing: "+digest)) {
		t.Errorf("CHANGELOG.md does not name the API listing's digest: describe the API change there and put %q in its entry", "API listing: "+digest)
	}
}

// TestTheSurfaceIsWithinItsBudget counts the exported names.
func TestTheSurfaceIsWithinItsBudget(t *testing.T) {
	p := load(t)
	rootNames := names(listing(p.pkg(t, module)))
	impl := 0
	for _, name := range implementation {
		n := names(listing(p.pkg(t, module+"/"+name)))
		t.Logf("%s exports %d names", name, n)
		impl += n
	}
	t.Logf("the root exports %d names; the implementation packages %d together", rootNames, impl)
	if rootNames > rootBudget {
		t.Errorf("the root exports %d names, over its budget of %d", rootNames, rootBudget)
	}
	if impl > implementationBudget {
		t.Errorf("the implementation packages export %d names together, over their budget of %d", impl, implementationBudget)
	}
}

// TestNoPublicExportNamesAnImplementationType: what a user receives from a
// public package is defined in a public package (go doc shows its fields
// where the user reads them), never in actor, task, registry, supervisor
// or an internal package.
func TestNoPublicExportNamesAnImplementationType(t *testing.T) {
	p := load(t)
	for _, path := range p.public() {
		pkg := p.pkg(t, path)
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			obj := scope.Lookup(name)
			if !obj.Exported() {
				continue
			}
			for _, bad := range implementationTypes(obj) {
				t.Errorf("%s.%s names %s, a type of an implementation package", pkg.Name(), name, bad)
			}
		}
	}
}

// implementationTypes are the named types of implementation or internal
// packages that obj's declaration shows a user: in its type, a struct's
// exported fields, a function's or an exported method's signature.
func implementationTypes(obj types.Object) []string {
	seen := map[types.Type]bool{}
	var bad []string
	var walk func(t types.Type, top bool)
	walk = func(t types.Type, top bool) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Alias:
			walk(types.Unalias(t), false)
		case *types.Named:
			if p := t.Obj().Pkg(); p != nil && (isImplementation(p.Path()) || strings.Contains(p.Path(), module+"/internal")) {
				bad = append(bad, p.Path()+"."+t.Obj().Name())
				return
			}
			if p := t.Obj().Pkg(); top || (p != nil && strings.HasPrefix(p.Path(), module)) {
				walk(t.Underlying(), false)
				for i := range t.NumMethods() {
					if m := t.Method(i); m.Exported() {
						walk(m.Type(), false)
					}
				}
			}
		case *types.Pointer:
			walk(t.Elem(), false)
		case *types.Slice:
			walk(t.Elem(), false)
		case *types.Array:
			walk(t.Elem(), false)
		case *types.Map:
			walk(t.Key(), false)
			walk(t.Elem(), false)
		case *types.Chan:
			walk(t.Elem(), false)
		case *types.Signature:
			for i := range t.Params().Len() {
				walk(t.Params().At(i).Type(), false)
			}
			for i := range t.Results().Len() {
				walk(t.Results().At(i).Type(), false)
			}
		case *types.Struct:
			for i := range t.NumFields() {
				if f := t.Field(i); f.Exported() {
					walk(f.Type(), false)
				}
			}
		case *types.Interface:
			for i := range t.NumMethods() {
				if m := t.Method(i); m.Exported() {
					walk(m.Type(), false)
				}
			}
		}
	}
	walk(obj.Type(), true)
	return bad
}

// diff shows the lines only in old (-) and only in got (+).
func diff(old, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	o, g := in(old), in(got)
	var b strings.Builder
	for _, l := range strings.Split(old, "\n") {
		if !g[l] {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !o[l] {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}
