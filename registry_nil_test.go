package tripwire_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tripwire-go/tripwire"
)

// A nil *Registry (what a failed Start returns) and a zero Registry are no
// registry: every method returns ErrInvalidOption, or nothing, and none
// panics.
func TestANilOrZeroRegistryRefusesEveryMethod(t *testing.T) {
	ctx := context.Background()
	echo := tripwire.FuncTarget(func(_ context.Context, msg any) (any, error) { return msg, nil })
	factory := func(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
		t.Error("the factory ran")
		return echo, tripwire.Settings{}, nil
	}
	for name, reg := range map[string]*tripwire.Registry{"nil": nil, "zero": {}} {
		t.Run(name, func(t *testing.T) {
			errs := map[string]error{}
			_, errs["Call"] = reg.Call(ctx, "k", "m")
			_, errs["CallWith"] = reg.CallWith(ctx, "k", "m", factory)
			_, errs["CallAs"] = tripwire.CallAs[string](ctx, reg, "k", "m")
			errs["Register"] = reg.Register("k", echo, tripwire.Settings{})
			errs["Unregister"] = reg.Unregister("k")
			errs["ForceOpen"] = reg.ForceOpen("k")
			errs["ForceClose"] = reg.ForceClose("k")
			errs["Reset"] = reg.Reset("k")
			errs["ProbeNow"] = reg.ProbeNow("k")
			errs["Update"] = reg.Update("k", tripwire.Settings{})
			_, errs["Snapshot"] = reg.Snapshot("k")
			errs["Crash"] = reg.Crash("k")
			_, errs["State"] = reg.State("k")
			errs["Request"] = reg.Request(nil, "k", "m")
			errs["Snapshots"] = reg.Snapshots(ctx, tripwire.Filter{}, func(tripwire.Snapshot) bool { return true })
			errs["Shutdown"] = reg.Shutdown(ctx)
			for method, err := range errs {
				require.ErrorIs(t, err, tripwire.ErrInvalidOption, method)
			}
			require.Empty(t, reg.Keys())
			require.Zero(t, reg.Workers())
			reg.Subscribe(func(tripwire.Transition) { t.Error("a transition of no registry") })()
		})
	}
}
