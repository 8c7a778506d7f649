package remoting

import "errors"

// ErrInvalidConfig is returned for a Config that cannot run as written: a
// negative duration, a ping interval under gRPC's 10 s minimum, an
// enforcement policy stricter than the ping interval, a ConnectTimeout or
// IdleTimeout under its minimum, a TLS config that is not mutual, skips
// verification or has no certificate, or TLS files that cannot be read.
var ErrInvalidConfig = errors.New("remoting: invalid config")

// The reasons the guard refuses what a peer sent (Refusal.Err wraps one).
var (
	// ErrUnknownType: a message whose type this process does not link, so
	// protoactor's protobuf serializer cannot decode it.
	ErrUnknownType = errors.New("remoting: unknown message type")
	// ErrUnknownSerializer: a message for a serializer this process does
	// not have (or whose decoding of it panics).
	ErrUnknownSerializer = errors.New("remoting: unknown serializer")
	// ErrMalformed: a message batch whose envelope points outside the
	// batch's tables of types, targets or senders, or a message of
	// protoactor's own (a Watch, a Terminated...) without the PID it needs.
	ErrMalformed = errors.New("remoting: malformed message")
	// ErrUnimplemented: a call of protoactor's remote service that
	// protoactor does not implement (it panics on ListProcesses and
	// GetProcessDiagnostics).
	ErrUnimplemented = errors.New("remoting: unimplemented call")
	// ErrPanicked: protoactor's endpoint panicked on what a peer sent
	// nonetheless; the guard ended that peer's stream and the node goes on.
	ErrPanicked = errors.New("remoting: protoactor panicked on a peer's message")
)
