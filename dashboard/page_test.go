package dashboard

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

func TestThePageAndItsFilesAreServed(t *testing.T) {
	// Given a dashboard
	f := serve(t, keys("k", 1))
	for _, tc := range []struct{ path, ctype, contains string }{
		{"/", "text/html", `id="tiles"`},
		{"/static/app.js", "text/javascript", `new EventSource("api/events"`},
		{"/static/tiles.js", "text/javascript", "export function apply"},
		{"/static/app.css", "text/css", ".tiles"},
		{"/static/tile.css", "text/css", "content-visibility"},
	} {
		// When the page or one of its files is fetched
		status, hdr, body := f.do(t, "GET", tc.path)
		// Then it is served whole with its type, and from nowhere else
		if status != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), tc.ctype) ||
			!strings.Contains(string(body), tc.contains) || !strings.Contains(hdr.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: %d %s %q", tc.path, status, hdr.Get("Content-Type"), hdr.Get("Content-Security-Policy"))
		}
	}
	for _, path := range []string{"/static/nope.js", "/static/", "/index.html/x"} {
		if status, _, _ := f.do(t, "GET", path); status != 404 {
			t.Errorf("%s: %d", path, status)
		}
	}
}

// absolute finds a link of the page that starts at the server's root: in
// HTML attributes, and in the URLs the scripts fetch or stream from.
var absolute = regexp.MustCompile(`(?:href|src)="/|(?:fetch|EventSource)\(\s*["'\x60]/|import [^;]*from "/`)

func TestEveryLinkOfThePageIsRelative(t *testing.T) {
	// Given the page's files as embedded
	err := fs.WalkDir(web, "web", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		text, err := fs.ReadFile(web, path)
		if err != nil {
			return err
		}
		// Then none links to the server's root, so the handler works under
		// any prefix
		if m := absolute.Find(text); m != nil {
			t.Errorf("%s links to the root: %q", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
