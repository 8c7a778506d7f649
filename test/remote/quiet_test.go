package remote

import (
	"bytes"
	"runtime"
	"time"
)

// waitRemoteQuiet waits, up to 5 s, until none of protoactor's remote
// endpoint actors is running. A registry that shuts down unwatches its
// remote targets, and protoactor's remote handles an unwatch on its endpoint
// watcher's goroutine, which reads the endpoint manager's stopped flag
// without synchronisation while Remote.Shutdown writes it
// (remote/endpoint_manager.go:105 and :201): stopping the node while one
// runs is a data race in protoactor, not in Tripwire.
func waitRemoteQuiet() {
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		n := runtime.Stack(buf, true)
		if !bytes.Contains(buf[:n], []byte("remote.(*endpointWatcher)")) &&
			!bytes.Contains(buf[:n], []byte("remote.(*endpointWriter)")) {
			return
		}
	}
}
