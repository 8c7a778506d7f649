package cluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// A grain that answers with a Go error value fails the call with that error,
// counted as a failure; only a grain on the registry's own member can: an
// error cannot cross the network (protoactor's remote drops a reply that
// is no protobuf), so the call to a grain elsewhere ends at its deadline.
func TestGrainRepliesError(t *testing.T) {
	tc := clusterFor(t)
	ctx := context.Background()
	cases := []struct {
		name, host string
		timeout    time.Duration // long where the answer must come, short where it cannot
		want       error
	}{
		{"on the registry's member: the error", tc.a.addr(), 10 * time.Second, errGrain},
		{"on another member: the deadline", tc.b.addr(), 300 * time.Millisecond, tripwire.ErrTimeout},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Given a breaker in front of a grain on c.host
			reg := newRegistry(t, tc)
			register(t, tc, reg, "echo", tc.identityOn(t, "rennes", c.host),
				tripwire.Settings{Threshold: 5, CallTimeout: c.timeout})

			// When the grain answers a call with a Go error
			_, err := reg.Call(ctx, "echo", wrapperspb.String(fail))

			// Then the call fails with c.want, and it counts as a failure
			if !errors.Is(err, c.want) {
				t.Fatalf("Call: %v, want %v", err, c.want)
			}
			if st := snapshot(t, reg, "echo"); st.State != state.Closed || st.Failures != 1 {
				t.Fatalf("snapshot %+v, want closed, 1 failure", st)
			}
		})
	}
}
