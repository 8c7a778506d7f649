package policies

import (
	"context"

	"github.com/tripwire-go/tripwire"
	"github.com/tripwire-go/tripwire/internal/testkit"
	"github.com/tripwire-go/tripwire/tripwiretest"
)

// call makes one call and returns its value and error.
func call(reg *tripwire.Registry, key string, msg any) (any, error) {
	return reg.Call(context.Background(), key, msg)
}

// goCall runs call on its own goroutine; the result arrives on the channel.
func goCall(reg *tripwire.Registry, key string, msg any) <-chan testkit.Result {
	return testkit.GoCall(context.Background(), reg, key, msg)
}

var (
	okOp   = tripwiretest.Op{}
	failOp = tripwiretest.Op{Fail: true}
)
