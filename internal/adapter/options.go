package adapter

import (
	"fmt"

	"github.com/tripwire-go/tripwire"
)

// Config is what an adapter's options set: the func that gives a call its
// key (K, of the adapter's own type), the settings of a key, and the func
// that classifies a call's result (C). Each adapter documents its options;
// their work is here, once.
type Config[K, C any] struct {
	Key      K
	Settings func(key string) (tripwire.Settings, error)
	Classify C
}

// Build is the Config of key and classify with opts applied in order (a
// nil option is ErrInvalidOption); every key has the default settings
// unless an option says otherwise.
func Build[K, C any](key K, classify C, opts []func(*Config[K, C]) error) (Config[K, C], error) {
	c := Config[K, C]{
		Key:      key,
		Settings: func(string) (tripwire.Settings, error) { return tripwire.Settings{}, nil },
		Classify: classify,
	}
	for _, o := range opts {
		if o == nil {
			return c, fmt.Errorf("%w: nil Option", tripwire.ErrInvalidOption)
		}
		if err := o(&c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// Set sets *field to f, or refuses a nil f (isNil) as option name's
// ErrInvalidOption.
func Set[F any](field *F, f F, isNil bool, name string) error {
	if isNil {
		return fmt.Errorf("%w: %s(nil)", tripwire.ErrInvalidOption, name)
	}
	*field = f
	return nil
}

// SetSettings gives every key the settings s, which adapter pkg checks
// (CheckSettings) now.
func (c *Config[K, C]) SetSettings(pkg string, s tripwire.Settings) error {
	if err := CheckSettings(pkg, s); err != nil {
		return err
	}
	c.Settings = func(string) (tripwire.Settings, error) { return s, nil }
	return nil
}
