package test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/state"
)

// forecast asks the weather actor about a city.
type forecast struct{ City string }

// report is the weather actor's answer.
type report struct {
	City  string
	TempC int
}

var errNoSuchCity = errors.New("no such city")

// weather is an actor target: it answers a forecast with a report, answers
// "Atlantis" with an error value, and never answers "Limbo".
type weather struct{ served *atomic.Int64 }

func (w weather) Receive(ctx actor.Context) {
	m, ok := ctx.Message().(*forecast)
	if !ok {
		return
	}
	w.served.Add(1)
	switch m.City {
	case "Atlantis":
		ctx.Respond(errNoSuchCity)
	case "Limbo":
	default:
		ctx.Respond(&report{City: m.City, TempC: len(m.City)})
	}
}

func spawnWeather(t *testing.T, e *testkit.Env, served *atomic.Int64) *actor.PID {
	t.Helper()
	pid, err := e.Sys.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor { return weather{served} }), "weather")
	if err != nil {
		t.Fatalf("spawn weather: %v", err)
	}
	return pid
}

func TestActorTargetByNameSurvivesTheTargetBeingRespawned(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a weather actor and a breaker in front of it, addressed by name
		var served atomic.Int64
		pid := spawnWeather(t, e, &served)
		// (IgnoreTargetDown: this test is about the name resolving to the
		// respawned actor, not about the breaker opening when it dies; see
		// the target-down scenarios for that)
		testkit.Register(t, e.Reg, "weather", tripwire.ActorTarget(e.Sys.NewLocalPID("weather")),
			tripwire.Settings{Threshold: 3, IgnoreTargetDown: true})
		if rep, err := tripwire.Key[any, *report](e.Reg, "weather").Call(ctx, &forecast{City: "Oslo"}); err != nil || rep.City != "Oslo" {
			t.Fatalf("call before the stop: %+v, %v", rep, err)
		}

		// When the target actor is stopped
		if err := e.Sys.Root.StopFuture(pid).Wait(); err != nil {
			t.Fatalf("stop weather: %v", err)
		}
		// Then a call gets ErrTargetDown at once, counted as a failure
		start := time.Now()
		if _, err := e.Reg.Call(ctx, "weather", &forecast{City: "Oslo"}); !errors.Is(err, tripwire.ErrTargetDown) {
			t.Errorf("call to the dead target: %v, want ErrTargetDown", err)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("ErrTargetDown after %v, want at once", d)
		}
		testkit.WantCircuit(t, e.Reg, "weather", state.Closed, 1)

		// When it is spawned again under the same name
		spawnWeather(t, e, &served)
		// Then the same breaker reaches it, and the success resets the failures
		rep, err := tripwire.Key[any, *report](e.Reg, "weather").Call(ctx, &forecast{City: "Bergen"})
		if err != nil || rep.City != "Bergen" || rep.TempC != len("Bergen") {
			t.Errorf("call after the respawn: %+v, %v", rep, err)
		}
		testkit.WantCircuit(t, e.Reg, "weather", state.Closed, 0)
		if got := served.Load(); got != 2 {
			t.Errorf("the weather actors served %d forecasts, want 2", got)
		}
	})
}

func TestErrorValueReplyIsTheCallsErrorAndAFailure(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		ctx := context.Background()
		// Given a breaker with threshold 2 in front of the weather actor
		var served atomic.Int64
		spawnWeather(t, e, &served)
		testkit.Register(t, e.Reg, "weather", tripwire.ActorTarget(e.Sys.NewLocalPID("weather")), tripwire.Settings{Threshold: 2})

		// When the actor replies with an error value
		v, err := e.Reg.Call(ctx, "weather", &forecast{City: "Atlantis"})

		// Then the call returns that error, with no value, and it counts as a failure
		if !errors.Is(err, errNoSuchCity) || v != nil {
			t.Fatalf("error reply: %v, %v; want nil and errNoSuchCity", v, err)
		}
		testkit.WantCircuit(t, e.Reg, "weather", state.Closed, 1)
		// and a second one opens the circuit
		if _, err := e.Reg.Call(ctx, "weather", &forecast{City: "Atlantis"}); !errors.Is(err, errNoSuchCity) {
			t.Fatalf("second error reply: %v", err)
		}
		testkit.WantCircuit(t, e.Reg, "weather", state.Open, 2)
		if _, err := e.Reg.Call(ctx, "weather", &forecast{City: "Oslo"}); !errors.Is(err, tripwire.ErrOpen) {
			t.Errorf("call while open: %v, want ErrOpen", err)
		}
		if got := served.Load(); got != 2 {
			t.Errorf("actor served %d forecasts, want 2 (none while open)", got)
		}
	})
}

func TestRequestFromAnActorDeliversOneReplyPerRequest(t *testing.T) {
	testkit.InBubble(t, func(t *testing.T, e *testkit.Env) {
		// Given a breaker (call timeout 2 s) in front of the weather actor
		var served atomic.Int64
		spawnWeather(t, e, &served)
		testkit.Register(t, e.Reg, "weather", tripwire.ActorTarget(e.Sys.NewLocalPID("weather")),
			tripwire.Settings{Threshold: 10, CallTimeout: 2 * time.Second})
		// and an actor that will Request 10 forecasts, one of them for a city
		// the target never answers and one it answers with an error
		var msgs []any
		for i := range 8 {
			msgs = append(msgs, &forecast{City: fmt.Sprint("city-", i)})
		}
		limbo, atlantis := &forecast{City: "Limbo"}, &forecast{City: "Atlantis"}
		msgs = append(msgs, limbo, atlantis)
		pid, a := testkit.NewAsker(e)

		// When the actor sends its requests from inside its Receive (Atlantis
		// last, once the others are answered: concurrent requests may reach
		// the breaker in any order)
		e.Sys.Root.Send(pid, &testkit.RequestAll{Key: "weather", Msgs: msgs[:9]})
		synctest.Wait()
		e.Sys.Root.Send(pid, &testkit.RequestAll{Key: "weather", Msgs: msgs[9:]})

		// Then, long after every deadline, it has exactly one *tripwire.Reply per request
		time.Sleep(time.Minute)
		byReq := onePerRequest(t, msgs, a.Received())
		if len(a.Refused) != 0 {
			t.Errorf("Request refused: %v", <-a.Refused)
		}
		// each with the answer to its own request
		for _, m := range msgs[:8] {
			f, r := m.(*forecast), byReq[m]
			if rep, ok := r.Value.(*report); r.Err != nil || !ok || rep.City != f.City {
				t.Errorf("reply to %s: %v, %v", f.City, r.Value, r.Err)
			}
			if r.Key != "weather" {
				t.Errorf("reply to %s names key %q", f.City, r.Key)
			}
		}
		if r := byReq[limbo]; !errors.Is(r.Err, tripwire.ErrTimeout) {
			t.Errorf("reply to an unanswered request: %v, want ErrTimeout", r.Err)
		}
		if r := byReq[atlantis]; !errors.Is(r.Err, errNoSuchCity) {
			t.Errorf("reply to Atlantis: %v, want errNoSuchCity", r.Err)
		}
		// and the timeout and the error reply both counted as failures
		testkit.WantCircuit(t, e.Reg, "weather", state.Closed, 2)
	})
}
