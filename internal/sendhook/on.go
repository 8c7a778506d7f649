//go:build tripwire_sendhook

package sendhook

import "sync/atomic"

// On reports whether this build calls the hook.
const On = true

var hook atomic.Pointer[func(msg any)]

// Set makes f the func Sent calls (nil: none). f runs on the goroutine that
// sends the answer, at every answer: it must be quick and must not block.
func Set(f func(msg any)) {
	if f == nil {
		hook.Store(nil)
		return
	}
	hook.Store(&f)
}

// Sent calls the hook, if one is set, with the message of a call whose
// answer is about to be sent.
func Sent(msg any) {
	if f := hook.Load(); f != nil {
		(*f)(msg)
	}
}
