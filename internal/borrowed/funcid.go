package borrowed

import "unsafe"

// FuncID is the identity of the function value *f (F is a func type): the
// closure it points to, nil for a nil func. Go does not compare functions,
// and reflect's Pointer is the code's address, which every closure of one
// function literal shares whatever it captured; a func value is, in the gc
// toolchain, one pointer to its closure, and that pointer is what this
// reads (TestFuncIDTellsClosuresApart). A caller that keeps the IDs of
// funcs it does not keep alive may see one reused for another.
func FuncID[F any](f *F) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(f)) }
