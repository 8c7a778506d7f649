package task

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
)

// Regression: the reaper's tick takes the idle workers off their stacks
// and puts back those it keeps; a Close between the two found none of
// them, and the tick put them back without retiring them, so Close waited
// for ever for workers parked on a closed pool (CI: a registry's Shutdown
// deadlocked in a bubble).
func TestACloseDuringAReaperTickRetiresEveryWorker(t *testing.T) {
	sys := actor.NewActorSystem()
	defer sys.Shutdown()
	// The window is a few pushes wide: one pool is not enough to tell.
	for range 1000 {
		// Given a pool with idle workers, which its reaper's tick keeps
		p := idlePool(t, sys, 4)
		// When it closes as the reaper ticks
		var tick sync.WaitGroup
		start := make(chan struct{})
		tick.Go(func() { <-start; p.retire() })
		close(start)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := p.Close(ctx)
		cancel()
		tick.Wait()
		// Then every worker retired
		require.NoError(t, err, "a worker not retired: %d live", p.Live())
	}
}

// idlePool is a pool with n workers, each parked.
func idlePool(t *testing.T, sys *actor.ActorSystem, n int) *Pool {
	p := NewPool(sys)
	var ran sync.WaitGroup
	release := make(chan struct{})
	for range n {
		ran.Add(1)
		require.True(t, p.Go(func() { ran.Done(); <-release }))
	}
	ran.Wait()
	close(release)
	for p.parked() < n {
		runtime.Gosched()
	}
	return p
}

// parked counts the workers on the idle stacks.
func (p *Pool) parked() int {
	n := 0
	for i := range p.idle.tops {
		for slot1 := uint32(p.idle.tops[i].top.Load()); slot1 != 0; n++ {
			slot1 = p.idle.at(slot1).next.Load()
		}
	}
	return n
}
