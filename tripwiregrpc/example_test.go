package tripwiregrpc_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/tripwiregrpc"
)

// The interceptor gives each method of each server a breaker: once the
// server is gone, two failed calls open the circuit, and the next call is
// refused at once, with ErrOpen and the status code Unavailable.
func Example() {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	server := grpc.NewServer()
	healthpb.RegisterHealthServer(server, health.NewServer())
	go func() { _ = server.Serve(lis) }()

	reg, err := tripwire.Start()
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(context.Background())

	intercept, err := tripwiregrpc.UnaryClientInterceptor(reg,
		tripwiregrpc.WithSettings(tripwire.Settings{Threshold: 2, OpenTimeout: time.Minute}))
	if err != nil {
		panic(err)
	}
	conn, err := grpc.Dial(lis.Addr().String(),
		grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithUnaryInterceptor(intercept))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)

	resp, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{})
	fmt.Println(resp.GetStatus(), err)

	server.Stop()
	for range 3 {
		_, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{})
		fmt.Println(status.Code(err), errors.Is(err, tripwire.ErrOpen))
	}
	fmt.Println(reg.Keys()[0] == lis.Addr().String()+"/grpc.health.v1.Health/Check")
	// Output:
	// SERVING <nil>
	// Unavailable false
	// Unavailable false
	// Unavailable true
	// true
}

// FailureCodes chooses the codes that count as failures; WithKey what
// shares a breaker — here one per server, for all its methods.
func ExampleFailureCodes() {
	reg, _ := tripwire.Start()
	defer reg.Shutdown(context.Background())

	intercept, err := tripwiregrpc.UnaryClientInterceptor(reg,
		tripwiregrpc.WithKey(tripwiregrpc.TargetKey),
		tripwiregrpc.WithClassifier(tripwiregrpc.FailureCodes(codes.Unavailable, codes.Internal)),
		tripwiregrpc.WithSettings(tripwire.Settings{Threshold: 3, CallTimeout: time.Second}))
	fmt.Println(intercept != nil, err)
	// Output:
	// true <nil>
}
