package tripwiregrpc

import (
	"context"
	"fmt"

	"google.golang.org/grpc"
)

// MethodKey is the default key of a call: its connection's target as it
// was dialled, followed by the full method name —
// "dns:///cart.internal:443/shop.Cart/Get" — so each method of each server
// has a breaker of its own. A nil connection or an empty method is ErrKey.
func MethodKey(_ context.Context, cc *grpc.ClientConn, method string) (string, error) {
	if cc == nil || method == "" {
		return "", fmt.Errorf("%w: a call without a connection or a method", ErrKey)
	}
	return cc.Target() + method, nil
}

// TargetKey is a key func for WithKey that gives all the methods of one
// connection's target one breaker: "dns:///cart.internal:443". A nil
// connection is ErrKey.
func TargetKey(_ context.Context, cc *grpc.ClientConn, _ string) (string, error) {
	if cc == nil {
		return "", fmt.Errorf("%w: a call without a connection", ErrKey)
	}
	return cc.Target(), nil
}
