package main

import (
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/internal/testcerts"
)

// waitLine reads the child's lines until one contains want, failing the
// test if none does within d; it returns the lines read.
func (c *child) waitLine(t *testing.T, want string, d time.Duration) string {
	t.Helper()
	var seen strings.Builder
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		l := c.line(t)
		seen.WriteString(l + "\n")
		if strings.Contains(l, want) {
			return seen.String()
		}
	}
	t.Fatalf("no %q within %v in:\n%s", want, d, seen.String())
	return ""
}

func TestDemoRemoteFollowsANodeThatDiesAndComesBack(t *testing.T) {
	// Given a tripwire node, and a demo driving it from another process
	// (each process runs one protoactor remote: see child)
	node, addr := startNode(t)
	d := startChild(t, "demo", "-remote", addr, "-keys", "1", "-duration", "8s", "-crash-at", "0",
		"-open-timeout", "300ms", "-call-timeout", "1s", "-live", "never")
	d.waitLine(t, "dep-01  closed    dep=remote", 5*time.Second)
	// When the node is killed
	_ = node.cmd.Process.Kill()
	node.wait()
	// Then the breaker opens at once because its target went down
	d.waitLine(t, "dep-01  closed -> open (target_down)", 2*time.Second)
	// When the node comes back on the same address
	startChild(t, "node", "-listen", addr, "-report", "0")
	// Then a probe closes the breaker again
	d.waitLine(t, "dep-01  half_open -> closed (probe_succeeded", 5*time.Second)
	// And the demo finishes on its own with a summary, exit 0
	out := d.rest()
	d.wait()
	if code := d.cmd.ProcessState.ExitCode(); code != 0 || !strings.Contains(out, "summary after") {
		t.Fatalf("exit %d; stderr %q; out:\n%s", code, d.errs.String(), out)
	}
}

func TestDemoRemoteFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-remote", "nowhere"},
		{"-remote", "127.0.0.1:0"},
		{"-remote", "127.0.0.1:7070", "-pattern", "flaky"},
		{"-listen", "127.0.0.1:0"},
		{"-keepalive", "20s"},
		{"-remote", "127.0.0.1:7070", "-keepalive", "9s"},
		{"-remote", "127.0.0.1:7070", "-keepalive-timeout", "-1s"},
		{"-tls-ca", "ca.pem"}, // without -remote
		{"-remote", "127.0.0.1:7070", "-tls-cert", "node.pem", "-tls-key", "node-key.pem"},
	} {
		var out, errOut syncBuffer
		// When the demo gets a bad remote flag, Then it exits 2 and says why
		if c := run(append([]string{"demo"}, args...), &out, &errOut); c != 2 || errOut.String() == "" {
			t.Errorf("demo %q = %d, stderr %q", args, c, errOut.String())
		}
	}
}

func TestNodeAndDemoTalkMutualTLS(t *testing.T) {
	// Given a node and a demo with certificates of one CA
	ca, err := testcerts.NewCA("tripwire test CA")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tlsFlags := func(name string) []string {
		cert, key, caFile, err := ca.WriteFiles(dir, name, "127.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		return []string{"-tls-cert", cert, "-tls-key", key, "-tls-ca", caFile}
	}
	node, addr := startNode(t, append(tlsFlags("node"), "-report", "100ms")...)
	if !strings.Contains(node.first, "mutual TLS") {
		t.Errorf("the node's first line: %q", node.first)
	}
	// When the demo calls the node
	startChild(t, append([]string{"demo", "-remote", addr, "-keys", "1", "-duration", "3s", "-crash-at", "0", "-live", "never"},
		tlsFlags("demo")...)...)
	// Then the node serves its requests
	node.waitLine(t, " requests (+", 5*time.Second)
}
