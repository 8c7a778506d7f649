// Package docs checks that the documentation cannot rot: every Go snippet
// in README.md and docs/*.md is a piece of a Go file of the module that the
// test suite compiles — an Example (run, when it has an Output comment) or
// a test — so a snippet that stops compiling fails the build, and a snippet
// edited apart from its code fails this test.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the module's root, from this package's directory.
const root = "../.."

// snippet is one ```go block of a document.
type snippet struct {
	doc  string
	line int
	code string
}

var fence = regexp.MustCompile("(?s)```go\n(.*?)```")

// snippets returns the Go blocks of the module's documents.
func snippets(t *testing.T) []snippet {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join(root, "README.md"))
	var out []snippet
	for _, d := range docs {
		text, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fence.FindAllSubmatchIndex(text, -1) {
			out = append(out, snippet{
				doc:  strings.TrimPrefix(d, root+"/"),
				line: 1 + strings.Count(string(text[:m[0]]), "\n"),
				code: string(text[m[2]:m[3]]),
			})
		}
	}
	return out
}

// sources returns every _test.go file of the module, whitespace-normalized
// (see normalize), by path.
func sources(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, "_test.go"):
			return nil
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out[path] = normalize(string(text))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// normalize drops each line's leading and trailing white space and blank
// lines, so a snippet matches the body of a function it was indented in.
func normalize(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func TestEveryGoSnippetIsCompiledCode(t *testing.T) {
	src := sources(t)
	all := snippets(t)
	if len(all) < 10 {
		t.Fatalf("found only %d Go snippets in the documents", len(all))
	}
	for _, s := range all {
		code := normalize(s.code)
		found := false
		for _, text := range src {
			if strings.Contains(text, code) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s:%d: this Go snippet is not in any example or test of the module:\n%s", s.doc, s.line, s.code)
		}
	}
}
