package dashboard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// load calls every key of names, one after the other, every pause, from
// callers goroutines, until the test ends.
func (f *fixture) load(t testing.TB, names []string, callers int, pause time.Duration) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for i := c; ctx.Err() == nil; i = (i + callers) % len(names) {
				_, _ = f.reg.Call(ctx, names[i], "ping")
				select {
				case <-ctx.Done():
				case <-time.After(pause):
				}
			}
		})
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// mounted serves the fixture's handler under /breakers/ on a server of its
// own, as a service would mount it, and returns the page's URL.
func (f *fixture) mounted(t testing.TB) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/breakers/", http.StripPrefix("/breakers", f.h))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		f.h.Close() // its event streams end, so Close does not wait for them
		srv.Close()
	})
	return srv.URL + "/breakers/"
}
