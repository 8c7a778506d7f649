package task

import (
	"reflect"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/asynkron/protoactor-go/actor"
)

// pidProcess is where a protoactor PID caches the process it names (its
// unexported field p, a *actor.Process, which PID.ref fills from the
// process registry on first use), or ok false if this protoactor's PID
// has no such field.
var pidProcess = func() (f struct {
	offset uintptr
	ok     bool
}) {
	field, ok := reflect.TypeFor[actor.PID]().FieldByName("p")
	if ok && field.Type == reflect.TypeFor[*actor.Process]() {
		f.offset, f.ok = field.Offset, true
	}
	return f
}()

// cacheProcess makes pid, fresh and not yet shared, name proc without a
// lookup: a target answering an ask through its sender PID then finds the
// router without reading the process registry (a map under a lock) and
// without PID.ref allocating, on the target's goroutine, whose stack is
// often fresh and small (the allocation grew it). proc must live as long
// as the PID: the sender's own, which the PID lies in.
func cacheProcess(pid *actor.PID, proc *actor.Process) {
	if pidProcess.ok {
		*(**actor.Process)(unsafe.Add(unsafe.Pointer(pid), pidProcess.offset)) = proc
	}
}

// SenderDeadline is the deadline of the call whose ask was sent with pid
// (the sender of a message, or a copy of it), or false if pid is no ask's
// sender on this machine or the call has none. protoactor's PID.ref reads
// and writes the cached process atomically, and so does this.
func SenderDeadline(pid *actor.PID) (time.Time, bool) {
	if pid == nil || !pidProcess.ok {
		return time.Time{}, false
	}
	p := (*actor.Process)(atomic.LoadPointer((*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(pid), pidProcess.offset))))
	if p == nil {
		return time.Time{}, false
	}
	s, ok := (*p).(*sender)
	if !ok || s.deadline == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, s.deadline), true
}
