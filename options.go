package tripwire

import (
	"fmt"
	"reflect"

	"github.com/asynkron/protoactor-go/actor"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
)

// Option configures a registry's dependencies at Start.
type Option interface {
	apply(*options) error
}

type options struct {
	system  *actor.ActorSystem
	logger  *zap.Logger
	meters  metric.MeterProvider
	tracer  trace.TracerProvider
	factory Factory
	maxKeys int
	byKey   bool // WithLatencyByKey
}

type optionFunc func(*options) error

func (f optionFunc) apply(o *options) error { return f(o) }

// WithActorSystem starts the registry on sys, an actor system of the
// program's own (its actor targets' usually), which Shutdown leaves
// running. Without it Start creates one whose logs go to the WithLogger
// logger, and Shutdown stops it.
func WithActorSystem(sys *actor.ActorSystem) Option {
	return optionFunc(func(o *options) error {
		if sys == nil {
			return fmt.Errorf("%w: WithActorSystem(nil)", ErrInvalidOption)
		}
		o.system = sys
		return nil
	})
}

// WithLogger sends the registry's logs, and those of an actor system that
// Start creates, to l. The default is zap.NewNop().
func WithLogger(l *zap.Logger) Option {
	return optionFunc(func(o *options) error {
		if l == nil {
			return fmt.Errorf("%w: WithLogger(nil)", ErrInvalidOption)
		}
		o.logger = l
		return nil
	})
}

// WithMeterProvider records Tripwire's metrics (tripwire.calls,
// tripwire.call.time, tripwire.call.duration, tripwire.state,
// tripwire.transitions, tripwire.restarts, tripwire.keys.refused) with mp. Every per-key
// instrument is observable, so a key that is unregistered or forgotten
// leaves them at the next collection; the duration histogram has the
// outcome alone unless WithLatencyByKey. Without it nothing is measured and
// the call path pays nothing.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return optionFunc(func(o *options) error {
		if mp == nil || nilPointer(mp) {
			return fmt.Errorf("%w: WithMeterProvider(nil)", ErrInvalidOption)
		}
		o.meters = mp
		return nil
	})
}

// WithTracerProvider records a span per forwarded call (a child of the span
// in the caller's context, passed on to a function target) and a short
// internal span per state change. Without it no span is made.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return optionFunc(func(o *options) error {
		if tp == nil || nilPointer(tp) {
			return fmt.Errorf("%w: WithTracerProvider(nil)", ErrInvalidOption)
		}
		o.tracer = tp
		return nil
	})
}

// WithLatencyByKey adds tripwire.key to the tripwire.call.duration
// histogram, for percentiles per key in Grafana. A synchronous histogram
// cannot drop a series: those of keys that are unregistered or forgotten
// stay until the process restarts, so use it for a registry whose keys are
// few and fixed (Snapshot has every key's percentiles at any count). It
// needs WithMeterProvider.
func WithLatencyByKey() Option {
	return optionFunc(func(o *options) error {
		o.byKey = true
		return nil
	})
}

// WithMaxKeys bounds the registry's keys at n. When a new key — made by
// the factory, or registered — would pass n, the key passivated longest ago
// (an idle breaker stopped by its IdleTimeout, hence closed and unforced)
// among those the factory made is forgotten: it leaves the registry and the
// metrics, and its next call makes it again, as for a key never seen. A key
// registered with Register is never forgotten. When no key can be, the new
// key is refused with ErrTooManyKeys (counted in tripwire.keys.refused) and
// nothing changes. Without it the key set is unbounded.
func WithMaxKeys(n int) Option {
	return optionFunc(func(o *options) error {
		if n < 1 {
			return fmt.Errorf("%w: WithMaxKeys(%d): want at least 1", ErrInvalidOption, n)
		}
		o.maxKeys = n
		return nil
	})
}

func buildOptions(opts []Option) (options, error) {
	o := options{logger: zap.NewNop()}
	for _, opt := range opts {
		if opt == nil {
			return o, fmt.Errorf("%w: nil Option", ErrInvalidOption)
		}
		if err := opt.apply(&o); err != nil {
			return o, err
		}
	}
	if o.byKey && o.meters == nil {
		return o, fmt.Errorf("%w: WithLatencyByKey without WithMeterProvider", ErrInvalidOption)
	}
	return o, nil
}

// nilPointer reports whether v is a nil pointer: an interface holding one
// is not nil, and an SDK's provider dereferences itself at its first use.
func nilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
