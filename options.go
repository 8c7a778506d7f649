package tripwire

import (
	"fmt"

	"go.uber.org/zap"
)

// Option configures a registry's dependencies at Start.
type Option interface {
	apply(*options) error
}

type options struct {
	logger *zap.Logger
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
