package task

import (
	"reflect"
	"strings"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/tripwire-go/tripwire/internal/errs"
)

// Sender sends the asks of one breaker to its actor target without ever
// blocking the breaker's turn: inline when the target's process cannot block
// its sender, on a pool worker when it might — a protoactor actor with a
// Bounded mailbox blocks its senders while the mailbox is full, and a process
// or mailbox of a kind protoactor does not ship may block too. The verdict is
// kept for the target's process and made again when the process changes
// (the target was respawned). A Sender belongs to one breaker incarnation,
// and may be used on its turns and by its key's callers at once.
type Sender struct {
	v atomic.Pointer[verdict]
}

// verdict is whether sending to proc may block.
type verdict struct {
	proc   actor.Process
	blocks bool
}

// send hands msg to target with a's sender PID.
func (s *Sender) send(p *Pool, a *Ask, target *actor.PID, msg any) {
	proc, _ := a.sys.ProcessRegistry.Get(target) // protoactor's dead-letter process if there is none
	v := s.v.Load()
	if v == nil || v.proc != proc {
		v = &verdict{proc: proc, blocks: mayBlock(proc)}
		s.v.Store(v)
	}
	if !v.blocks {
		a.deliver(proc, target, msg)
		return
	}
	if !p.Go(func() { a.deliver(proc, target, msg) }) {
		a.fail(errs.ErrShutdown)
	}
}

// protoactorPkg is the import path every protoactor package starts with.
const protoactorPkg = "github.com/asynkron/protoactor-go/"

// mayBlock reports whether sending a user message to proc can block the
// sender. It looks into protoactor's ActorProcess for the mailbox it was
// spawned with (the field is unexported, hence reflection; it runs once per
// target process).
func mayBlock(proc actor.Process) bool {
	ap, ok := proc.(*actor.ActorProcess)
	if !ok {
		return !shipped(reflect.TypeOf(proc)) // dead letters, futures, remote: never block
	}
	mb := reflect.ValueOf(ap).Elem().FieldByName("mailbox")
	if !mb.IsValid() || mb.IsNil() {
		return true
	}
	mb = mb.Elem()
	if !shipped(mb.Type()) {
		return true // a mailbox of the program's own
	}
	q := mb.Elem().FieldByName("userMailbox")
	if !q.IsValid() || q.Kind() != reflect.Interface || q.IsNil() {
		return false
	}
	q = q.Elem()
	if q.Kind() != reflect.Pointer || q.Type().Elem().Name() != "boundedMailboxQueue" {
		return false // unbounded, lock-free or priority queues never block
	}
	dropping := q.Elem().FieldByName("dropping")
	return !dropping.IsValid() || !dropping.Bool()
}

// shipped reports whether t is a pointer to a type of protoactor's own.
func shipped(t reflect.Type) bool {
	return t != nil && t.Kind() == reflect.Pointer && strings.HasPrefix(t.Elem().PkgPath()+"/", protoactorPkg)
}
