package dashboard

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// do sends a request with no body to the fixture's server and returns the
// status, the headers and the body.
func (f *fixture) do(t *testing.T, method, path string, header ...string) (int, http.Header, []byte) {
	t.Helper()
	return do(t, f.srv.Client(), method, f.srv.URL+path, header...)
}

// An answer that does not end (an event stream) fails the test after
// hangBound.
func do(t *testing.T, c *http.Client, method, url string, header ...string) (int, http.Header, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), hangBound)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, body
}

// getJSON GETs path, wants 200 and JSON, and decodes it into v.
func (f *fixture) getJSON(t *testing.T, path string, v any) {
	t.Helper()
	status, hdr, body := f.do(t, "GET", path)
	if status != http.StatusOK || !isJSON(hdr) {
		t.Fatalf("GET %s: %d %s\n%s", path, status, hdr.Get("Content-Type"), body)
	}
	decode(t, body, v)
}

// decode unmarshals body into v, failing the test if it is not JSON.
func decode(t *testing.T, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
}

// isJSON reports whether the response says it is JSON.
func isJSON(h http.Header) bool {
	return strings.HasPrefix(h.Get("Content-Type"), "application/json")
}

// hangBound bounds a test's wait for what is to happen: long enough to hold
// with both cores busy with another job, so that only a hang reaches it.
const hangBound = time.Minute

// eventually polls cond every 10 ms until it holds or hangBound has passed.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(hangBound)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline.C:
			t.Fatalf("not within %v: %s", hangBound, what)
		case <-tick.C:
		}
	}
}
