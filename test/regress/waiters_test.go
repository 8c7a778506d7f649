package regress

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// TestFutureTwoWaiters guards "a protoactor Future with two waiters hangs"
// (notes/testing.md §4: futureProcess.Stop signals one waiter, not all, so a
// second goroutine in Result() waits forever). Tripwire must never let two
// goroutines wait on one reply. Many goroutines call Snapshot, Crash, Call,
// State and Request on one key at the same moments; every one must return.
// A hang shows as synctest's deadlock report or the fake hour in await.
func TestFutureTwoWaiters(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given one key whose target answers after 1 ms
		var s tripwiretest.Script
		testkit.Register(t, e.Reg, "hot", s.Func(nil), tripwire.Settings{Threshold: 1000, CallTimeout: time.Second})
		pid, a := testkit.NewAsker(e)

		// When 32 goroutines each make 20 mixed calls on it, all starting together
		const workers, rounds = 32, 20
		var crashes, requests atomic.Int64
		gate := make(chan struct{})
		done := make(chan error, workers*rounds)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				<-gate
				for i := range rounds {
					done <- mixedCall(e, w, i, &crashes, &requests, pid)
				}
			})
		}
		finished := make(chan struct{})
		go func() { wg.Wait(); close(finished) }()
		close(gate)

		// Then every call returns
		select {
		case <-finished:
		case <-time.After(time.Hour):
			t.Fatalf("calls still waiting after an hour of fake time")
		}
		close(done)
		for err := range done {
			if err != nil {
				t.Error(err)
			}
		}
		// and every Request got exactly one Reply, by its call timeout
		time.Sleep(time.Second + tripwire.ReplyGrace)
		replies := map[any]int{}
		for _, r := range a.Received() {
			if r.Err != nil && !errors.Is(r.Err, tripwire.ErrBreakerRestarted) {
				t.Errorf("reply to %v: %v", r.Request, r.Err)
			}
			replies[r.Request]++
		}
		if len(replies) != int(requests.Load()) {
			t.Errorf("%d requests answered, %d made", len(replies), requests.Load())
		}
		for req, k := range replies {
			if k != 1 {
				t.Errorf("request %v got %d replies", req, k)
			}
		}
		// and the breaker ends closed, idle, with its crashes counted
		snap := testkit.WantCircuit(t, e.Reg, "hot", state.Closed, 0)
		if snap.InFlight != 0 || snap.Restarts < 1 || snap.Restarts > int(crashes.Load()) {
			t.Errorf("InFlight=%d Restarts=%d after %d crashes", snap.InFlight, snap.Restarts, crashes.Load())
		}
	})
}

// mixedCall makes call i of goroutine w, cycling through the operations
// that wait for an answer from the breaker.
func mixedCall(e *testkit.Env, w, i int, crashes, requests *atomic.Int64, asker *actor.PID) error {
	ctx := context.Background()
	switch (w + i) % 5 {
	case 0:
		if _, err := e.Reg.Snapshot(context.Background(), "hot"); err != nil {
			return fmt.Errorf("Snapshot: %w", err)
		}
	case 1:
		crashes.Add(1)
		if err := tripwiretest.Crash(context.Background(), e.Reg, "hot"); err != nil {
			return fmt.Errorf("Crash: %w", err)
		}
	case 2:
		label := fmt.Sprint(w, "-", i)
		v, err := e.Reg.Call(ctx, "hot", tripwiretest.Op{Label: label, After: time.Millisecond})
		if err != nil && !errors.Is(err, tripwire.ErrBreakerRestarted) || err == nil && v != tripwiretest.Answer(label) {
			return fmt.Errorf("Call %s: %v, %v", label, v, err)
		}
	case 3:
		if _, err := e.Reg.State("hot"); err != nil {
			return fmt.Errorf("State: %w", err)
		}
	case 4:
		requests.Add(1)
		e.Sys.Root.Send(asker, &testkit.RequestAll{Key: "hot", Msgs: []any{tripwiretest.Op{Label: fmt.Sprint("req-", w, "-", i)}}})
	}
	return nil
}
