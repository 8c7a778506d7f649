package etcdprovider

import "errors"

// Errors. Compare with errors.Is.
var (
	// ErrInvalidConfig: no endpoint, or a negative duration.
	ErrInvalidConfig = errors.New("etcdprovider: invalid config")
	// ErrTimeout: etcd did not answer a request within Config.Timeout.
	ErrTimeout = errors.New("etcdprovider: etcd did not answer in time")
	// ErrDeregister: Shutdown could not delete the member's key (etcd is
	// gone, say). The other members drop it anyway once its lease expires.
	ErrDeregister = errors.New("etcdprovider: could not leave etcd")
)
