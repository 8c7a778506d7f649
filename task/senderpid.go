package task

import (
	"reflect"
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
// as the PID: the router's, which lives as long as its registry.
func cacheProcess(pid *actor.PID, proc *actor.Process) {
	if pidProcess.ok {
		*(**actor.Process)(unsafe.Add(unsafe.Pointer(pid), pidProcess.offset)) = proc
	}
}
