package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// child is a tripwire command running in a process of its own: the test
// binary, run with childEnv. Commands that start protoactor's remote run
// there, because remote.Start sets gRPC's process-wide logger without
// synchronisation, so two remotes in one process race under -race.
type child struct {
	cmd   *exec.Cmd
	out   *bufio.Reader
	errs  syncBuffer
	done  chan struct{}
	first string // a node's first line
}

// startChild runs `tripwire args...` in a child process; the test's cleanup
// kills it if it still runs.
func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	return startChildEnv(t, nil, args...)
}

// startChildEnv is startChild with env added to the child's environment.
func startChildEnv(t *testing.T, env []string, args ...string) *child {
	t.Helper()
	c := &child{cmd: exec.Command(os.Args[0], "-test.run=^$"), done: make(chan struct{})}
	c.cmd.Env = append(append(os.Environ(), env...), childEnv+"="+strings.Join(args, " "))
	c.cmd.Stderr = &c.errs
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.out = bufio.NewReader(stdout)
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.cmd.Process.Kill()
		c.wait()
	})
	return c
}

// line returns the child's next line of output, failing the test after 10 s.
func (c *child) line(t *testing.T) string {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		l, _ := c.out.ReadString('\n')
		got <- l
	}()
	select {
	case l := <-got:
		return strings.TrimRight(l, "\n")
	case <-time.After(10 * time.Second):
		t.Fatalf("no line from the child; stderr %q", c.errs.String())
		return ""
	}
}

// rest reads the child's output to its end.
func (c *child) rest() string {
	b, _ := io.ReadAll(c.out)
	return string(b)
}

// wait waits for the child to exit, once.
func (c *child) wait() {
	select {
	case <-c.done:
	default:
		_ = c.cmd.Wait()
		close(c.done)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var nodeAddr = regexp.MustCompile(`at (127\.0\.0\.1:\d+)`)

// startNode runs `tripwire node` on a port the OS chooses and returns it
// with its address.
func startNode(t *testing.T, args ...string) (*child, string) {
	t.Helper()
	n := startChild(t, append([]string{"node", "-listen", "127.0.0.1:0", "-report", "0"}, args...)...)
	first := n.line(t)
	n.first = first
	m := nodeAddr.FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("node printed %q; stderr %q", first, n.errs.String())
	}
	return n, m[1]
}

func TestNodeServesUntilInterrupted(t *testing.T) {
	// Given a node started on a port the OS chooses
	n, addr := startNode(t)
	// Then it listens on the address it printed, with keepalive by default
	if !strings.HasPrefix(addr, "127.0.0.1:") || !strings.Contains(n.first, "keepalive 10s, timeout 5s") {
		t.Fatalf("address %q in %q", addr, n.first)
	}
	// When it is interrupted
	if err := n.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// Then it stops and exits 0
	out := n.rest()
	n.wait()
	if code := n.cmd.ProcessState.ExitCode(); code != 0 || !strings.Contains(out, "node: stopping after 0 requests") {
		t.Fatalf("exit %d, out %q, stderr %q", code, out, n.errs.String())
	}
}

func TestNodeRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-latency", "-1s"},
		{"-report", "-1s"},
		{"-keepalive", "5s"}, // under gRPC's 10 s minimum
		{"-keepalive", "-1s"},
		{"-keepalive-timeout", "-1s"},
		{"-keepalive-timeout", "1ns"}, // every ping would close its connection
		{"-listen", "0.0.0.0:7070"},   // protoactor's remote would name the node 0.0.0.0
		{"-listen", "[::]:7070"},
		{"-listen", ":7070"},
		{"-keepalive", "0", "-keepalive-timeout", "3s"}, // a timeout of no keepalive
		{"-tls-cert", "node.pem"},                       // without its key and CA
		{"-tls-cert", "missing.pem", "-tls-key", "missing-key.pem", "-tls-ca", "missing-ca.pem"},
		{"extra"},
		{"-nope"},
	} {
		var out, errOut syncBuffer
		// When the node is started with a bad flag, Then it exits 2 and says why
		if c := runNode(args, &out, &errOut, nil); c != 2 || errOut.String() == "" {
			t.Errorf("runNode(%q) = %d, stderr %q", args, c, errOut.String())
		}
	}
	// An address that is not host:port is a bad flag too, and the error names the command
	var out, errOut syncBuffer
	if c := runNode([]string{"-listen", "no-port"}, &out, &errOut, nil); c != 2 || !strings.HasPrefix(errOut.String(), `tripwire node: -listen "no-port": want host:port`) {
		t.Errorf("bad -listen: exit %d, stderr %q", c, errOut.String())
	}
}

func TestNodeShedsWhenAsked(t *testing.T) {
	// Given a node started with -shed
	n, _ := startNode(t, "-shed")
	// Then its first line says so
	if !strings.Contains(n.first, "shedding expired requests") {
		t.Fatalf("first line %q", n.first)
	}
	// And when it is interrupted it says how many requests it shed
	if err := n.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	out := n.rest()
	n.wait()
	if !strings.Contains(out, "node: stopping after 0 requests, 0 shed") {
		t.Fatalf("out %q, stderr %q", out, n.errs.String())
	}
}
