package task

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
)

// inSystem runs body in fake time with an actor system and a pool.
func inSystem(t *testing.T, body func(t *testing.T, sys *actor.ActorSystem, p *Pool)) {
	synctest.Test(t, func(t *testing.T) {
		sys := actor.NewActorSystem()
		p := NewPool(sys)
		body(t, sys, p)
		require.NoError(t, p.Close(context.Background()))
		sys.Shutdown()
		time.Sleep(time.Hour)
		synctest.Wait()
	})
}

// holdAll keeps every request it gets and answers each with its message
// on release (an int).
func holdAll(sys *actor.ActorSystem) *actor.PID {
	var held []*actor.PID
	var asked []any
	return sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
		switch m := c.Message().(type) {
		case string:
			held, asked = append(held, c.Sender()), append(asked, m)
		case int:
			for i := range held {
				c.Send(held[i], asked[i])
			}
		}
	}))
}

func TestAnAskWhoseSlotIsTakenWaitsInTheOverflowAndGetsItsOwnReply(t *testing.T) {
	inSystem(t, func(t *testing.T, sys *actor.ActorSystem, p *Pool) {
		// Given an ask waiting in its slot, and the next ask's id picking
		// the same slot (routerSlots asks later)
		r, target := p.Replies(), holdAll(sys)
		first, second := make(courier, 1), make(courier, 1)
		a1 := newAsk(p, &Sender{}, target, "first", time.Time{}, HeaderRemote, first, nil)
		nextID(r, a1.self.RequestId+routerSlots)
		a2 := newAsk(p, &Sender{}, target, "second", time.Time{}, HeaderRemote, second, nil)
		require.Equal(t, a1.self.RequestId%routerSlots, a2.self.RequestId%routerSlots)

		// Then the second waits in the overflow, and both are waiting
		require.EqualValues(t, 1, r.over.n.Load())
		require.ElementsMatch(t, []*Ask{a1, a2}, r.Waiting(nil))

		// When the target answers both
		sys.Root.Send(target, 1)

		// Then each ask gets its own reply, and nothing waits any more
		require.Equal(t, "first", <-first)
		require.Equal(t, "second", <-second)
		require.Zero(t, r.over.n.Load())
		require.Empty(t, r.Waiting(nil))
	})
}

func TestALateReplyForAnAbandonedAskNeverReachesTheAskInItsSlotNow(t *testing.T) {
	inSystem(t, func(t *testing.T, sys *actor.ActorSystem, p *Pool) {
		// Given an ask abandoned while its target holds it, and a later ask
		// waiting in the same slot
		r, target := p.Replies(), holdAll(sys)
		first, second := make(courier, 1), make(courier, 1)
		a1 := newAsk(p, &Sender{}, target, "first", time.Time{}, HeaderRemote, first, nil)
		require.True(t, a1.Abandon())
		nextID(r, a1.self.RequestId+routerSlots)
		a2 := newAsk(p, &Sender{}, target, "second", time.Time{}, HeaderRemote, second, nil)
		require.Equal(t, a1.self.RequestId%routerSlots, a2.self.RequestId%routerSlots)
		require.Zero(t, r.over.n.Load(), "the slot was free again")

		// When the target answers both, the abandoned one first
		sys.Root.Send(target, 1)

		// Then the later ask gets its own reply alone
		require.Equal(t, "second", <-second)
		synctest.Wait()
		require.Empty(t, first)
	})
}

// A courier (senderpid_test.go) is the Call of its asks: it takes their
// replies, and nothing else the data plane asks of a call.
func (courier) Release()                {}
func (courier) Owner() Inbox            { return nil }
func (courier) Admitted() bool          { return true }
func (courier) Redirect()               {}
func (courier) Finish(*Completion) bool { return false }

// nextID makes id the next RequestId r hands out: the next run starts
// there, and the runs its Ps hold are dropped.
func nextID(r *Router, id uint32) {
	r.next.Store(id) // the next run is [id, id+idRunLen)
	for r.ids.Get() != nil {
	}
}

func TestRequestIdsAreFreshAndNeverZeroAcrossTheWrap(t *testing.T) {
	inSystem(t, func(t *testing.T, sys *actor.ActorSystem, p *Pool) {
		// Given a router whose next run of ids wraps past zero
		r := p.Replies()
		nextID(r, ^uint32(0)-idRunLen/2)

		// When it hands out three runs' worth of ids
		seen := map[uint32]bool{}
		for range 3 * idRunLen {
			id := r.newID()
			// Then none is zero and none comes twice
			require.NotZero(t, id)
			require.False(t, seen[id], "id %d twice", id)
			seen[id] = true
		}
	})
}
