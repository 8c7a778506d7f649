package soak

import "fmt"

// ConfigError is the error Config.Validate returns: which field is out of
// range, its value, and what it should be. It wraps ErrInvalidConfig.
type ConfigError struct {
	Field string // a Config field, or "Callers+Askers"
	Value any
	Want  string // the range, e.g. "≥ 0" or "0..1"
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%v: %s = %v, want %s", ErrInvalidConfig, e.Field, e.Value, e.Want)
}

func (e *ConfigError) Unwrap() error { return ErrInvalidConfig }
