package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire"
)

// A node stopped (SIGSTOP: a hung host, its connections up) while calls to
// it time out gets those calls once it is continued: protoactor delivers
// them late. Without ShedExpired its dependency runs every one of them, for
// callers answered ErrTimeout long before; with it, none.
func TestPausedNodeRunsNoTimedOutCallWithShedExpired(t *testing.T) {
	const calls = 20
	for _, shed := range []bool{false, true} {
		t.Run(fmt.Sprintf("shed=%v", shed), func(t *testing.T) {
			// Given a node, and breakers on this one in front of its
			// dependency: one whose calls give up after 200 ms, one that waits
			node := startNode(t, nodeSpec{Listen: "127.0.0.1:0", Remoting: remotingSpec{On: true}, Shed: shed})
			a := startCaller(t)
			for key, timeout := range map[string]time.Duration{"impatient": 200 * time.Millisecond, "patient": 5 * time.Second} {
				if err := a.reg.Register(context.Background(), key, tripwire.ActorTarget(node.pid()), tripwire.Settings{Threshold: 10 * calls, CallTimeout: timeout}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := a.reg.Call(context.Background(), "patient", hello()); err != nil {
				t.Fatalf("call before the pause: %v", err)
			}
			before := node.counts(t)

			// When the node is stopped while calls to it time out
			if err := node.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			waitStopped(t, node.cmd.Process.Pid)
			var wg sync.WaitGroup
			errs := make(chan error, calls)
			for range calls {
				wg.Go(func() {
					_, err := a.reg.Call(context.Background(), "impatient", hello())
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if !errors.Is(err, tripwire.ErrTimeout) {
					t.Errorf("call to the stopped node: %v, want ErrTimeout", err)
				}
			}
			// And then continued
			if err := node.cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
			// (a call sent after them reaches the dependency after them: one
			// connection, one mailbox)
			if _, err := a.reg.Call(context.Background(), "patient", hello()); err != nil {
				t.Fatalf("call after SIGCONT: %v", err)
			}

			// Then, of the calls that timed out, the dependency ran none with
			// ShedExpired, and all without
			now := node.counts(t)
			late, dropped := now.executed-before.executed-1, now.shed-before.shed
			t.Logf("node stopped while %d calls timed out, then continued: shed=%v: %d of them executed, %d shed",
				calls, shed, late, dropped)
			want := calls
			if shed {
				want = 0
			}
			if late != want || dropped != calls-want {
				t.Errorf("%d executed and %d shed, want %d and %d", late, dropped, want, calls-want)
			}
		})
	}
}

// waitStopped waits until every thread of process pid is stopped: a
// SIGSTOP takes effect on each thread as it next enters the kernel, a
// little after kill returns.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	waitFor(t, "the node stopped", func() bool {
		stats, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/stat", pid))
		for _, f := range stats {
			b, err := os.ReadFile(f)
			// The state follows the command name in parentheses.
			if i := bytes.LastIndexByte(b, ')'); err == nil && (i < 0 || i+2 >= len(b) || b[i+2] != 'T') {
				return false
			}
		}
		return len(stats) > 0
	})
}
