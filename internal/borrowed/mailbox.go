package borrowed

import (
	"reflect"
	"strings"
	"unsafe"

	rbqueue "github.com/Workiva/go-datastructures/queue"
	"github.com/asynkron/protoactor-go/actor"
)

// protoactorPkg is the import path every protoactor package starts with.
const protoactorPkg = "github.com/asynkron/protoactor-go/"

// MayBlock reports whether sending a user message to proc can block the
// sender, and for protoactor's Bounded mailbox its queue, a ring that is
// full while its Len is its Cap. A protoactor actor with a Bounded mailbox
// blocks its senders while the mailbox is full; protoactor's other
// mailboxes and processes (futures, remote) never block; a process or
// mailbox of a kind protoactor does not ship may. protoactor's
// ActorProcess keeps the mailbox it was spawned with unexported, and the
// mailbox its queue, hence reflection: call it once per process, not per
// message. If the fields are not where TestMayBlock expects them, an
// ActorProcess is taken as one that may block.
func MayBlock(proc actor.Process) (bool, *rbqueue.RingBuffer) {
	ap, ok := proc.(*actor.ActorProcess)
	if !ok {
		return !shipped(reflect.TypeOf(proc)), nil // futures, remote: never block
	}
	mb := reflect.ValueOf(ap).Elem().FieldByName("mailbox")
	if !mb.IsValid() || mb.Kind() != reflect.Interface || mb.IsNil() {
		return true, nil
	}
	mb = mb.Elem()
	if !shipped(mb.Type()) {
		return true, nil // a mailbox of the program's own
	}
	q := mb.Elem().FieldByName("userMailbox")
	if !q.IsValid() || q.Kind() != reflect.Interface {
		return true, nil
	}
	if q.IsNil() {
		return false, nil
	}
	q = q.Elem()
	if q.Kind() != reflect.Pointer || !shipped(q.Type()) {
		return true, nil // a queue of a kind this does not know
	}
	if q.Type().Elem().Name() != "boundedMailboxQueue" {
		return false, nil // unbounded, lock-free or priority queues never block
	}
	dropping := q.Elem().FieldByName("dropping")
	if dropping.IsValid() && dropping.Kind() == reflect.Bool && dropping.Bool() {
		return false, nil
	}
	return true, ringOf(q.Elem().FieldByName("userMailbox"))
}

// ringOf is f, protoactor's bounded queue's unexported ring, or nil if it
// is not one.
func ringOf(f reflect.Value) *rbqueue.RingBuffer {
	if !f.IsValid() || f.Type() != reflect.TypeFor[*rbqueue.RingBuffer]() || !f.CanAddr() {
		return nil
	}
	return *(**rbqueue.RingBuffer)(unsafe.Pointer(f.UnsafeAddr()))
}

// shipped reports whether t is a pointer to a type of protoactor's own.
func shipped(t reflect.Type) bool {
	return t != nil && t.Kind() == reflect.Pointer && strings.HasPrefix(t.Elem().PkgPath()+"/", protoactorPkg)
}
