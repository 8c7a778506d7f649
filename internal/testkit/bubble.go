package testkit

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire"
)

// Env is one actor system with one registry on it, inside a synctest bubble.
type Env struct {
	Sys *actor.ActorSystem
	Reg *tripwire.Registry
}

// InBubble runs body in fake time with a fresh actor system and a registry
// started with opts. Both are shut down when body ends (also when it fails),
// and fake time then runs out (see RunOut).
func InBubble(t *testing.T, body func(t *testing.T, e *Env), opts ...tripwire.Option) {
	t.Helper()
	Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		body(t, &Env{Sys: sys, Reg: Start(t, sys, opts...)})
	})
}

// Bubble runs body in fake time with a fresh actor system created inside the
// bubble; the system is shut down when body ends, and fake time then runs
// out (see RunOut).
func Bubble(t *testing.T, body func(t *testing.T, sys *actor.ActorSystem)) {
	t.Helper()
	synctest.Test(t, func(t *testing.T) {
		t.Cleanup(RunOut) // registered first, so it runs last
		body(t, NewSystem(t))
	})
}

// RunOut lets fake time run on until protoactor's dead-letter throttle
// goroutines and idle workers have exited, so the bubble can close. Twice: a
// dead letter at the very end of the first minute starts a throttle
// goroutine that the second minute lets finish.
func RunOut() {
	for range 2 {
		time.Sleep(time.Minute)
		synctest.Wait()
	}
}

// BubbleStart is the fake clock's start in every synctest bubble (midnight
// UTC, 2000-01-01), so failure messages can say "+10s".
var BubbleStart = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// SinceStart is the fake time passed in the bubble.
func SinceStart() time.Duration { return time.Since(BubbleStart) }
