package dashboard

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestTheHandlerWorksUnderAPrefix(t *testing.T) {
	for _, strip := range []string{"/breakers", "/breakers/"} {
		// Given the dashboard mounted under /breakers/ with StripPrefix(strip)
		f := serve(t, keys("k", 2))
		mux := http.NewServeMux()
		mux.Handle("/breakers/", http.StripPrefix(strip, f.h))
		srv := httptest.NewServer(mux)
		c := srv.Client()
		// When the page, its files and the API are asked for under it
		for path, want := range map[string]string{
			"/breakers/":                 `href="static/app.css"`,
			"/breakers/static/app.js":    "api/events",
			"/breakers/api/info":         `"title":"Tripwire"`,
			"/breakers/api/breakers":     `"key":"k01"`,
			"/breakers/api/breakers/k02": `"key":"k02"`,
		} {
			status, _, body := do(t, c, "GET", srv.URL+path)
			// Then they answer as at the root
			if status != 200 || !strings.Contains(string(body), want) {
				t.Errorf("StripPrefix(%q) %s: %d, no %q", strip, path, status, want)
			}
		}
		// and so does the event stream
		resp, err := c.Get(srv.URL + "/breakers/api/events")
		if err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(resp.Body).ReadString('\n')
		resp.Body.Close()
		if resp.StatusCode != 200 || err != nil || !strings.HasPrefix(line, "retry:") {
			t.Errorf("StripPrefix(%q) events: %d %q %v", strip, resp.StatusCode, line, err)
		}
		// and /breakers itself is sent to /breakers/, where relative links work
		noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		if status, hdr, _ := do(t, noRedirect, "GET", srv.URL+"/breakers"); status/100 != 3 || hdr.Get("Location") != "/breakers/" {
			t.Errorf("/breakers: %d to %q", status, hdr.Get("Location"))
		}
		f.h.Close()
		srv.Close()
	}
}
