// Package borrowed holds every place where Tripwire relies on what another
// library does not promise: state it keeps unexported, a layout it does not
// document, a function it does not export. Nothing outside this package
// reads or writes such state (no go:linkname, no reflection into unexported
// fields, no unsafe offsets), so a dependency bump that breaks one of these
// assumptions breaks it here, and this package's tests, each of which pins
// one assumption, fail before a user's service does.
//
// What is borrowed, and why (docs/architecture.md, "What we rely on that
// nobody promised", has the measured cost of doing without each):
//
//   - Processor, Pin: the number of the Go runtime's processor a goroutine
//     runs on (runtime.procPin), for state kept one copy per processor.
//   - CachePIDProcess, PIDProcess: protoactor's PID caches the process it
//     names in an unexported field; an ask's sender PID is made with it
//     filled, so a reply finds its router without the process registry,
//     and a local target reads the call's deadline from it.
//   - MayBlock: whether sending to a protoactor process can block the
//     sender (a Bounded mailbox), and that mailbox's ring, read from
//     protoactor's unexported mailbox fields once per target process.
//   - EtcdProviderClient: the etcd client protoactor's etcd provider keeps
//     unexported and never closes.
//   - FuncID: the identity of a closure, from the layout of a func value.
//
// Each of them checks what it reads (a field's name and type, a type's
// package) and falls back to the plain way when the check fails; the tests
// fail then too.
package borrowed
