package tripwire_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// Every breaker keeps its key's statistics; Snapshots reads the keys a
// Filter picks — at a million keys, only those.
func ExampleRegistry_Snapshots() {
	reg, err := tripwire.Start()
	if err != nil {
		panic(err)
	}
	defer reg.Shutdown(context.Background())
	fail := func(context.Context, string) (string, error) { return "", errors.New("no route") }
	for _, key := range []string{"host-a", "host-b", "tenant-1"} {
		_ = reg.Register(context.Background(), key, tripwire.Func(fail), tripwire.Settings{Threshold: 2})
	}
	ctx := context.Background()
	for range 3 {
		_, _ = reg.Call(ctx, "host-b", "GET /") // two failures, then a rejection
	}

	open := tripwire.Filter{Prefix: "host-", States: []state.State{state.Open}}
	_ = reg.Snapshots(ctx, open, func(s tripwire.Snapshot) bool {
		st := s.Stats
		fmt.Println(s.Key, s.State, s.Reason, st.Recent.Calls, st.Recent.Failures, st.Recent.Rejected, st.ErrorPercent)
		return true // false stops the listing
	})
	// Output:
	// host-b open threshold 3 2 1 100
}
