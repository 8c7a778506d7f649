package demo

import (
	"fmt"

	"github.com/tripwire-go/tripwire/internal/node"

	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// validateRemote checks a Remote config: the pattern and an address go
// together, and the address is host:port.
func (c Config) validateRemote() error {
	if c.Pattern != Remote || c.Remote == "" {
		return fmt.Errorf("%w: pattern %q with remote address %q: the remote pattern and an address go together", ErrInvalidConfig, c.Pattern, c.Remote)
	}
	if _, _, err := node.SplitHostPort(c.Remote, false); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidConfig, err)
	}
	return nil
}

// remoteDependency is the PID of the Node dependency at addr.
func remoteDependency(addr string) *actor.PID { return actor.NewPID(addr, node.Name) }

// request is what callers send: a protobuf message for a Node on another
// process (anything else cannot cross the wire), a string otherwise.
func (c Config) request() any {
	if c.Pattern == Remote {
		return wrapperspb.String("request")
	}
	return "request"
}
