package scale

import (
	"context"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// coldCalls is how many calls one run of BenchmarkColdCall times.
const coldCalls = 200_000

// BenchmarkColdCall is a closed call of a key whose memory is cold in the
// caches — 20,000 live keys called in turn, as a service calls its hosts or
// tenants — next to the same call of one hot key, in the same run: what a
// call pays for its key's breaker, statistics and mailbox not being cached.
func BenchmarkColdCall(b *testing.B) {
	for _, c := range []struct {
		name string
		keys int
	}{{"hot", 1}, {"cold", 20_000}} {
		b.Run(c.name, func(b *testing.B) {
			sys := testkit.NewSystem(b)
			reg, err := tripwire.Start(tripwire.WithActorSystem(sys), tripwire.WithFactory(func(context.Context, string) (tripwire.Target, tripwire.Settings, error) {
				return ok, tripwire.Settings{IdleTimeout: time.Hour, CallTimeout: time.Second}, nil
			}))
			if err != nil {
				b.Fatal(err)
			}
			defer func() { _ = reg.Shutdown(context.Background()) }()
			callAll(b, reg, 0, c.keys, 1)
			keys := make([]string, c.keys)
			for i := range keys {
				keys[i] = key(i)
			}
			for b.Loop() {
				t0 := time.Now()
				for i := range coldCalls {
					if _, err := reg.Call(context.Background(), keys[i%c.keys], nil); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(time.Since(t0).Nanoseconds())/coldCalls, "ns/call")
			}
		})
	}
}
