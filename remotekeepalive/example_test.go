package remotekeepalive_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/remote"

	"github.com/tripwire-go/tripwire/remotekeepalive"
)

func ExampleOptions() {
	// Every node: ping after 10 s of silence, give up after 5 s more.
	opts, err := remotekeepalive.Options(remotekeepalive.Config{Time: 10 * time.Second, Timeout: 5 * time.Second})
	if err != nil {
		panic(err)
	}
	cfg := remote.Configure("127.0.0.1", 7070, opts...) // then remote.NewRemote(sys, cfg).Start()
	fmt.Println(len(cfg.DialOptions), len(cfg.ServerOptions))

	// gRPC's client side never pings more often than every 10 s.
	_, err = remotekeepalive.Options(remotekeepalive.Config{Time: time.Second})
	fmt.Println(errors.Is(err, remotekeepalive.ErrInvalidConfig))
	// Output:
	// 3 2
	// true
}
