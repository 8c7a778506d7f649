package cluster

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
)

// A call to a grain carries its deadline in the message header, as an ask
// to an actor target does, wherever the grain lives: a grain kind behind
// remoting.ShedExpired drops a call whose caller has had ErrTimeout.
func TestGrainSeesTheCallDeadline(t *testing.T) {
	tc := clusterFor(t)
	for _, host := range []struct{ name, addr string }{
		{"on the registry's member", tc.a.addr()},
		{"on the other member", tc.b.addr()},
	} {
		t.Run(host.name, func(t *testing.T) {
			// Given a breaker in front of a grain that lives on host
			reg := newRegistry(t, tc)
			register(t, tc, reg, "deadline", tc.identityOn(t, "deadline", host.addr), tripwire.Settings{CallTimeout: 5 * time.Second})
			// When it is called with a deadline sooner than CallTimeout
			want := time.Now().Add(3 * time.Second)
			ctx, cancel := context.WithDeadline(context.Background(), want)
			defer cancel()
			v, err := tripwire.Key[any, *wrapperspb.StringValue](reg, "deadline").Call(ctx, wrapperspb.String(deadline))
			if err != nil {
				t.Fatal(err)
			}
			// Then the grain saw that deadline in the header
			ns, err := strconv.ParseInt(strings.TrimPrefix(v.GetValue(), deadline+" "), 10, 64)
			if err != nil || !time.Unix(0, ns).Equal(want) {
				t.Fatalf("the grain saw %q, want the deadline %d", v.GetValue(), want.UnixNano())
			}
		})
	}
}
