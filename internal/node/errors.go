package node

import "errors"

var (
	// ErrListen: a node could not listen on the address it was given.
	ErrListen = errors.New("node: cannot listen")
	// ErrInvalid: an address that is not host:port, or a negative latency.
	ErrInvalid = errors.New("node: invalid argument")
)
