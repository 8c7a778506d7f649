package tripwire_test

import (
	"context"
	"errors"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// Regression: bad input to a key whose circuit was open got the circuit's
// ErrOpen, and counted as a rejection, where Request refused it as
// ErrInvalidMessage.
func TestBadInputToAnOpenKeyIsRefusedAsSuch(t *testing.T) {
	sys := testkit.NewSystem(t)
	reg := testkit.Start(t, sys)
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) { c.Respond(c.Message()) }))
	testkit.Register(t, reg, "act", tripwire.ActorTarget(pid), tripwire.Settings{})
	testkit.Register(t, reg, "typed", tripwire.Func(func(_ context.Context, n int) (int, error) { return n, nil }), tripwire.Settings{})
	ctx := context.Background()
	for _, c := range []struct {
		key string
		msg any
	}{{"act", nil}, {"typed", "not an int"}} {
		// Given a key forced open
		if err := reg.ForceOpen(context.Background(), c.key); err != nil {
			t.Fatal(err)
		}
		// When it is called with a message its target refuses
		_, err := reg.Call(ctx, c.key, c.msg)
		// Then the call is ErrInvalidMessage, and counts nowhere
		if !errors.Is(err, tripwire.ErrInvalidMessage) {
			t.Errorf("%s: Call(%v): %v, want ErrInvalidMessage", c.key, c.msg, err)
		}
		if s := testkit.Snapshot(t, reg, c.key); s.Stats.Total.Calls != 0 {
			t.Errorf("%s: counted %+v, want nothing", c.key, s.Stats.Total)
		}
	}
}
