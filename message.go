package tripwire

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/protobuf/proto"

	tactor "github.com/tripwire-go/tripwire/actor"
)

// localAddress is the address protoactor gives local PIDs before remote starts.
const localAddress = "nonhost"

// checkMessage refuses a message its target cannot receive: one its own
// check refuses (Checked), nil to an actor, or anything but a protobuf
// message to an actor on another node, which protoactor's remote would drop
// silently.
func (r *Registry) checkMessage(t *tactor.Callee, msg any) error {
	if t.Check != nil {
		if err := t.Check(msg); err != nil {
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

// isRemote reports whether pid lives on another node.
func (r *Registry) isRemote(pid *actor.PID) bool {
	return pid.Address != localAddress && pid.Address != r.sys.ProcessRegistry.Address
}
