package tripwirehttp

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/net/http/httpguts"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/adapter"
	"github.com/tripwire-go/tripwire/state"
)

// Transport is an http.RoundTripper that sends each request through the
// breaker of its key, on a registry it shares with the rest of the
// program. It is safe for concurrent use; make one with New.
type Transport struct {
	reg      *tripwire.Registry
	next     http.RoundTripper
	key      func(*http.Request) (string, error)
	classify func(*http.Response, error) state.Verdict
	factory  tripwire.Factory
}

// New returns a Transport on reg that sends requests with next (nil:
// http.DefaultTransport). A nil reg or option is tripwire.ErrInvalidOption.
func New(reg *tripwire.Registry, next http.RoundTripper, opts ...Option) (*Transport, error) {
	if reg == nil {
		return nil, fmt.Errorf("%w: New with a nil Registry", tripwire.ErrInvalidOption)
	}
	if next == nil {
		next = http.DefaultTransport
	}
	applies := make([]func(*config) error, len(opts))
	for i, o := range opts {
		if o != nil {
			applies[i] = o.apply
		}
	}
	c, err := adapter.Build(HostKey, DefaultClassify, applies)
	if err != nil {
		return nil, err
	}
	t := &Transport{reg: reg, next: next, key: c.Key, classify: c.Classify}
	t.factory = breakers(c.Settings)
	return t, nil
}

// RoundTrip sends req through its key's breaker, making the breaker on the
// key's first request. It returns what next returned — a response whatever
// its status, or next's error — or, without sending req: an
// *state.OpenError (errors.Is tripwire.ErrOpen) while the circuit is
// open, tripwire.ErrOverloaded, ErrKey, ErrInvalidRequest, the settings'
// or the registry's error. A round trip not answered by the key's
// CallTimeout (or the request's deadline, if earlier) is cancelled and
// returns tripwire.ErrTimeout, which matches context.DeadlineExceeded — as
// does the transport's own error when the request's deadline ends its
// round trip first; a request whose context is cancelled returns
// context.Canceled at once. The request body is always closed.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t == nil || t.reg == nil {
		closeRequest(req)
		return nil, fmt.Errorf("%w: a Transport not made by New", tripwire.ErrInvalidOption)
	}
	if err := checkRequest(req); err != nil {
		closeRequest(req)
		return nil, err
	}
	key, err := keyOf(t.key, req)
	if err != nil {
		closeRequest(req)
		return nil, err
	}
	x := &exchange{req: req, next: t.next, classify: t.classify}
	v, err := t.reg.CallWith(req.Context(), key, x, t.factory)
	if got, ok := v.(*exchange); ok && got == x && x.finished() {
		// (a target of the program's own that echoes its message hands
		// the exchange back unsent: it is no answer of the package's)
		return x.take()
	}
	switch {
	case err == nil:
		err = fmt.Errorf("%w: key %q is not this package's: its target answered %T", tripwire.ErrUnexpectedReply, key, v)
	case errors.Is(err, tripwire.ErrInvalidKey):
		err = fmt.Errorf("%w: %w", ErrKey, err)
	}
	x.abandon(err)
	return nil, err
}

// CloseIdleConnections closes the idle connections of the transport under
// the breakers, if it has such a method (http.Transport does), so that
// http.Client.CloseIdleConnections reaches it. The breakers are the
// registry's: they stop with it, or when idle.
func (t *Transport) CloseIdleConnections() {
	if t == nil {
		return
	}
	if c, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// checkRequest refuses what net/http's own transport refuses before it
// dials, so that a caller's mistake is not counted as the host's failure
// (whatever key the key func gives it): a nil request, URL or header, a URL
// without a scheme, or with http or https not in lower case (net/http
// matches them exactly: a URL built by hand may have "HTTPS"), and for
// http and https no host, or an invalid method, header or trailer.
func checkRequest(req *http.Request) error {
	switch {
	case req == nil:
		return fmt.Errorf("%w: nil Request", ErrInvalidRequest)
	case req.URL == nil:
		return fmt.Errorf("%w: nil Request.URL", ErrInvalidRequest)
	case req.Header == nil:
		return fmt.Errorf("%w: nil Request.Header", ErrInvalidRequest)
	}
	switch scheme := req.URL.Scheme; {
	case scheme == "http", scheme == "https":
	case scheme == "", strings.EqualFold(scheme, "http"), strings.EqualFold(scheme, "https"):
		return fmt.Errorf("%w: unsupported scheme %q", ErrInvalidRequest, scheme)
	default:
		return nil // another scheme: the next RoundTripper's to judge
	}
	switch {
	case req.URL.Host == "": // net/http dials the URL's host: a Host header does not do
		return fmt.Errorf("%w: no host in URL %q", ErrInvalidRequest, req.URL.Redacted())
	case req.Method != "" && !httpguts.ValidHeaderFieldName(req.Method): // a token, as a method is
		return fmt.Errorf("%w: invalid method %q", ErrInvalidRequest, req.Method)
	}
	if what := invalidHeader(req.Header); what != "" {
		return fmt.Errorf("%w: invalid header %s", ErrInvalidRequest, what)
	}
	if what := invalidHeader(req.Trailer); what != "" {
		return fmt.Errorf("%w: invalid trailer %s", ErrInvalidRequest, what)
	}
	return nil
}

// invalidHeader names the first field of h that net/http would refuse to
// send, or is "". A value is not quoted: it may be a secret.
func invalidHeader(h http.Header) string {
	for k, vv := range h {
		if !httpguts.ValidHeaderFieldName(k) {
			return fmt.Sprintf("field name %q", k)
		}
		for _, v := range vv {
			if !httpguts.ValidHeaderFieldValue(v) {
				return fmt.Sprintf("field value of %q", k)
			}
		}
	}
	return ""
}

// keyOf runs the key func; its error, or panic, is ErrKey.
func keyOf(f func(*http.Request) (string, error), req *http.Request) (key string, err error) {
	defer func() {
		if p := recover(); p != nil {
			key, err = "", fmt.Errorf("%w: the key func panicked: %v", ErrKey, p)
		}
	}()
	key, err = f(req)
	if err != nil && !errors.Is(err, ErrKey) {
		err = fmt.Errorf("%w: %w", ErrKey, err)
	}
	return key, err
}
