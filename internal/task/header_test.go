package task

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/stretchr/testify/require"
)

func TestTheDefaultHeaderGoesOnlyToAnotherMachine(t *testing.T) {
	const here = "10.0.0.1:8090"
	for name, tc := range map[string]struct {
		header Header
		target string
		sends  bool
	}{
		"remote, to another machine": {HeaderRemote, "10.0.0.2:8090", true},
		"remote, to this one":        {HeaderRemote, here, false},
		"remote, to a nonhost PID":   {HeaderRemote, "nonhost", false},
		"always, to this machine":    {HeaderAlways, here, true},
		"never, to another machine":  {HeaderNever, "10.0.0.2:8090", false},
	} {
		require.Equal(t, tc.sends, tc.header.sends(actor.NewPID(tc.target, "x"), here), name)
	}
}
