package policies

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// Messages of the service actor.
type (
	hangMsg  struct{}                     // never answered
	echoMsg  struct{ s string }           // answered with s
	lastWord struct{}                     // answered with "bye", then the actor stops itself
	blockMsg struct{ gate chan struct{} } // blocks the actor until gate is closed; never answered
)

// service is an actor target; received counts the messages it got.
type service struct{ received atomic.Int64 }

func (s *service) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case *hangMsg:
		s.received.Add(1)
	case *echoMsg:
		s.received.Add(1)
		c.Respond(m.s)
	case *blockMsg:
		s.received.Add(1)
		<-m.gate
	case *lastWord:
		s.received.Add(1)
		c.Respond("bye")
		c.Stop(c.Self())
	}
}

// spawnService starts a service actor named "svc".
func spawnService(t *testing.T, e *testkit.Env) (*actor.PID, *service) {
	t.Helper()
	s := &service{}
	pid, err := e.Sys.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return s }), "svc")
	if err != nil {
		t.Fatalf("spawn svc: %v", err)
	}
	return pid, s
}

// stopService stops the actor and waits until it is gone.
func stopService(t *testing.T, e *testkit.Env, pid *actor.PID) {
	t.Helper()
	if err := e.Sys.Root.StopFuture(pid).Wait(); err != nil {
		t.Fatalf("stop svc: %v", err)
	}
}

func echo(t *testing.T, e *testkit.Env, key, s string) {
	t.Helper()
	v, err := call(e.Reg, key, &echoMsg{s})
	if err != nil || v != s {
		t.Fatalf("echo %q: %v, %v", s, v, err)
	}
}

func TestTargetDownOpensAtOnceAndFailsCallsInFlight(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker in front of the actor "svc", addressed by name
		tr := record(t, e.Reg)
		pid, _ := spawnService(t, e)
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(e.Sys.NewLocalPID("svc")), tripwire.Settings{
			OpenTimeout: 5 * time.Second, CallTimeout: 30 * time.Second,
		})
		echo(t, e, "svc", "hello")
		// and 3 calls the actor took and will never answer
		var hung []<-chan testkit.Result
		for range 3 {
			hung = append(hung, goCall(e.Reg, "svc", &hangMsg{}))
		}
		for _, h := range hung {
			testkit.StillPending(t, h, "hung call")
		}
		testkit.WantCircuit(t, e.Reg, "svc", state.Closed, 0)

		// When the actor stops
		stoppedAt := time.Now()
		e.Sys.Root.Stop(pid)

		// Then the calls in flight fail with ErrTargetDown at once
		for _, h := range hung {
			r := testkit.Await(t, h)
			wantErr(t, "call in flight", r.Err, tripwire.ErrTargetDown)
			if d := r.At.Sub(stoppedAt); d != 0 {
				t.Fatalf("call in flight failed %v after the stop; want at once", d)
			}
		}
		// and the circuit opens at once for target_down, without failures
		wantState(t, e.Reg, "svc", state.Open)
		if l := tr.last(t); !l.At.Equal(stoppedAt) {
			t.Errorf("opened at %v; want %v", l.At, stoppedAt)
		}
		tr.want(t, "closed->open:target_down")

		// When the actor is respawned under the same name
		_, again := spawnService(t, e)

		// Then calls are refused until the open time is over
		time.Sleep(5*time.Second - time.Nanosecond)
		if _, err := call(e.Reg, "svc", &echoMsg{"early"}); !isOpen(err) {
			t.Fatalf("call before the open time is over: %v; want ErrOpen", err)
		}
		if n := again.received.Load(); n != 0 {
			t.Fatalf("respawned actor got %d messages while open", n)
		}
		// and then the probe reaches the respawned actor and closes it
		time.Sleep(time.Nanosecond)
		wantState(t, e.Reg, "svc", state.HalfOpen)
		echo(t, e, "svc", "probe")
		if n := again.received.Load(); n != 1 {
			t.Fatalf("respawned actor got %d messages; want the probe", n)
		}
		testkit.WantCircuit(t, e.Reg, "svc", state.Closed, 0)
		tr.want(t, "closed->open:target_down", "open->half_open:open_timeout", "half_open->closed:probe_succeeded")
	})
}

func TestRespawnedTargetIsWatchedAgain(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker whose target went down once, was respawned, and
		// closed the circuit again with a good probe
		tr := record(t, e.Reg)
		pid, _ := spawnService(t, e)
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(e.Sys.NewLocalPID("svc")), tripwire.Settings{
			OpenTimeout: 5 * time.Second, CallTimeout: 30 * time.Second,
		})
		stopService(t, e, pid)
		wantState(t, e.Reg, "svc", state.Open)
		pid, _ = spawnService(t, e)
		advance(5 * time.Second)
		echo(t, e, "svc", "probe")
		wantState(t, e.Reg, "svc", state.Closed)
		// and a call the respawned actor will never answer
		h := goCall(e.Reg, "svc", &hangMsg{})
		testkit.StillPending(t, h, "hung call")

		// When the respawned actor stops too
		stoppedAt := time.Now()
		e.Sys.Root.Stop(pid)

		// Then the call fails at once and the circuit opens again
		r := testkit.Await(t, h)
		wantErr(t, "hung call", r.Err, tripwire.ErrTargetDown)
		if d := r.At.Sub(stoppedAt); d != 0 {
			t.Fatalf("hung call failed %v after the stop; want at once", d)
		}
		wantState(t, e.Reg, "svc", state.Open)
		tr.want(t, "closed->open:target_down", "open->half_open:open_timeout",
			"half_open->closed:probe_succeeded", "closed->open:target_down")
	})
}

