package tripwire

import (
	"fmt"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"
)

// Option configures a registry's dependencies at Start.
type Option interface {
	apply(*options) error
}

type options struct {
	logger  *zap.Logger
	meters  metric.MeterProvider
	tracer  trace.TracerProvider
	factory Factory
}

type optionFunc func(*options) error

func (f optionFunc) apply(o *options) error { return f(o) }

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
// tripwire.call.duration, tripwire.state, tripwire.transitions,
// tripwire.restarts) with mp. Without it nothing is measured and the call
// path pays nothing.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return optionFunc(func(o *options) error {
		if mp == nil {
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
		if tp == nil {
			return fmt.Errorf("%w: WithTracerProvider(nil)", ErrInvalidOption)
		}
		o.tracer = tp
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
	return o, nil
}
