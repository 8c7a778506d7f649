package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	link    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading = regexp.MustCompile(`(?m)^#+ (.+)$`)
)

// anchor is GitHub's anchor of a heading: lower case, spaces to dashes,
// punctuation other than dashes and underscores dropped.
func anchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestEveryRelativeLinkOfTheDocumentsResolves(t *testing.T) {
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"), filepath.Join(root, "BENCHMARKS.md"), filepath.Join(root, "CHANGELOG.md"))
	for _, d := range docs {
		text, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := d
			if file != "" {
				path = filepath.Join(filepath.Dir(d), file)
			}
			body, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s: link %q: %v", d, target, err)
				continue
			}
			if frag == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			found := false
			for _, h := range heading.FindAllStringSubmatch(string(body), -1) {
				if anchor(h[1]) == frag {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: link %q: no heading #%s in %s", d, target, frag, path)
			}
		}
	}
}
