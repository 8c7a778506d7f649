// Package tripwirehttp puts a Tripwire breaker per key in front of an HTTP
// transport: a Transport is an http.RoundTripper for an http.Client.
//
//	t, err := tripwirehttp.New(reg, nil) // nil: http.DefaultTransport
//	client := &http.Client{Transport: t}
//	resp, err := client.Get("https://api.example.com/v1/items")
//	if errors.Is(err, tripwire.ErrOpen) { ... } // api.example.com is failing
//
// The key of a request is its scheme, host and port by default
// (HostKey: "https://api.example.com:443"); WithKey chooses another. A key's
// breaker is made on its first request through the registry's factory
// mechanism (tripwire.Registry.CallWith), exactly once, with the settings of
// WithSettings and, unless they say otherwise, an IdleTimeout of
// DefaultIdleTimeout, so breakers of hosts no longer called are stopped.
//
// A transport error and a 5xx or 429 response are failures, any other
// response a success (DefaultClassify; WithClassifier chooses). A response
// is always returned to its caller with its body unread, failure or not,
// as net/http returns it; the breaker only counts it. The body stays
// readable after RoundTrip returns, until it is closed or the request's own
// context ends, while a round trip the breaker gives up on (its
// CallTimeout) is cancelled. A response nobody receives — it came back
// after its caller was answered — is drained (up to 64 KiB) and closed, so
// neither its body nor its connection leaks.
package tripwirehttp
