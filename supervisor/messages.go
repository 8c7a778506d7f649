package supervisor

import "github.com/tripwire-go/tripwire/registry"

// Register is sent by the registry API to add a key; Reply gets nil or
// ErrDuplicateKey.
type Register struct {
	Entry *registry.Entry
	Reply chan error
}

// Unregister is sent by the registry API to remove a key; Reply gets nil once
// the key's breaker has stopped and answered its calls, or ErrUnknownKey.
type Unregister struct {
	Key   string
	Reply chan error
}

// Wake is sent by a caller that found its key's breaker passivated; Reply
// gets nil once a breaker serves the key again.
type Wake struct {
	Entry *registry.Entry
	Reply chan error
}
