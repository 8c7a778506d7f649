package cluster

import (
	"context"
	"errors"
	"testing"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/state"
)

// A closed breaker in front of a grain passes the call to the grain,
// wherever it lives, and returns its reply.
func TestPassThrough(t *testing.T) {
	tc := clusterFor(t)
	paris := tc.fresh("paris")
	host := tc.hostOf(t, paris)
	other := tc.b.addr()
	if host == other {
		other = tc.a.addr()
	}
	cases := []struct{ name, id, host string }{
		{"paris, where disthash put it", paris, host},
		{"a grain on the other member", tc.identityOn(t, "lyon", other), other},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			// Given a registry on member a, and a breaker in front of the
			// echo grain c.id, which lives on c.host
			reg := newRegistry(t, tc)
			register(t, tc, reg, "echo", c.id, tripwire.Settings{})

			// When a caller calls it
			v, err := reg.Call(ctx, "echo", wrapperspb.String("bonjour"))

			// Then the grain's reply comes back: from c.host, its first message
			if err != nil {
				t.Fatalf("Call: %v", err)
			}
			if addr, n := echoReply(t, v); addr != c.host || n != 1 {
				t.Fatalf("reply from %s #%d, want %s #1", addr, n, c.host)
			}

			// When a caller calls it with CallAs
			s, err := tripwire.Key[any, *wrapperspb.StringValue](reg, "echo").Call(ctx, wrapperspb.String("encore"))

			// Then it gets the reply typed, from the same activation
			if err != nil {
				t.Fatalf("CallAs: %v", err)
			}
			if addr, n := echoReply(t, s); addr != c.host || n != 2 {
				t.Fatalf("CallAs reply from %s #%d, want %s #2", addr, n, c.host)
			}

			// When a caller asks for another reply type
			_, err = tripwire.Key[any, *wrapperspb.Int64Value](reg, "echo").Call(ctx, wrapperspb.String("nombre"))

			// Then it gets ErrUnexpectedReply
			if !errors.Is(err, tripwire.ErrUnexpectedReply) {
				t.Fatalf("CallAs[*Int64Value]: %v, want ErrUnexpectedReply", err)
			}

			// And the breaker is closed with nothing counted against the grain
			if st := snapshot(t, reg, "echo"); st.State != state.Closed || st.Failures != 0 || st.InFlight != 0 {
				t.Fatalf("snapshot %+v, want closed, 0 failures, 0 in flight", st)
			}
		})
	}
}
