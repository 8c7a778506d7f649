package borrowed_test

import (
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/borrowed"
	"github.com/tripwire-go/tripwire/internal/testkit"
)

// ownMailbox is a mailbox of the program's own: protoactor's unbounded
// one, behind a type MayBlock cannot know.
type ownMailbox struct{ actor.Mailbox }

// MayBlock tells, for each of protoactor's mailboxes and processes, the
// ones that can block their senders: a protoactor whose mailboxes moved or
// were renamed would fail it.
func TestMayBlock(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		idle := func(actor.Context) {}
		procOf := func(pid *actor.PID) actor.Process {
			t.Helper()
			p, ok := sys.ProcessRegistry.Get(pid)
			if !ok {
				t.Fatalf("%v is not in the registry", pid)
			}
			return p
		}
		spawn := func(opts ...actor.PropsOption) actor.Process {
			return procOf(sys.Root.Spawn(actor.PropsFromFunc(idle, opts...)))
		}
		own := actor.NewPID(sys.ProcessRegistry.Address, "own")
		if _, added := sys.ProcessRegistry.Add(make(recorder), own.Id); !added {
			t.Fatal("the test's process could not be added")
		}
		for name, tc := range map[string]struct {
			proc   actor.Process
			blocks bool
		}{
			"the default mailbox":      {spawn(), false},
			"Unbounded":                {spawn(actor.WithMailbox(actor.Unbounded())), false},
			"UnboundedLockfree":        {spawn(actor.WithMailbox(actor.UnboundedLockfree())), false},
			"UnboundedPriority":        {spawn(actor.WithMailbox(actor.UnboundedPriority())), false},
			"UnboundedPriorityMpsc":    {spawn(actor.WithMailbox(actor.UnboundedPriorityMpsc())), false},
			"BoundedDropping":          {spawn(actor.WithMailbox(actor.BoundedDropping(4))), false},
			"Bounded":                  {spawn(actor.WithMailbox(actor.Bounded(4))), true},
			"a mailbox of the program": {spawn(actor.WithMailbox(func() actor.Mailbox { return ownMailbox{actor.Unbounded()()} })), true},
			"a future":                 {procOf(actor.NewFuture(sys, time.Minute).PID()), false},
			"dead letters":             {sys.DeadLetter, false},
			"a process of the program": {procOf(own), true},
		} {
			blocks, ring := borrowed.MayBlock(tc.proc)
			if blocks != tc.blocks {
				t.Errorf("%s: MayBlock = %v, want %v", name, blocks, tc.blocks)
			}
			if ring != nil && name != "Bounded" {
				t.Errorf("%s: a ring", name)
			}
		}
	})
}

// The ring MayBlock finds in a Bounded mailbox is its queue: full, to its
// Cap, exactly when the mailbox is, and emptied as its actor takes.
func TestMayBlockFindsTheBoundedMailboxsRing(t *testing.T) {
	testkit.Bubble(t, func(t *testing.T, sys *actor.ActorSystem) {
		// Given an actor with a Bounded mailbox that holds the first message
		// it takes until let go
		gate, took := make(chan struct{}), make(chan int, 100)
		pid := sys.Root.Spawn(actor.PropsFromFunc(func(c actor.Context) {
			if n, ok := c.Message().(int); ok {
				took <- n
				<-gate
			}
		}, actor.WithMailbox(actor.Bounded(4))))
		proc, _ := sys.ProcessRegistry.Get(pid)
		blocks, ring := borrowed.MayBlock(proc)
		if !blocks || ring == nil {
			t.Fatalf("MayBlock = %v, %v: no ring found", blocks, ring)
		}
		size := int(ring.Cap())
		if size < 4 {
			t.Fatalf("the ring holds %d, the mailbox 4", size)
		}

		// When it holds one message and is sent as many as the ring holds
		sys.Root.Send(pid, 0)
		<-took
		for i := range size {
			if ring.Len() != uint64(i) {
				t.Fatalf("the ring holds %d after %d sends", ring.Len(), i)
			}
			sys.Root.Send(pid, i+1)
		}

		// Then the ring is full, and empties as the actor takes them
		if ring.Len() != ring.Cap() {
			t.Fatalf("the ring holds %d of %d with the mailbox full", ring.Len(), ring.Cap())
		}
		for i := range size {
			gate <- struct{}{}
			if n := <-took; n != i+1 {
				t.Fatalf("the actor took %d, want %d", n, i+1)
			}
		}
		if ring.Len() != 0 {
			t.Errorf("the ring holds %d with the mailbox empty", ring.Len())
		}
		gate <- struct{}{}
	})
}
