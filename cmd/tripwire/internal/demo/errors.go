package demo

import "errors"

var (
	// ErrInvalidConfig: a Config field is out of range.
	ErrInvalidConfig = errors.New("demo: invalid config")
	// ErrUnknownPattern: ParsePattern got a name it does not know.
	ErrUnknownPattern = errors.New("demo: unknown failure pattern")
)
