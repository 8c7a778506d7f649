package tripwirehttp_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/internal/testkit/httpfake"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwirehttp"
)

// closeCounter is a request body that counts its Closes.
type closeCounter struct {
	io.Reader
	closes atomic.Int64
}

func (c *closeCounter) Close() error { c.closes.Add(1); return nil }

// postWithBody is a POST of fakeURL whose body counts its Closes.
func postWithBody(t *testing.T) (*http.Request, *closeCounter) {
	t.Helper()
	b := &closeCounter{Reader: strings.NewReader("payload")}
	req, err := http.NewRequest(http.MethodPost, fakeURL, b)
	if err != nil {
		t.Fatal(err)
	}
	return req, b
}

var errNoTenant = errors.New("no tenant header")

func TestNewRefusesBadArguments(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		classify := func(any, error) state.Verdict { return state.Success }
		for name, tc := range map[string]struct {
			reg  *tripwire.Registry
			opts []tripwirehttp.Option
			want error
		}{
			"nil registry":            {nil, nil, tripwire.ErrInvalidOption},
			"nil option":              {e.Reg, []tripwirehttp.Option{nil}, tripwire.ErrInvalidOption},
			"WithKey(nil)":            {e.Reg, []tripwirehttp.Option{tripwirehttp.WithKey(nil)}, tripwire.ErrInvalidOption},
			"WithSettingsFor(nil)":    {e.Reg, []tripwirehttp.Option{tripwirehttp.WithSettingsFor(nil)}, tripwire.ErrInvalidOption},
			"WithClassifier(nil)":     {e.Reg, []tripwirehttp.Option{tripwirehttp.WithClassifier(nil)}, tripwire.ErrInvalidOption},
			"settings with Classify":  {e.Reg, []tripwirehttp.Option{tripwirehttp.WithSettings(tripwire.Settings{Classify: classify})}, tripwire.ErrInvalidSettings},
			"settings with IsFailure": {e.Reg, []tripwirehttp.Option{tripwirehttp.WithSettings(tripwire.Settings{IsFailure: func(any, error) bool { return true }})}, tripwire.ErrInvalidSettings},
			"invalid settings":        {e.Reg, []tripwirehttp.Option{tripwirehttp.WithSettings(tripwire.Settings{Window: state.Window{Size: 20, MinCalls: 50}})}, tripwire.ErrInvalidSettings},
			"a negative CallTimeout":  {e.Reg, []tripwirehttp.Option{tripwirehttp.WithSettings(tripwire.Settings{CallTimeout: -1})}, tripwire.ErrInvalidSettings},
		} {
			if tr, err := tripwirehttp.New(tc.reg, nil, tc.opts...); tr != nil || !errors.Is(err, tc.want) {
				t.Errorf("%s: New = %v, %v; want %v", name, tr, err, tc.want)
			}
		}
	})
}

func TestRoundTripRefusesBadRequestsWithoutSendingThem(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) { return httpfake.Respond(req, 200, "ok"), nil }}
		tr := fakeRig(t, e, next)
		for name, tc := range map[string]struct {
			rt   http.RoundTripper
			edit func(*http.Request) *http.Request
			want error
		}{
			"zero Transport": {&tripwirehttp.Transport{}, nil, tripwire.ErrInvalidOption},
			"nil Transport":  {(*tripwirehttp.Transport)(nil), nil, tripwire.ErrInvalidOption},
			"nil URL":        {tr, func(r *http.Request) *http.Request { r.URL = nil; return r }, tripwirehttp.ErrInvalidRequest},
			"nil Header":     {tr, func(r *http.Request) *http.Request { r.Header = nil; return r }, tripwirehttp.ErrInvalidRequest},
			"bad method":     {tr, func(r *http.Request) *http.Request { r.Method = "GET /"; return r }, tripwirehttp.ErrInvalidRequest},
			"bad header value": {tr, func(r *http.Request) *http.Request {
				r.Header.Set("X-Tenant", "a\r\nX-Admin: yes")
				return r
			}, tripwirehttp.ErrInvalidRequest},
			"bad header name": {tr, func(r *http.Request) *http.Request { r.Header["X Tenant"] = []string{"a"}; return r }, tripwirehttp.ErrInvalidRequest},
			"bad trailer":     {tr, func(r *http.Request) *http.Request { r.Trailer = http.Header{"X-Sum": {"\x00"}}; return r }, tripwirehttp.ErrInvalidRequest},
			"no host":         {tr, func(r *http.Request) *http.Request { r.URL = &url.URL{Scheme: "http", Path: "/"}; return r }, tripwirehttp.ErrInvalidRequest},
			"no scheme":       {tr, func(r *http.Request) *http.Request { r.URL = &url.URL{Host: "a.test", Path: "/"}; return r }, tripwirehttp.ErrInvalidRequest},
			"upper-case scheme": {tr, func(r *http.Request) *http.Request {
				r.URL = &url.URL{Scheme: "HTTPS", Host: "a.test", Path: "/"}
				return r
			}, tripwirehttp.ErrInvalidRequest},
			"mixed-case scheme": {tr, func(r *http.Request) *http.Request {
				r.URL = &url.URL{Scheme: "Http", Host: "a.test", Path: "/"}
				return r
			}, tripwirehttp.ErrInvalidRequest},
			"context canceled": {tr, func(r *http.Request) *http.Request {
				ctx, cancel := context.WithCancel(r.Context())
				cancel()
				return r.WithContext(ctx)
			}, context.Canceled},
		} {
			req, b := postWithBody(t)
			if tc.edit != nil {
				req = tc.edit(req)
			}
			resp, err := tc.rt.RoundTrip(req)
			if resp != nil || !errors.Is(err, tc.want) {
				t.Errorf("%s: RoundTrip = %v, %v; want %v", name, resp, err, tc.want)
			}
			if n := b.closes.Load(); n != 1 {
				t.Errorf("%s: request body closed %d times; want 1", name, n)
			}
		}
		if _, err := tr.RoundTrip(nil); !errors.Is(err, tripwirehttp.ErrInvalidRequest) {
			t.Errorf("RoundTrip(nil) = %v; want ErrInvalidRequest", err)
		}
		if n := next.Calls.Load(); n != 0 {
			t.Fatalf("%d bad requests were sent", n)
		}
		if keys := e.Reg.Keys(); len(keys) != 0 {
			t.Fatalf("bad requests made keys %v", keys)
		}
	})
}

