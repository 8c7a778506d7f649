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

// A grain that stops while a call waits on it fails that call at once with
// ErrTargetDown, not at its deadline, and the next call finds the grain
// again (a new activation).
func TestGrainStops(t *testing.T) {
	tc := clusterFor(t)
	for _, host := range []struct{ name, addr string }{
		{"on the registry's member", tc.a.addr()},
		{"on the other member", tc.b.addr()},
	} {
		t.Run(host.name, func(t *testing.T) {
			ctx := context.Background()
			const timeout = 10 * time.Second
			// Given a breaker with a long call timeout in front of a grain
			// on host, and a call that the grain holds unanswered
			reg := newRegistry(t, tc)
			id := tc.identityOn(t, "lille", host.addr)
			register(t, tc, reg, "echo", id, tripwire.Settings{Threshold: 10, CallTimeout: timeout})
			held := make(chan error, 1)
			start := time.Now()
			go func() {
				_, err := reg.Call(ctx, "echo", tc.holds.message())
				held <- err
			}()
			within(t, 5*time.Second, "the grain holds the call", tc.holds.ch)

			// When the grain is stopped (poisoned)
			pid := tc.a.c.Get(id, echoKind)
			if pid == nil || pid.Address != host.addr {
				t.Fatalf("grain %s is at %v, want on %s", id, pid, host.addr)
			}
			tc.a.system().Root.Poison(pid)

			// Then the held call fails with ErrTargetDown, long before its deadline
			select {
			case err := <-held:
				if !errors.Is(err, tripwire.ErrTargetDown) {
					t.Fatalf("held call: %v, want ErrTargetDown", err)
				}
				if took := time.Since(start); took > timeout/2 {
					t.Fatalf("held call failed after %v, want at once (its deadline was %v)", took, timeout)
				}
			case <-time.After(timeout / 2):
				t.Fatalf("held call still waiting %v after its grain stopped", timeout/2)
			}
			// And it counted as one failure; the breaker stays closed
			if st := snapshot(t, reg, "echo"); st.State != state.Closed || st.Failures != 1 || st.InFlight != 0 {
				t.Fatalf("snapshot %+v, want closed, 1 failure, 0 in flight", st)
			}

			// When a caller calls the grain again (until the cluster has
			// seen the old activation end: a lookup just before that still
			// returns the dead one, ErrTargetDown too)
			var v any
			eventually(t, 5*time.Second, "a call reaches a new activation", func() bool {
				var err error
				v, err = reg.Call(ctx, "echo", wrapperspb.String("revoilà"))
				if err != nil && !errors.Is(err, tripwire.ErrTargetDown) {
					t.Fatalf("call after the grain stopped: %v, want a reply or ErrTargetDown", err)
				}
				return err == nil
			})

			// Then a new activation of the grain, on the same member, answers
			if addr, n := echoReply(t, v); addr != host.addr || n != 1 {
				t.Fatalf("reply from %s #%d, want %s #1 (a new activation)", addr, n, host.addr)
			}
			if st := snapshot(t, reg, "echo"); st.State != state.Closed || st.Failures != 0 {
				t.Fatalf("snapshot %+v, want closed, 0 failures", st)
			}
		})
	}
}
