package cluster

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Regression (task/grain.go, Grain.Call): when the member a grain lives on
// crashes, the call waiting on it gets Terminated{AddressTerminated} and
// fails at once, as it should; its deferred Unwatch used to be sent to the
// dead address then. protoactor's remote dials an address it has no endpoint
// for, and its endpoint writer retries 5 times, 2 s apart
// (remote/endpoint_writer.go:44-55), leaking a gRPC ClientConn each retry
// (initializeInternal overwrites state.conn without closing it). So the
// registry's member keeps dialing a dead machine for 10 s, holding up its
// own shutdown, and gRPC's reconnect goroutines (addrConn.resetTransport,
// CallbackSerializer.run) outlive everything: goleak fails the package.
// Grain.Call now sends no Unwatch once the grain has terminated (a watch ends
// with its Terminated; protoactor's own watchers clear it then).
func TestGrainMovesWhenItsMemberCrashes(t *testing.T) {
	tc := clusterFor(t)
	t.Cleanup(func() { // after the registry's shutdown and the crashed member's
		// Then, once it is all over, nothing in this process dials the
		// crashed member again
		deadline := time.Now().Add(time.Second)
		for dialing := redialing(); len(dialing) > 0; dialing = redialing() {
			if time.Now().After(deadline) {
				t.Fatalf("%d goroutines still dial a remote endpoint after the member crashed:\n%s",
					len(dialing), strings.Join(dialing, "\n\n"))
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	grainMoves(t, tc, (*peer).crash)
}

// redialing returns the stacks of goroutines that dial, or wait to dial
// again, a remote endpoint.
func redialing() []string {
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	var found []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "remote.(*endpointWriter).initialize(") ||
			strings.Contains(g, "grpc.(*addrConn).resetTransport(") {
			found = append(found, g)
		}
	}
	return found
}
