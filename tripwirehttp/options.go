package tripwirehttp

import (
	"net/http"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/adapter"
	"github.com/tripwire-go/tripwire/state"
)

// DefaultIdleTimeout is the Settings.IdleTimeout of a key whose settings
// leave it zero: a host not called for that long has its breaker stopped
// (closed breakers only), and its next request starts it again.
const DefaultIdleTimeout = 5 * time.Minute

// Option configures a Transport at New. Options apply in order: a later
// one of the same kind replaces an earlier one (WithSettings and
// WithSettingsFor are one kind).
type Option interface {
	apply(*config) error
}

type config = adapter.Config[func(*http.Request) (string, error), func(*http.Response, error) state.Verdict]

type optionFunc func(*config) error

func (f optionFunc) apply(c *config) error { return f(c) }

// WithKey makes f give each request its key instead of HostKey: one
// breaker per host and path prefix, per tenant, or one for a whole API. An
// error from f is returned wrapped in ErrKey, and no request is sent. Keys
// share the registry's namespace: choose keys the program's own Register
// calls do not use.
func WithKey(f func(*http.Request) (string, error)) Option {
	return optionFunc(func(c *config) error { return adapter.Set(&c.Key, f, f == nil, "WithKey") })
}

// WithSettings gives every key the Transport makes the settings s (zero
// fields take their defaults; IdleTimeout takes DefaultIdleTimeout).
// Classification is WithClassifier's: s must leave Classify and IsFailure
// nil. Settings that Register would refuse are ErrInvalidSettings here. The settings of a key are those of the first request that made it.
func WithSettings(s tripwire.Settings) Option {
	return optionFunc(func(c *config) error { return c.SetSettings("tripwirehttp", s) })
}

// WithSettingsFor gives each key the settings f returns for it, when its
// breaker is made (per host: a longer CallTimeout for a slow API). An error
// from f fails that request, wrapped, without sending it; the next request
// to the key asks f again.
func WithSettingsFor(f func(key string) (tripwire.Settings, error)) Option {
	return optionFunc(func(c *config) error { return adapter.Set(&c.Settings, f, f == nil, "WithSettingsFor") })
}

// WithClassifier makes f decide how each round trip counts instead of
// DefaultClassify: state.Success, state.Failure or state.Ignore.
// f runs on the registry's worker once the round trip returned — off the
// caller's goroutine and off the breaker's — with the response (nil with an
// error). It must not read or close the body, which is its caller's; a
// panic in it counts as a failure.
func WithClassifier(f func(*http.Response, error) state.Verdict) Option {
	return optionFunc(func(c *config) error { return adapter.Set(&c.Classify, f, f == nil, "WithClassifier") })
}
