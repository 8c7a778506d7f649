package tripwirehttp

import "errors"

// Sentinel errors, for errors.Is. No request is sent when RoundTrip returns
// one of them.
var (
	// ErrKey: the request has no breaker key. The key func failed (its
	// error is wrapped too), or gave a key the registry refuses
	// (tripwire.ErrInvalidKey is then in the chain too).
	ErrKey = errors.New("tripwirehttp: no breaker key for the request")
	// ErrInvalidRequest: a nil request, or one without a URL or a Header, or
	// (http and https) with a method, header or trailer net/http would not send.
	ErrInvalidRequest = errors.New("tripwirehttp: invalid request")
)
