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

// wake is sent by the mailbox of a passivated key when something is posted
// to it: the key gets a breaker again, which takes what waited.
type wake struct{ entry *registry.Entry }
