package supervisor_test

import (
	"context"
	"log/slog"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"go.uber.org/zap"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
	"github.com/tripwire-go/tripwire/internal/registry"
	"github.com/tripwire-go/tripwire/internal/supervisor"
	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/state"
)

// rig is a supervisor on its own actor system, with a worker pool and the
// key table it writes, in fake time.
type rig struct {
	t    *testing.T
	sys  *actor.ActorSystem
	keys registry.Table
	pool *task.Pool
	sup  *actor.PID
}

// inBubble runs body against a fresh rig, then stops everything and lets
// fake time run out.
func inBubble(t *testing.T, body func(t *testing.T, r *rig)) {
	synctest.Test(t, func(t *testing.T) {
		sys := actor.NewActorSystem(
			actor.WithDeadLetterThrottleInterval(10*time.Millisecond),
			actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) }))
		r := &rig{t: t, sys: sys, pool: task.NewPool(sys)}
		var err error
		s := supervisor.New(&r.keys, zap.NewNop())
		defer s.Close()
		r.sup, err = sys.Root.SpawnNamed(s.Props(), "sup")
		if err != nil {
			t.Fatal(err)
		}
		body(t, r)
		drained := make(chan error, 1)
		sys.Root.Send(r.sup, &supervisor.Shutdown{Reply: drained})
		if err := <-drained; err != nil {
			t.Error(err)
		}
		if err := sys.Root.PoisonFuture(r.sup).Wait(); err != nil {
			t.Error(err)
		}
		if err := r.pool.Close(context.Background()); err != nil {
			t.Error(err)
		}
		sys.Shutdown()
		time.Sleep(time.Minute)
		synctest.Wait()
	})
}

// register adds key, in front of a function target that answers "ok", with
// an idle timeout (0: none).
func (r *rig) register(key string, idle time.Duration) *registry.Entry {
	r.t.Helper()
	e := registry.NewEntry(key,
		tactor.Callee{Func: func(context.Context, any) (any, error) { return "ok", nil }},
		&tactor.Rules{
			Circuit:     state.Settings{Threshold: 5, OpenTimeout: time.Second}.WithDefaults(),
			CallTimeout: time.Second,
			IdleTimeout: idle,
		},
		&tactor.Shared{Pool: r.pool, Logger: zap.NewNop(), Wake: func(c *tactor.Config) {
			r.sys.Root.Send(r.sup, &supervisor.Wake{Config: c})
		}})
	reply := make(chan error, 1)
	r.sys.Root.Send(r.sup, &supervisor.Register{Entry: e, Reply: reply})
	if err := <-reply; err != nil {
		r.t.Fatalf("Register(%q): %v", key, err)
	}
	return e
}

// call makes one call to e's breaker and returns its answer.
func (r *rig) call(e *registry.Entry) (any, error) {
	now := time.Now()
	res := tactor.NewCaller(r.pool).Do(context.Background(), &e.Mailbox, &e.Cell, 0, "m", now.Add(time.Second), now)
	return res.Value, res.Err
}

// snapshot reads e's breaker.
func (r *rig) snapshot(e *registry.Entry) tactor.Snapshot {
	r.t.Helper()
	reply := make(chan tactor.Report, 1)
	e.Mailbox.PostUserMessage(&tactor.SnapshotRequest{Reply: reply})
	rep := <-reply
	if rep.Err != nil {
		r.t.Fatalf("snapshot of %q: %v", e.Key, rep.Err)
	}
	return rep.Snapshot
}

// crash makes e's breaker panic and returns once a breaker answers again.
func (r *rig) crash(e *registry.Entry) {
	e.Mailbox.PostUserMessage(&tactor.Crash{})
	r.snapshot(e)
}

// alive reports whether protoactor knows the actor pid names.
func (r *rig) alive(pid *actor.PID) bool {
	_, ok := r.sys.ProcessRegistry.GetLocal(pid.Id)
	return ok
}
