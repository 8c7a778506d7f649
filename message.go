package tripwire

import (
	"fmt"
	"reflect"

	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/protobuf/proto"

	tactor "github.com/tripwire-go/tripwire/internal/actor"
)

// localAddress is the address protoactor gives local PIDs before remote starts.
const localAddress = "nonhost"

// checkMessage refuses a message its target cannot receive: one its own
// check refuses (Checked), nil to an actor, or anything but a protobuf
// message to an actor on another node, which protoactor's remote would drop
// silently.
func (r *Registry) checkMessage(t *tactor.Callee, msg any) error {
	if c := t.Contract; c != nil && c.Check != nil {
		if err := c.Check(msg); err != nil {
			return err
		}
	}
	if t.PID == nil {
		return nil
	}
	if msg == nil {
		return fmt.Errorf("%w: nil message to an actor target", ErrInvalidMessage)
	}
	if !r.isRemote(t.PID) {
		return nil
	}
	if _, ok := msg.(proto.Message); !ok {
		return fmt.Errorf("%w: %T", ErrNotSerializable, msg)
	}
	return nil
}

// checkReply refuses a call whose caller wants answers of type want (nil:
// any) from a target that declares answers that can never be one.
func checkReply(t *tactor.Callee, want reflect.Type) error {
	if want == nil || t.Contract == nil || t.Contract.Reply == nil || t.Contract.Reply == want {
		return nil
	}
	return never(t.Contract.Reply, want)
}

// never is ErrUnexpectedReply if no answer of declared type got (its
// values' dynamic types are assignable to it) can be a want, else nil.
func never(got, want reflect.Type) error {
	switch {
	case got.Kind() != reflect.Interface && got.AssignableTo(want):
		return nil
	case got.Kind() == reflect.Interface && (want.Kind() == reflect.Interface || want.AssignableTo(got)):
		return nil // some answer of the interface got may be a want
	}
	return fmt.Errorf("%w: the target answers %v, never %v", ErrUnexpectedReply, got, want)
}

// isRemote reports whether pid lives on another node.
func (r *Registry) isRemote(pid *actor.PID) bool {
	return pid.Address != localAddress && pid.Address != r.sys.ProcessRegistry.Address
}
