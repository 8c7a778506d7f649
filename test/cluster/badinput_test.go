package cluster

import (
	"context"
	"errors"
	"testing"
	"time"

	protocluster "github.com/asynkron/protoactor-go/cluster"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/grain"
)

// A message that is no protobuf cannot cross the network (protoactor's
// remote would drop it and the caller wait for its deadline), so Call
// refuses it at once, without calling the grain or counting it.
func TestNotSerializable(t *testing.T) {
	tc := clusterFor(t)
	ctx := context.Background()
	// Given a breaker, with a long call timeout, in front of a grain on the
	// other member that has answered one call and failed one (the grain's
	// error cannot cross the network: that call ends at a short deadline)
	reg := newRegistry(t, tc)
	id := tc.identityOn(t, "nantes", tc.b.addr())
	register(t, tc, reg, "echo", id, tripwire.Settings{CallTimeout: 10 * time.Second})
	if _, err := reg.Call(ctx, "echo", wrapperspb.String("un")); err != nil {
		t.Fatalf("first call: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := reg.Call(short, "echo", wrapperspb.String(fail)); !errors.Is(err, tripwire.ErrTimeout) {
		t.Fatalf("failing call: %v, want ErrTimeout", err)
	}
	before := snapshot(t, reg, "echo")
	if before.Failures != 1 {
		t.Fatalf("snapshot %+v, want 1 failure", before)
	}

	for _, msg := range []any{"deux", struct{ N int }{2}, 2} {
		// When a caller calls it with msg, which is no proto.Message
		start := time.Now()
		_, err := reg.Call(ctx, "echo", msg)
		took := time.Since(start)

		// Then it gets ErrNotSerializable at once, not at the deadline
		if !errors.Is(err, tripwire.ErrNotSerializable) {
			t.Fatalf("Call(%T): %v, want ErrNotSerializable", msg, err)
		}
		if took > time.Second {
			t.Fatalf("Call(%T) took %v, want at once", msg, took)
		}
	}
	// When a caller calls it with nil, or CallAs with a string
	_, errNil := reg.Call(ctx, "echo", nil)
	_, errAs := tripwire.Key[any, *wrapperspb.StringValue](reg, "echo").Call(ctx, "trois")

	// Then nil is ErrInvalidMessage and the string ErrNotSerializable
	if !errors.Is(errNil, tripwire.ErrInvalidMessage) {
		t.Fatalf("Call(nil): %v, want ErrInvalidMessage", errNil)
	}
	if !errors.Is(errAs, tripwire.ErrNotSerializable) {
		t.Fatalf("CallAs(string): %v, want ErrNotSerializable", errAs)
	}

	// And the breaker is as it was: counted neither way (a success would
	// have cleared the failure), nothing in flight
	if after := snapshot(t, reg, "echo"); after.State != before.State || after.Failures != before.Failures ||
		after.InFlight != before.InFlight || after.Stats.Total != before.Stats.Total {
		t.Fatalf("snapshot %+v, want unchanged %+v", after, before)
	}
	// And the grain never got those messages: the next one is its third
	v, err := reg.Call(ctx, "echo", wrapperspb.String("quatre"))
	if err != nil {
		t.Fatalf("call after the refused ones: %v", err)
	}
	if _, n := echoReply(t, v); n != 3 {
		t.Fatalf("the grain has had %d messages, want 3: a refused message reached it", n)
	}
}

// grain.Target refuses a target it could never call.
func TestInvalidTarget(t *testing.T) {
	tc := clusterFor(t)
	cases := []struct {
		name           string
		c              *protocluster.Cluster
		kind, identity string
	}{
		{"empty kind", tc.a.c, "", "paris"},
		{"empty identity", tc.a.c, echoKind, ""},
		{"both empty", tc.a.c, "", ""},
		{"no cluster", nil, echoKind, "paris"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// When a grain target is made of them
			target, err := grain.Target(c.c, c.kind, c.identity)

			// Then it is ErrInvalidTarget, and there is no target to register
			if !errors.Is(err, tripwire.ErrInvalidTarget) || target != nil {
				t.Fatalf("grain.Target(%v, %q, %q): %v, %v; want ErrInvalidTarget", c.c, c.kind, c.identity, target, err)
			}
		})
	}
}

// A kind no member hosts is no Register error (the cluster may gain one),
// but its calls fail at once with ErrTargetDown.
func TestUnknownKind(t *testing.T) {
	tc := clusterFor(t)
	// Given a breaker in front of a grain of a kind no member hosts
	reg := newRegistry(t, tc)
	target, err := grain.Target(tc.a.c, "ghost", "paris")
	if err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(context.Background(), "ghost", target, tripwire.Settings{CallTimeout: 10 * time.Second}); err != nil {
		t.Fatalf("Register: %v", err)
	}

	// When a caller calls it
	start := time.Now()
	_, err = reg.Call(context.Background(), "ghost", wrapperspb.String("allô"))

	// Then it gets ErrTargetDown at once
	if !errors.Is(err, tripwire.ErrTargetDown) {
		t.Fatalf("Call: %v, want ErrTargetDown", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("Call took %v, want at once", took)
	}
}
