package remoting

import "errors"

// ErrInvalidConfig is returned for a Config that cannot run as written: a
// negative duration, a ping interval under gRPC's 10 s minimum, or an
// enforcement policy stricter than the ping interval.
var ErrInvalidConfig = errors.New("remoting: invalid config")
