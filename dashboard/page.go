package dashboard

import (
	"embed"
	"io/fs"
	"net/http"
)

// web is the page: plain HTML, CSS and JavaScript modules, no build step,
// nothing fetched from elsewhere, every link relative (so the handler can
// be mounted under any prefix).
//
//go:embed web
var web embed.FS

// pageHandler serves web/index.html at / and web/static/* at /static/*.
func pageHandler() http.Handler {
	root, err := fs.Sub(web, "web")
	if err != nil {
		panic("dashboard: embedded page missing: " + err.Error()) // a build without web/ cannot happen
	}
	files := http.FileServerFS(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		files.ServeHTTP(w, r)
	})
}
