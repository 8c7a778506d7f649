package remote

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/state"
)

// remoteCaller is a caller child, seen from the test.
type remoteCaller struct {
	c      *child
	lines  chan string // its stdout after READY
	counts chan string // its COUNTS line
}

// startRemoteCaller starts a caller child in namespace ns and waits until
// a call has been answered. The test's cleanup kills it.
func startRemoteCaller(t *testing.T, ns string, s callerSpec) *remoteCaller {
	t.Helper()
	spec, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	cmd := selfIn(ns)
	cmd.Env = append(os.Environ(), callerEnv+"="+string(spec))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rc := &remoteCaller{c: &child{cmd: cmd, stdin: stdin}, lines: make(chan string, 1024), counts: make(chan string, 1)}
	t.Cleanup(rc.c.kill)
	ready := make(chan struct{})
	go func() {
		in := bufio.NewScanner(stdout)
		for in.Scan() {
			switch l := in.Text(); {
			case l == "READY":
				close(ready)
			case strings.HasPrefix(l, "COUNTS "):
				rc.counts <- strings.TrimPrefix(l, "COUNTS ")
			default:
				rc.lines <- l
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the caller had no call answered within 10 s")
	}
	return rc
}

// transition is a line T of a caller.
type transition struct {
	at       time.Time
	from, to string
	reason   state.Reason
}

// next returns the caller's next transition to state to, failing the test
// if none comes by deadline.
func (rc *remoteCaller) next(t *testing.T, to string, deadline time.Time) transition {
	t.Helper()
	timeout := time.After(time.Until(deadline))
	for {
		select {
		case l := <-rc.lines:
			var tr transition
			var ns int64
			var reason string
			if _, err := fmt.Sscanf(l, "T %d %s %s %s", &ns, &tr.from, &tr.to, &reason); err != nil {
				t.Fatalf("caller line %q: %v", l, err)
			}
			if err := tr.reason.UnmarshalText([]byte(reason)); err != nil {
				t.Fatalf("caller line %q: %v", l, err)
			}
			tr.at = time.Unix(0, ns)
			if tr.to == to {
				return tr
			}
		case <-timeout:
			t.Fatalf("no transition to %s by %v", to, deadline.Format("15:04:05.000"))
		}
	}
}

// stop ends the caller's calls and returns how they ended.
func (rc *remoteCaller) stop(t *testing.T) map[string]int {
	t.Helper()
	_ = rc.c.stdin.Close()
	select {
	case l := <-rc.counts:
		counts := map[string]int{}
		for _, f := range strings.Fields(l) {
			k, v, _ := strings.Cut(f, "=")
			counts[k], _ = strconv.Atoi(v)
		}
		return counts
	case <-time.After(10 * time.Second):
		t.Fatal("the caller did not stop within 10 s")
		return nil
	}
}
