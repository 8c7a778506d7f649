package etcdprovider

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// etcdDown is a request to an etcd that never answers: it waits for its
// context, as gRPC does with the etcd client's WaitForReady.
func etcdDown(ctx context.Context, _ string, _, _ any, _ *grpc.ClientConn, _ ...grpc.CallOption) error {
	<-ctx.Done()
	return status.FromContextError(ctx.Err()).Err()
}

func TestRequestWithoutDeadlineGivesUpAfterTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &bound{timeout: 3 * time.Second}
		// When protoactor asks etcd something with context.TODO() and etcd never answers
		start := time.Now()
		err := b.unary(context.TODO(), "/etcdserverpb.KV/DeleteRange", nil, nil, nil, etcdDown)
		// Then the request gives up after the timeout, with ErrTimeout
		if !errors.Is(err, ErrTimeout) || time.Since(start) != 3*time.Second {
			t.Fatalf("unary = %v after %v, want ErrTimeout after 3s", err, time.Since(start))
		}
	})
}

func TestRequestWithItsOwnDeadlineKeepsIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &bound{timeout: 3 * time.Second}
		// When a request comes with a deadline of its own, longer than the timeout
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		start := time.Now()
		err := b.unary(ctx, "/etcdserverpb.KV/Range", nil, nil, nil, etcdDown)
		// Then it waits until that deadline, and its error is the caller's own
		if errors.Is(err, ErrTimeout) || status.Code(err) != codes.DeadlineExceeded || time.Since(start) != 10*time.Second {
			t.Fatalf("unary = %v after %v, want DeadlineExceeded after 10s", err, time.Since(start))
		}
	})
}

func TestRequestCancelledByItsCallerIsNoTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := &bound{timeout: 3 * time.Second}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Second, cancel)
		// When its caller gives a request up before the timeout
		err := b.unary(ctx, "/etcdserverpb.Watch/Watch", nil, nil, nil, etcdDown)
		// Then its error is the cancellation, not ErrTimeout
		if errors.Is(err, ErrTimeout) || status.Code(err) != codes.Canceled {
			t.Fatalf("unary = %v, want Canceled", err)
		}
	})
}

func TestAnsweredRequestPassesThrough(t *testing.T) {
	b := &bound{timeout: 3 * time.Second}
	refused := status.Error(codes.PermissionDenied, "no")
	err := b.unary(context.TODO(), "/etcdserverpb.KV/Put", nil, nil, nil,
		func(context.Context, string, any, any, *grpc.ClientConn, ...grpc.CallOption) error { return refused })
	if err != refused {
		t.Fatalf("unary = %v, want etcd's own error unchanged", err)
	}
}