func TestKeyFuncErrorsAreErrKey(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) { return httpfake.Respond(req, 200, "ok"), nil }}
		for name, tc := range map[string]struct {
			key  func(*http.Request) (string, error)
			want []error
		}{
			"error":       {func(*http.Request) (string, error) { return "", errNoTenant }, []error{tripwirehttp.ErrKey, errNoTenant}},
			"panic":       {func(*http.Request) (string, error) { panic("boom") }, []error{tripwirehttp.ErrKey}},
			"empty key":   {func(*http.Request) (string, error) { return "", nil }, []error{tripwirehttp.ErrKey, tripwire.ErrInvalidKey}},
			"invalid key": {func(*http.Request) (string, error) { return "a\x00b", nil }, []error{tripwirehttp.ErrKey, tripwire.ErrInvalidKey}},
			"long key":    {func(*http.Request) (string, error) { return strings.Repeat("k", 256+1), nil }, []error{tripwirehttp.ErrKey, tripwire.ErrInvalidKey}},
		} {
			tr := fakeRig(t, e, next, tripwirehttp.WithKey(tc.key))
			req, b := postWithBody(t)
			_, err := tr.RoundTrip(req)
			for _, want := range tc.want {
				if !errors.Is(err, want) {
					t.Errorf("%s: RoundTrip = %v; want it to match %v", name, err, want)
				}
			}
			if n := b.closes.Load(); n != 1 {
				t.Errorf("%s: request body closed %d times; want 1", name, n)
			}
		}
		if n := next.Calls.Load(); n != 0 {
			t.Fatalf("%d requests without a key were sent", n)
		}
	})
}

func TestSettingsErrorsFailTheRequestAndAreAskedAgain(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) { return httpfake.Respond(req, 200, "ok"), nil }}
		var asked atomic.Int64
		for name, tc := range map[string]struct {
			settings func(string) (tripwire.Settings, error)
			want     error
		}{
			"error":   {func(string) (tripwire.Settings, error) { return tripwire.Settings{}, errNoTenant }, errNoTenant},
			"invalid": {func(string) (tripwire.Settings, error) { return tripwire.Settings{Threshold: -1}, nil }, tripwire.ErrInvalidSettings},
			"classify": {func(string) (tripwire.Settings, error) {
				return tripwire.Settings{IsFailure: func(any, error) bool { return false }}, nil
			}, tripwire.ErrInvalidSettings},
		} {
			counted := func(k string) (tripwire.Settings, error) { asked.Add(1); return tc.settings(k) }
			tr := fakeRig(t, e, next, tripwirehttp.WithSettingsFor(counted))
			for range 2 {
				req, b := postWithBody(t)
				if _, err := tr.RoundTrip(req); !errors.Is(err, tc.want) || !errors.Is(err, tripwire.ErrFactory) {
					t.Errorf("%s: RoundTrip = %v; want %v and ErrFactory", name, err, tc.want)
				}
				if n := b.closes.Load(); n != 1 {
					t.Errorf("%s: request body closed %d times; want 1", name, n)
				}
			}
		}
		if n := asked.Load(); n != 6 {
			t.Fatalf("settings asked %d times; want 6: each failed request asks again", n)
		}
		if n := next.Calls.Load(); n != 0 || len(e.Reg.Keys()) != 0 {
			t.Fatalf("%d requests sent, keys %v; want none", n, e.Reg.Keys())
		}
	})
}

