package borrowed_test

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/borrowed"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// recorder is a process of the test's own: it keeps what it is sent.
type recorder chan any

func (r recorder) SendUserMessage(_ *actor.PID, m any) { r <- m }
func (r recorder) SendSystemMessage(*actor.PID, any)   {}
func (r recorder) Stop(*actor.PID)                     {}

// A PID made naming a process (CachePIDProcess) takes what protoactor
// sends it to that process, not to what the registry holds under its Id,
// also an actor's answer to it as a message's sender: protoactor's PID.ref
// reads the field written. A protoactor whose PID lost its field p, or
// stopped reading it first, would fail it.
func TestPIDCachesItsProcessInP(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a PID whose Id names nothing in the registry, made naming a
		// process of the test's own
		got := make(recorder, 2)
		proc := actor.Process(got)
		pid := &actor.PID{Address: sys.ProcessRegistry.Address, Id: "nobody", RequestId: 7}
		if !borrowed.CanCachePIDProcess() || !borrowed.CachePIDProcess(pid, &proc) {
			t.Fatal("protoactor's PID has no field p *Process any more")
		}
		echo := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if s, ok := c.Message().(string); ok {
				c.Respond(s + " answered")
			}
		}))

		// When something is sent to it, and an actor answers a message
		// whose sender it is
		sys.Root.Send(pid, "sent")
		sys.Root.RequestWithCustomSender(echo, "asked", pid)

		// Then the process gets both
		for _, want := range []any{"sent", "asked answered"} {
			select {
			case m := <-got:
				if m != want {
					t.Errorf("the process got %v, want %v", m, want)
				}
			case <-time.After(time.Second):
				t.Fatalf("the process never got %v: protoactor looked the PID up", want)
			}
		}
		if p := borrowed.PIDProcess(pid); p != proc {
			t.Errorf("PIDProcess = %v, want the process cached", p)
		}
	})
}

// PIDProcess reads the process protoactor caches in a PID it has resolved:
// the one its registry holds for the PID's Id.
func TestPIDProcessReadsWhatProtoactorCaches(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given an actor, and a fresh PID naming it
		done := make(chan struct{})
		spawned := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if _, ok := c.Message().(string); ok {
				close(done)
			}
		}))
		pid := actor.NewPID(spawned.Address, spawned.Id)
		if p := borrowed.PIDProcess(pid); p != nil {
			t.Fatalf("a fresh PID caches %v", p)
		}

		// When protoactor sends to it (and so resolves it)
		sys.Root.Send(pid, "x")
		<-done

		// Then the PID caches the process the registry holds
		want, ok := sys.ProcessRegistry.Get(pid)
		if !ok {
			t.Fatal("the actor is not in the registry")
		}
		if p := borrowed.PIDProcess(pid); p != want {
			t.Errorf("PIDProcess = %v, want the registry's %v", p, want)
		}
		if borrowed.PIDProcess(nil) != nil {
			t.Error("a nil PID caches a process")
		}
	})
}
