package borrowed

import (
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/asynkron/protoactor-go/actor"
)

// pidProcess is where protoactor's PID caches the process it names: its
// unexported field p, a *actor.Process, which PID.ref reads (atomically)
// before it looks in the process registry, and fills from it. ok is false
// if this protoactor's PID has no such field; TestPIDCachesItsProcessInP
// fails then.
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

// pidProcessField is the address of pid's cached process.
func pidProcessField(pid *actor.PID) *unsafe.Pointer {
	return (*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(pid), pidProcess.offset))
}

// CanCachePIDProcess reports whether this protoactor's PID caches its
// process where CachePIDProcess writes and PIDProcess reads.
func CanCachePIDProcess() bool { return pidProcess.ok }

// CachePIDProcess makes pid, fresh and not yet shared, name *proc without
// a lookup: protoactor then sends what is sent to pid (or to a copy of it)
// to *proc, without reading its process registry (a map under a lock) and
// without PID.ref's allocation. proc must live as long as the PID. It
// reports false, changing nothing, if this protoactor's PID caches no
// process: pid then names what the registry holds under its Id.
func CachePIDProcess(pid *actor.PID, proc *actor.Process) bool {
	if !pidProcess.ok {
		return false
	}
	atomic.StorePointer(pidProcessField(pid), unsafe.Pointer(proc))
	return true
}

// PIDProcess is the process pid caches (nil for none, or a nil pid): one
// that CachePIDProcess put there, or that protoactor found for it.
// protoactor's PID.ref reads and writes it atomically, and so does this.
func PIDProcess(pid *actor.PID) actor.Process {
	if pid == nil || !pidProcess.ok {
		return nil
	}
	p := (*actor.Process)(atomic.LoadPointer(pidProcessField(pid)))
	if p == nil {
		return nil
	}
	return *p
}
