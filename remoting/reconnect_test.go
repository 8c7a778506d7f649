package remoting_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/system"
	"github.com/tripwire-go/tripwire/remoting"
	"github.com/tripwire-go/tripwire/state"
)

func TestReconnectionProbesTheOpenCircuitsOfItsNode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Given breakers in front of an actor that never answers, and one
		// in front of a function, with ProbeOnReconnect
		sys := system.New(nil, actor.WithDeadLetterThrottleInterval(10*time.Millisecond))
		reg, err := tripwire.Start(tripwire.WithActorSystem(sys))
		if err != nil {
			t.Fatal(err)
		}
		silent := sys.Root.Spawn(actor.PropsFromFunc(func(actor.Context) {}))
		set := tripwire.Settings{Threshold: 1, OpenTimeout: time.Hour, CallTimeout: 100 * time.Millisecond}
		for _, key := range []string{"open", "probing"} {
			if err := reg.Register(context.Background(), key, tripwire.ActorTarget(silent), set); err != nil {
				t.Fatal(err)
			}
		}
		failing := tripwire.Func(func(context.Context, any) (any, error) { return nil, errors.New("down") })
		if err := reg.Register(context.Background(), "elsewhere", failing, set); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		reasons := map[string][]string{}
		reg.Subscribe(func(tr state.Transition) {
			mu.Lock()
			defer mu.Unlock()
			reasons[tr.Key] = append(reasons[tr.Key], tr.To.String()+"/"+tr.Reason.String())
		})
		stop, err := remoting.ProbeOnReconnect(reg, sys)
		if err != nil {
			t.Fatal(err)
		}
		call := func(key string) { _, _ = reg.Call(context.Background(), key, wrapperspb.String("hi")) }
		stateOf := func(key string) state.State {
			synctest.Wait()
			st, err := reg.State(key)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		// Their circuits open; "probing" is half-open with a probe out
		for _, key := range []string{"open", "elsewhere", "probing"} {
			call(key)
		}
		if err := reg.ProbeNow(context.Background(), "probing"); err != nil {
			t.Fatal(err)
		}
		go call("probing")
		synctest.Wait()

		// When protoactor connects to the actor's node
		sys.EventStream.Publish(&remote.EndpointConnectedEvent{Address: silent.Address})
		// Then the open circuit there half-opens at once; the other stays open
		if st := stateOf("open"); st != state.HalfOpen {
			t.Errorf("open: %v, want half-open", st)
		}
		if st := stateOf("elsewhere"); st != state.Open {
			t.Errorf("elsewhere: %v, want open", st)
		}
		// And when the probe out then fails, its circuit half-opens again at once
		time.Sleep(set.CallTimeout + tripwire.ReplyGrace)
		if st := stateOf("probing"); st != state.HalfOpen {
			t.Errorf("probing after its probe out failed: %v, want half-open", st)
		}
		// But only once: when the next probes fail, both stay open
		call("probing")
		call("open")
		if st := stateOf("probing"); st != state.Open {
			t.Errorf("probing after a second failed probe: %v, want open", st)
		}
		if st := stateOf("open"); st != state.Open {
			t.Errorf("open after its probe failed: %v, want open", st)
		}
		mu.Lock()
		t.Logf("transitions: %v", reasons)
		if got := reasons["open"]; len(got) < 2 || got[1] != "half_open/probe_now" {
			t.Errorf("open: %v", got)
		}
		mu.Unlock()

		// When it is stopped, Then a connection probes nothing
		stop()
		stop() // (twice is fine)
		sys.EventStream.Publish(&remote.EndpointConnectedEvent{Address: silent.Address})
		if st := stateOf("open"); st != state.Open {
			t.Errorf("open after stop: %v, want open", st)
		}

		if _, err := remoting.ProbeOnReconnect(nil, sys); !errors.Is(err, tripwire.ErrInvalidOption) {
			t.Errorf("ProbeOnReconnect(nil, sys) = %v", err)
		}
		if _, err := remoting.ProbeOnReconnect(reg, nil); !errors.Is(err, tripwire.ErrInvalidOption) {
			t.Errorf("ProbeOnReconnect(reg, nil) = %v", err)
		}
		if err := reg.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		sys.Shutdown()
		time.Sleep(time.Minute)
		synctest.Wait()
	})
}
