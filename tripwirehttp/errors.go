package tripwirehttp

import "errors"

// Sentinel errors, for errors.Is. No request is sent when RoundTrip returns
// one of them.
var (
	// ErrKey: the request has no breaker key. The key func failed (its
	// error is wrapped too), or gave a key the registry refuses
	// (tripwire.ErrInvalidKey is then in the chain too).
	ErrKey = errors.New("tripwirehttp: no breaker key for the request")
	// ErrInvalidRequest: a nil request, or one without a URL, a Header or
	// a scheme, or one net/http would refuse before it dials: http or
	// https not in lower case ("HTTPS"), or (http and https) no host in
	// the URL, or a method, header or trailer it would not send.
	ErrInvalidRequest = errors.New("tripwirehttp: invalid request")
)
