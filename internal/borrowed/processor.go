package borrowed

import (
	"runtime"
	_ "unsafe" // go:linkname
)

// The runtime does not export a processor's number; sync.Pool reads it
// through runtime.procPin, which the runtime keeps for packages outside
// the standard library too (go.dev/issue/67401: "Do not remove or change
// the type signature"). TestProcessorIsInRange fails if it stops naming
// the processor; a runtime without it fails to link.

//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// Processor is the number of the processor (one of the Go runtime's Ps,
// GOMAXPROCS of them) the calling goroutine runs on, from 0 to
// GOMAXPROCS-1, so that state written by every call can be kept one copy
// per processor: a counter or a stack that goroutines on both cores write
// on every call moves its cache line between the cores on every write, and
// one per processor mostly stays put. It is a hint: the goroutine may move
// to another processor as soon as it returns, so state picked by it must
// still be safe to write from any goroutine (atomics), only cheaper from
// this one.
func Processor() int {
	p := procPin()
	procUnpin()
	return p
}

// Processors is how many processors there are now (GOMAXPROCS). It may
// change while a program runs (runtime.GOMAXPROCS, or the runtime following
// its CPU limit): state made one copy per processor picks its copy by
// Processor() modulo its own count.
func Processors() int { return runtime.GOMAXPROCS(0) }

// Pin is Processor, and keeps the calling goroutine on that processor,
// not preempted, until Unpin: state picked by it is then written by one
// goroutine of the processor at a time. Between the two the goroutine must
// not block, allocate much or take long (the runtime cannot stop it, for
// a collection either); sync.Pool pins the same way.
func Pin() int { return procPin() }

// Unpin ends Pin.
func Unpin() { procUnpin() }