func TestAKeyOfTheProgramsOwnIsNotUsed(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a key the program registered for a target of its own
		own := tripwire.Func(func(context.Context, any) (any, error) { return "mine", nil })
		testkit.Register(t, e.Reg, fakeKey, own, tripwire.Settings{})
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) { return httpfake.Respond(req, 200, "ok"), nil }}
		tr := fakeRig(t, e, next)

		// When a request resolves to it
		req, b := postWithBody(t)
		_, err := tr.RoundTrip(req)

		// Then it fails with ErrUnexpectedReply, and nothing is sent
		if !errors.Is(err, tripwire.ErrUnexpectedReply) || next.Calls.Load() != 0 || b.closes.Load() != 1 {
			t.Fatalf("RoundTrip = %v, %d sent, body closed %d times", err, next.Calls.Load(), b.closes.Load())
		}
	})
}

func TestRequestsNetHTTPRefusesAreNotCountedAgainstTheirKey(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given net/http's own transport under a breaker that opens on the
		// first failure, with a key func that gives every request a key
		tr := fakeRig(t, e, &http.Transport{}, tripwirehttp.WithKey(func(*http.Request) (string, error) { return "api", nil }),
			tripwirehttp.WithSettings(tripwire.Settings{Threshold: 1}))

		// When requests net/http refuses before dialling are sent: a scheme
		// not in lower case (as a URL built by hand may have it), none, or
		// no host
		for _, u := range []*url.URL{
			{Scheme: "HTTPS", Host: "api.test", Path: "/"},
			{Host: "api.test", Path: "/"},
			{Scheme: "https", Path: "/"},
		} {
			req, b := postWithBody(t)
			req.URL = u
			_, err := tr.RoundTrip(req)

			// Then each is ErrInvalidRequest, its body closed, and no breaker
			// counts it: the mistake is the caller's, not the host's
			if !errors.Is(err, tripwirehttp.ErrInvalidRequest) || b.closes.Load() != 1 {
				t.Errorf("RoundTrip(%q) = %v, body closed %d times; want ErrInvalidRequest, closed once", u, err, b.closes.Load())
			}
		}
		if keys := e.Reg.Keys(); len(keys) != 0 {
			t.Fatalf("requests net/http refuses made keys %v", keys)
		}
	})
}

func TestAKeyOfTheProgramsOwnThatEchoesItsMessageIsNotUsed(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a key the program registered for a target of its own that
		// answers with the message it was given (a pass-through)
		echo := tripwire.Func(func(_ context.Context, m any) (any, error) { return m, nil })
		testkit.Register(t, e.Reg, fakeKey, echo, tripwire.Settings{})
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) { return httpfake.Respond(req, 200, "ok"), nil }}
		tr := fakeRig(t, e, next)

		// When a request resolves to it
		req, b := postWithBody(t)
		_, err := tr.RoundTrip(req)

		// Then it fails with ErrUnexpectedReply, nothing is sent, and the
		// request body is closed once
		if !errors.Is(err, tripwire.ErrUnexpectedReply) || next.Calls.Load() != 0 || b.closes.Load() != 1 {
			t.Fatalf("RoundTrip = %v, %d sent, body closed %d times; want ErrUnexpectedReply, none sent, closed once",
				err, next.Calls.Load(), b.closes.Load())
		}
	})
}

func TestAnOpenCircuitClosesTheRequestBody(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		next := &httpfake.Transport{Fn: func(req *http.Request) (*http.Response, error) { return nil, errors.New("refused") }}
		tr := fakeRig(t, e, next, tripwirehttp.WithSettings(tripwire.Settings{Threshold: 1}))
		req, _ := postWithBody(t)
		if _, err := tr.RoundTrip(req); err == nil {
			t.Fatal("want the transport's error")
		}
		req, b := postWithBody(t)
		if _, err := tr.RoundTrip(req); !errors.Is(err, tripwire.ErrOpen) || b.closes.Load() != 1 {
			t.Fatalf("RoundTrip = %v, body closed %d times; want ErrOpen, closed once", err, b.closes.Load())
		}
	})
}

func TestHostKey(t *testing.T) {
	for raw, want := range map[string]string{
		"http://api.example.com/v1?q=1":  "http://api.example.com:80",
		"https://API.Example.COM/":       "https://api.example.com:443",
		"HTTPS://api.example.com:8443/x": "https://api.example.com:8443",
		"http://127.0.0.1:8080":          "http://127.0.0.1:8080",
		"http://[::1]/":                  "http://[::1]:80",
		"https://[2001:db8::1]:9443/":    "https://[2001:db8::1]:9443",
		"http://user:pw@a.test/":         "http://a.test:80",
		"ws://a.test/socket":             "ws://a.test",
		"ws://[::1]/socket":              "ws://[::1]",
	} {
		req, err := http.NewRequest(http.MethodGet, raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := tripwirehttp.HostKey(req); err != nil || got != want {
			t.Errorf("HostKey(%s) = %q, %v; want %q", raw, got, err, want)
		}
	}
	for _, req := range []*http.Request{nil, {}, {URL: &url.URL{Path: "/x"}}, {URL: &url.URL{Scheme: "http"}}} {
		if _, err := tripwirehttp.HostKey(req); !errors.Is(err, tripwirehttp.ErrKey) {
			t.Errorf("HostKey(%v) = %v; want ErrKey", req, err)
		}
	}
}
