package borrowed_test

import (
	"errors"
	"testing"
	"unsafe"

	"github.com/tripwire-go/tripwire/internal/borrowed"
)

func isNil(_ any, err error) bool    { return err == nil }
func isNotNil(_ any, err error) bool { return err != nil }

// A func value is one pointer, to its closure: copies of one closure share
// it, and two closures never do, not even two of one literal that captured
// different values (which reflect's code pointer cannot tell apart). A
// toolchain that laid func values out otherwise would fail it.
func TestFuncIDTellsClosuresApart(t *testing.T) {
	type classify = func(any, error) bool
	if s := unsafe.Sizeof(classify(nil)); s != unsafe.Sizeof(unsafe.Pointer(nil)) {
		t.Fatalf("a func value takes %d bytes, not one pointer", s)
	}
	id := func(f classify) unsafe.Pointer { return borrowed.FuncID(&f) }
	var none classify
	if id(none) != nil {
		t.Error("a nil func has an identity")
	}
	var closures []classify // of one literal, at one place in the code
	for _, want := range []error{nil, errors.ErrUnsupported} {
		closures = append(closures, func(_ any, err error) bool { return err == want })
	}
	a, b := closures[0], closures[1]
	c := a
	for name, f := range map[string]classify{"a function": isNil, "a closure": a} {
		if id(f) == nil {
			t.Errorf("%s has no identity", name)
		}
	}
	if id(a) != id(c) {
		t.Error("two copies of one closure have different identities")
	}
	if id(isNil) != id(isNil) {
		t.Error("one function has two identities")
	}
	if id(a) == id(b) {
		t.Error("two closures of one literal, capturing different values, have one identity")
	}
	if id(isNil) == id(isNotNil) {
		t.Error("two functions have one identity")
	}
}
