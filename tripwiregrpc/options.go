package tripwiregrpc

import (
	"context"
	"time"

	"google.golang.org/grpc"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/adapter"
	"github.com/tripwire-go/tripwire/state"
)

// DefaultIdleTimeout is the Settings.IdleTimeout of a key whose settings
// leave it zero: a method not called for that long has its breaker stopped
// (closed breakers only), and its next call starts it again.
const DefaultIdleTimeout = 5 * time.Minute

// KeyFunc gives a call its breaker key.
type KeyFunc func(ctx context.Context, cc *grpc.ClientConn, method string) (string, error)

// Option configures UnaryClientInterceptor. Options apply in order: a
// later one of the same kind replaces an earlier one (WithSettings and
// WithSettingsFor are one kind).
type Option interface {
	apply(*config) error
}

type config = adapter.Config[KeyFunc, func(error) state.Verdict]

type optionFunc func(*config) error

func (f optionFunc) apply(c *config) error { return f(c) }

// WithKey makes f give each call its key instead of MethodKey: TargetKey
// for one breaker per server, or a key of the program's own. An error from
// f is returned wrapped in ErrKey, and the call is not sent. Keys share the
// registry's namespace: choose keys the program's own Register calls do
// not use.
func WithKey(f KeyFunc) Option {
	return optionFunc(func(c *config) error { return adapter.Set(&c.Key, f, f == nil, "WithKey") })
}

// WithSettings gives every key the interceptor makes the settings s (zero
// fields take their defaults; IdleTimeout takes DefaultIdleTimeout).
// Classification is WithClassifier's: s must leave Classify and IsFailure
// nil. Settings that Register would refuse are ErrInvalidSettings here. The settings of a key are those of the first call that made it.
func WithSettings(s tripwire.Settings) Option {
	return optionFunc(func(c *config) error { return c.SetSettings("tripwiregrpc", s) })
}

// WithSettingsFor gives each key the settings f returns for it, when its
// breaker is made. An error from f fails that call, wrapped, without
// sending it; the next call to the key asks f again.
func WithSettingsFor(f func(key string) (tripwire.Settings, error)) Option {
	return optionFunc(func(c *config) error { return adapter.Set(&c.Settings, f, f == nil, "WithSettingsFor") })
}

// WithClassifier makes f decide how each call's answer counts instead of
// DefaultClassify: state.Success, state.Failure or state.Ignore,
// from the invoker's error (nil for a success). FailureCodes makes one from
// a list of codes. f runs on the registry's worker; a panic in it counts as
// a failure.
func WithClassifier(f func(err error) state.Verdict) Option {
	return optionFunc(func(c *config) error { return adapter.Set(&c.Classify, f, f == nil, "WithClassifier") })
}
