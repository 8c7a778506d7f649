package task_test

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/task"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// boundedTarget spawns an actor with a Bounded(2) mailbox that takes each
// int it is sent, in order, once gate lets it (each message waits for a
// receive from gate), and answers it with itself.
func boundedTarget(sys *actor.ActorSystem, gate chan struct{}, took *[]int) *actor.PID {
	return sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		if n, ok := c.Message().(int); ok {
			<-gate
			*took = append(*took, n) // one message at a time: the actor's turn
			c.Respond(n)
		}
	}, actor.WithMailbox(actor.Bounded(2))))
}

func TestAStuckBoundedTargetHoldsNoWorkerOnceItsAsksAreAbandoned(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a target with a mailbox of 2 that is stuck, asked 6 times:
		// it holds the first, its mailbox the next 2, the rest wait for room
		gate := make(chan struct{})
		var took []int
		target := boundedTarget(sys, gate, &took)
		p := task.NewPool(sys)
		s := &task.Sender{}
		c := newCollector()
		var asks []*task.Ask
		for i := range 6 {
			asks = append(asks, task.NewAsk(p, s, target, i, time.Now().Add(time.Second), task.HeaderRemote, c, nil))
		}
		time.Sleep(10 * time.Millisecond)
		synctest.Wait()
		// When every ask is abandoned, as its breaker does at its deadline
		for _, a := range asks {
			a.Abandon()
		}
		// Then no worker is left sending to it: the pool closes while it is stuck
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := p.Close(ctx); err != nil {
			t.Errorf("Close while the target is stuck: %v", err)
		}
		// and once it drains it takes the 3 it was sent, not the abandoned 3
		close(gate)
		time.Sleep(time.Second)
		synctest.Wait()
		if !slices.Equal(took, []int{0, 1, 2}) {
			t.Errorf("the target took %v, want [0 1 2]", took)
		}
		if len(c.got) != 0 {
			t.Errorf("%d outcomes of abandoned asks", len(c.got))
		}
	})
}

func TestAsksWaitingForRoomInABoundedMailboxAreSentInOrder(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given a target with a mailbox of 2 that takes a message only when let
		gate := make(chan struct{})
		var took []int
		target := boundedTarget(sys, gate, &took)
		p := task.NewPool(sys)
		defer func() { _ = p.Close(context.Background()) }()
		s := &task.Sender{}
		c := newCollector()
		// When it is asked 8 times, more than its mailbox holds
		for i := range 8 {
			task.NewAsk(p, s, target, i, time.Now().Add(time.Minute), task.HeaderRemote, c, nil)
		}
		// and lets them through one at a time, some time apart
		for range 8 {
			time.Sleep(20 * time.Millisecond)
			gate <- struct{}{}
		}
		synctest.Wait()
		// Then it took every one, in the order they were asked, and each has its answer
		if !slices.Equal(took, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
			t.Errorf("the target took %v", took)
		}
		for range 8 {
			if o := <-c.got; o.Err != nil || o.Failed {
				t.Errorf("outcome %+v", o)
			}
		}
	})
}
