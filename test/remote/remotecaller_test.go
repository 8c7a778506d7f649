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
)

// remoteCaller is a caller child, seen from the test.
type remoteCaller struct {
	c       *child
	ready   chan struct{}  // closed when its first call is answered
	failing chan struct{}  // closed when its third call has failed
	lines   chan string    // its transitions
	dials   chan time.Time // its TCP dials (callerSpec.DialLog)
	counts  chan string    // its COUNTS line
}

// startRemoteCaller starts a caller child in namespace ns and waits until
// a call has been answered. The test's cleanup kills it.
func startRemoteCaller(t *testing.T, ns string, s callerSpec) *remoteCaller {
	t.Helper()
	rc := startRemoteCallerNoWait(t, ns, s)
	select {
	case <-rc.ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the caller had no call answered within 10 s")
	}
	return rc
}

// startRemoteCallerNoWait starts a caller child in namespace ns. The
// test's cleanup kills it.
func startRemoteCallerNoWait(t *testing.T, ns string, s callerSpec) *remoteCaller {
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
	rc := &remoteCaller{c: &child{cmd: cmd, stdin: stdin}, ready: make(chan struct{}), failing: make(chan struct{}),
		lines: make(chan string, 1024), dials: make(chan time.Time, 1024), counts: make(chan string, 1)}
	t.Cleanup(rc.c.kill)
	go func() {
		in := bufio.NewScanner(stdout)
		for in.Scan() {
			var ns int64
			switch l := in.Text(); {
			case l == "READY":
				close(rc.ready)
			case l == "FAILING":
				close(rc.failing)
			case strings.HasPrefix(l, "COUNTS "):
				rc.counts <- strings.TrimPrefix(l, "COUNTS ")
			case strings.HasPrefix(l, "DIAL "):
				if _, err := fmt.Sscanf(l, "DIAL %d", &ns); err == nil {
					select {
					case rc.dials <- time.Unix(0, ns):
					default:
					}
				}
			default:
				rc.lines <- l
			}
		}
	}()
	return rc
}

// transition is a line T of a caller.
type transition struct {
	at       time.Time
	from, to string
	reason   string
}

// next returns the caller's next transition to state to made at from or
// later, failing the test if none comes by deadline.
func (rc *remoteCaller) next(t *testing.T, to string, from, deadline time.Time) transition {
	t.Helper()
	timeout := time.After(time.Until(deadline))
	for {
		select {
		case l := <-rc.lines:
			tr := parseTransition(t, l)
			if tr.to == to && !tr.at.Before(from) {
				return tr
			}
		case <-timeout:
			t.Fatalf("no transition to %s from %v by %v", to, from.Format("15:04:05.000"), deadline.Format("15:04:05.000"))
		}
	}
}

// steady waits until the caller's breaker has made no transition for a
// second and is closed: its first calls may time out while the
// connections between the processes are made, on a loaded machine long
// enough to open it. It fails the test after 30 s.
func (rc *remoteCaller) steady(t *testing.T) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	state := "closed"
	for {
		select {
		case l := <-rc.lines:
			state = parseTransition(t, l).to
		case <-time.After(time.Second):
			if state == "closed" {
				return
			}
		case <-deadline:
			t.Fatalf("the caller's breaker is still %s 30 s after its first answer", state)
		}
	}
}

func parseTransition(t *testing.T, l string) transition {
	t.Helper()
	var tr transition
	var ns int64
	if _, err := fmt.Sscanf(l, "T %d %s %s %s", &ns, &tr.from, &tr.to, &tr.reason); err != nil {
		t.Fatalf("caller line %q: %v", l, err)
	}
	tr.at = time.Unix(0, ns)
	return tr
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

// nextDial returns the caller's first TCP dial at from or later (it must
// run with DialLog), failing the test if none comes by deadline.
func (rc *remoteCaller) nextDial(t *testing.T, from, deadline time.Time) time.Time {
	t.Helper()
	timeout := time.After(time.Until(deadline))
	for {
		select {
		case at := <-rc.dials:
			if !at.Before(from) {
				return at
			}
		case <-timeout:
			t.Fatalf("no connection attempt from %v by %v", from.Format("15:04:05.000"), deadline.Format("15:04:05.000"))
		}
	}
}
