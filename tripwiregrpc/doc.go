// Package tripwiregrpc puts a Tripwire breaker per key in front of a gRPC
// client's unary calls: UnaryClientInterceptor returns a
// grpc.UnaryClientInterceptor on a registry the program shares.
//
//	intercept, err := tripwiregrpc.UnaryClientInterceptor(reg)
//	conn, err := grpc.Dial(target, grpc.WithUnaryInterceptor(intercept), ...)
//	err = conn.Invoke(ctx, "/shop.Cart/Get", req, reply)
//	if errors.Is(err, tripwire.ErrOpen) { ... } // status.Code(err) is codes.Unavailable
//
// The key of a call is its connection's target and its method by default
// (MethodKey: "dns:///cart.internal:443/shop.Cart/Get"); WithKey chooses
// another. A key's breaker is made on its first call through the
// registry's factory mechanism (tripwire.Registry.CallWith), with the
// settings of WithSettings and, unless they say otherwise, an IdleTimeout
// of DefaultIdleTimeout. The codes Unavailable, DeadlineExceeded and
// ResourceExhausted are failures, Canceled counts neither way, and every
// other answer is a success (DefaultClassify; WithClassifier chooses).
//
// The call runs on the registry's worker, under the call's deadline — the
// earlier of the caller's and the key's CallTimeout — which gRPC sends to
// the server. It is given a copy of the request and a reply message of its
// own, copied into the caller's when the caller gets the answer, so a call
// the breaker gave up on can never write into the caller's memory
// afterwards. Tripwire's own errors carry a gRPC status for callers that
// check status.Code: see UnaryClientInterceptor.
//
// This package imports gRPC; the root package does not.
package tripwiregrpc
