package tripwire

import (
	"fmt"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
)

// Checked is t with check run on every message before its call is admitted.
// A message check refuses is never sent: the call returns check's error at
// once, it counts neither way, and the target is not called — wrap
// ErrInvalidMessage (or ErrNotSerializable) in it so callers can tell. A
// check that panics refuses the message with ErrInvalidMessage. A nil
// check checks nothing; checks of a Checked target run in order, t's first.
func Checked(t Target, check func(msg any) error) Target {
	spec, ok := specOf(t)
	if !ok || check == nil {
		return t
	}
	check = recovered(check)
	c := &tactor.Contract{Check: check}
	if old := spec.contract; old != nil {
		c.Reply = old.Reply
		if first := old.Check; first != nil {
			c.Check = func(msg any) error {
				if err := first(msg); err != nil {
					return err
				}
				return check(msg)
			}
		}
	}
	spec.contract = c
	return spec
}

// recovered is check, a panic of its own refusing the message (nothing else
// would recover it on the caller's goroutine).
func recovered(check func(msg any) error) func(msg any) error {
	return func(msg any) (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("%w: its check panicked: %v", ErrInvalidMessage, p)
			}
		}()
		return check(msg)
	}
}