func TestTargetDeadAtRegisterOpensAtOnce(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given no actor named "svc"
		tr := record(t, e.Reg)

		// When a breaker is registered in front of it
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(e.Sys.NewLocalPID("svc")), tripwire.Settings{
			OpenTimeout: 5 * time.Second,
		})

		// Then the circuit opens at once for target_down
		wantState(t, e.Reg, "svc", state.Open)
		tr.want(t, "closed->open:target_down")

		// and once the actor exists, the probe closes it
		spawnService(t, e)
		advance(5 * time.Second)
		echo(t, e, "svc", "probe")
		wantState(t, e.Reg, "svc", state.Closed)
	})
}

func TestIgnoreTargetDownKeepsTheOldBehaviour(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker (threshold 5) that ignores its target going down
		tr := record(t, e.Reg)
		pid, _ := spawnService(t, e)
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(e.Sys.NewLocalPID("svc")), tripwire.Settings{
			Threshold: 5, CallTimeout: 30 * time.Second, IgnoreTargetDown: true,
		})
		// and 3 calls the actor will never answer
		start := time.Now()
		var hung []<-chan testkit.Result
		for range 3 {
			hung = append(hung, goCall(e.Reg, "svc", &hangMsg{}))
		}
		for _, h := range hung {
			testkit.StillPending(t, h, "hung call")
		}

		// When the actor stops
		e.Sys.Root.Stop(pid)

		// Then the circuit stays closed and the calls wait for their deadline
		wantState(t, e.Reg, "svc", state.Closed)
		for _, h := range hung {
			testkit.StillPending(t, h, "hung call")
		}
		for _, h := range hung {
			r := testkit.Await(t, h)
			wantErr(t, "hung call", r.Err, tripwire.ErrTimeout)
			if d := r.At.Sub(start); d != 30*time.Second {
				t.Fatalf("hung call ended after %v; want its 30s deadline", d)
			}
		}
		// and count as failures
		testkit.WantCircuit(t, e.Reg, "svc", state.Closed, 3)
		// and each later call finds the target down by itself, until the
		// threshold opens the circuit
		for i := range 2 {
			_, err := call(e.Reg, "svc", &echoMsg{"x"})
			wantErr(t, "call to the dead target", err, tripwire.ErrTargetDown)
			if i == 0 {
				testkit.WantCircuit(t, e.Reg, "svc", state.Closed, 4)
			}
		}
		wantState(t, e.Reg, "svc", state.Open)
		tr.want(t, "closed->open:threshold")
	})
}

func TestReplyJustBeforeTargetStopsKeepsItsValue(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(e.Sys.NewLocalPID("svc")), tripwire.Settings{
			OpenTimeout: time.Second, CallTimeout: 30 * time.Second,
		})
		for round := range 10 {
			// Given the actor "svc" with a call it will never answer
			spawnService(t, e)
			if round > 0 {
				if err := e.Reg.Reset(context.Background(), "svc"); err != nil {
					t.Fatalf("Reset: %v", err)
				}
				echo(t, e, "svc", "hello") // a success: the breaker watches it again
			}
			if round == 0 {
				wantState(t, e.Reg, "svc", state.Open) // it was not there at Register
				advance(time.Second)
				echo(t, e, "svc", "probe")
			}
			wantState(t, e.Reg, "svc", state.Closed)
			hung := goCall(e.Reg, "svc", &hangMsg{})
			testkit.StillPending(t, hung, "hung call")

			// When the actor answers a call and stops itself right after
			v, err := call(e.Reg, "svc", &lastWord{})

			// Then that caller keeps the answer
			if err != nil || v != "bye" {
				t.Fatalf("round %d: last word: %v, %v; want bye", round, v, err)
			}
			// and the unanswered call fails, and the circuit opens
			r := testkit.Await(t, hung)
			wantErr(t, "unanswered call", r.Err, tripwire.ErrTargetDown)
			wantState(t, e.Reg, "svc", state.Open)
		}
	})
}

func TestCallsQueuedAtTheStoppedTargetFailAtOnce(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given an actor target busy with a message that blocks it, and 3
		// calls queued in its mailbox behind it
		pid, svc := spawnService(t, e)
		testkit.Register(t, e.Reg, "svc", tripwire.ActorTarget(e.Sys.NewLocalPID("svc")), tripwire.Settings{
			CallTimeout: 30 * time.Second,
		})
		gate := make(chan struct{})
		busy := goCall(e.Reg, "svc", &blockMsg{gate})
		testkit.StillPending(t, busy, "blocking call")
		var queued []<-chan testkit.Result
		for range 3 {
			queued = append(queued, goCall(e.Reg, "svc", &echoMsg{"x"}))
		}
		for _, q := range queued {
			testkit.StillPending(t, q, "queued call")
		}

		// When the actor is stopped and finishes its message (protoactor
		// then drops the queued messages without a word)
		stoppedAt := time.Now()
		e.Sys.Root.Stop(pid)
		close(gate)

		// Then every call fails with ErrTargetDown at once
		for _, ch := range append(queued, busy) {
			r := testkit.Await(t, ch)
			wantErr(t, "call", r.Err, tripwire.ErrTargetDown)
			if d := r.At.Sub(stoppedAt); d != 0 {
				t.Fatalf("call failed %v after the stop; want at once", d)
			}
		}
		if n := svc.received.Load(); n != 1 {
			t.Fatalf("the actor handled %d messages; want 1", n)
		}
		wantState(t, e.Reg, "svc", state.Open)
	})
}
