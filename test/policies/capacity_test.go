package policies

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

func TestMaxInFlightRejectsAtOnceAndCountsNeitherWay(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a key with MaxInFlight 5 and 2 failures counted
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "cap", s.Func(nil), tripwire.Settings{
			Threshold: 10, MaxInFlight: 5, CallTimeout: 10 * time.Second,
		})
		for range 2 {
			_, _ = call(e.Reg, "cap", failOp)
		}
		// and 5 calls hung in its target
		start := time.Now()
		var hung []<-chan testkit.Result
		for range 5 {
			hung = append(hung, goCall(e.Reg, "cap", tripwiretest.Op{Hang: true}))
		}
		for _, h := range hung {
			testkit.StillPending(t, h, "hung call")
		}
		if n := testkit.Snapshot(t, e.Reg, "cap").InFlight; n != 5 {
			t.Fatalf("InFlight %d; want 5", n)
		}
		reached := s.Counts().Calls

		// When 100 more calls come
		for i := range 100 {
			_, err := call(e.Reg, "cap", okOp)
			// Then each gets ErrOverloaded at once, without reaching the target
			wantErr(t, "call beyond MaxInFlight", err, tripwire.ErrOverloaded)
			if d := time.Since(start); d != 0 {
				t.Fatalf("call %d rejected after %v of fake time; want at once", i, d)
			}
		}
		if s.Counts().Calls != reached {
			t.Fatalf("overloaded calls reached the target")
		}
		// and they count neither as failures nor as successes
		testkit.WantCircuit(t, e.Reg, "cap", state.Closed, 2)

		// When the hung calls time out
		for _, h := range hung {
			r := testkit.Await(t, h)
			wantErr(t, "hung call", r.Err, tripwire.ErrTimeout)
			if d := r.At.Sub(start); d != 10*time.Second {
				t.Fatalf("hung call timed out after %v; want 10s", d)
			}
		}

		// Then they count as failures, but their targets, which notice
		// the end of their context a millisecond late, still hold their
		// slots: MaxInFlight bounds the calls running in the target
		testkit.WantCircuit(t, e.Reg, "cap", state.Closed, 7)
		_, err := call(e.Reg, "cap", okOp)
		wantErr(t, "call while the timed-out targets still run", err, tripwire.ErrOverloaded)

		// When the targets have returned (a millisecond after the
		// deadline; not at that very instant, whose order is unknown), the
		// capacity is back
		time.Sleep(2 * time.Millisecond)
		var more []<-chan testkit.Result
		for range 5 {
			more = append(more, goCall(e.Reg, "cap", tripwiretest.Op{After: time.Millisecond}))
		}
		for _, m := range more {
			r := testkit.Await(t, m)
			wantOK(t, "call after the timeouts", r.V, r.Err)
		}
		testkit.WantCircuit(t, e.Reg, "cap", state.Closed, 0)
	})
}

func TestFanInNeverGrowsTheInFlightSetBeyondMaxInFlight(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a key with MaxInFlight 5 whose target takes 1ms
		const (
			max     = 5
			waves   = 5
			perWave = 4000 // the race detector allows 8128 live goroutines
		)
		s := tripwiretest.New()
		testkit.Register(t, e.Reg, "hot", s.Func(nil), tripwire.Settings{MaxInFlight: max, CallTimeout: time.Second})
		var ok, overloaded, other, late, peakInFlight atomic.Int64
		msg := any(tripwiretest.Op{After: time.Millisecond})

		// When 20,000 callers arrive, 4,000 at the same instant per wave
		for w := range waves {
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range perWave {
				wg.Go(func() {
					<-start
					at := time.Now()
					_, err := call(e.Reg, "hot", msg)
					switch {
					case err == nil:
						ok.Add(1)
					case errors.Is(err, tripwire.ErrOverloaded):
						overloaded.Add(1)
						if time.Since(at) != 0 {
							late.Add(1)
						}
					default:
						other.Add(1)
						t.Errorf("wave %d: unexpected error %v", w, err)
					}
					if i%16 == 0 { // sample the breaker's own count now and then
						if sn, err := e.Reg.Snapshot(context.Background(), "hot"); err == nil {
							for p := peakInFlight.Load(); int64(sn.InFlight) > p && !peakInFlight.CompareAndSwap(p, int64(sn.InFlight)); p = peakInFlight.Load() {
							}
						}
					}
				})
			}
			close(start)
			wg.Wait()
		}

		// Then at most 5 calls were ever in flight, in the breaker and in
		// the target; 5 per wave got through and the rest were refused at
		// once, not queued
		if p := peakInFlight.Load(); p > max || p < 1 {
			t.Errorf("Snapshot.InFlight peaked at %d; want 1..%d", p, max)
		}
		if p := s.Peak(); p != max {
			t.Errorf("%d calls ran in the target at once; want %d", p, max)
		}
		if ok.Load() != max*waves || overloaded.Load() != waves*(perWave-max) || other.Load() != 0 {
			t.Errorf("ok %d, overloaded %d, other %d; want %d, %d, 0",
				ok.Load(), overloaded.Load(), other.Load(), max*waves, waves*(perWave-max))
		}
		if late.Load() != 0 {
			t.Errorf("%d overloaded calls waited before being refused", late.Load())
		}
		testkit.WantCircuit(t, e.Reg, "hot", state.Closed, 0)
		if n := testkit.Snapshot(t, e.Reg, "hot").InFlight; n != 0 {
			t.Errorf("InFlight %d after the fan-in; want 0", n)
		}
	})
}
