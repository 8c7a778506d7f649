package remotekeepalive

import "errors"

// ErrInvalidConfig is returned for a Config that gRPC would not honour as
// written: a negative duration, a ping interval under gRPC's 10 s minimum,
// or an enforcement policy stricter than the ping interval.
var ErrInvalidConfig = errors.New("remotekeepalive: invalid config")
