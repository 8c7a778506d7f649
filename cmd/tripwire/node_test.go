package main

import (
	"bytes"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

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

func TestNodeServesUntilStopped(t *testing.T) {
	// Given a node started on a port the OS chooses
	var out, errOut syncBuffer
	stop := make(chan os.Signal, 1)
	code := make(chan int, 1)
	go func() { code <- runNode([]string{"-listen", "127.0.0.1:0", "-report", "0"}, &out, &errOut, stop) }()
	addr := regexp.MustCompile(`at (127\.0\.0\.1:\d+)`)
	deadline := time.Now().Add(5 * time.Second)
	for addr.FindStringSubmatch(out.String()) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q %q", out.String(), errOut.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// Then it listens on the address it printed
	conn, err := net.Dial("tcp", addr.FindStringSubmatch(out.String())[1])
	if err != nil {
		t.Fatalf("dial the node: %v", err)
	}
	conn.Close()
	// When it is interrupted
	stop <- os.Interrupt
	// Then it stops and exits 0
	if c := <-code; c != 0 || !strings.Contains(out.String(), "node: stopping after 0 requests") {
		t.Fatalf("exit %d, out %q, err %q", c, out.String(), errOut.String())
	}
}

func TestNodeRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-latency", "-1s"},
		{"-report", "-1s"},
		{"extra"},
		{"-nope"},
	} {
		var out, errOut syncBuffer
		// When the node is started with a bad flag, Then it exits 2 and says why
		if c := runNode(args, &out, &errOut, nil); c != 2 || errOut.String() == "" {
			t.Errorf("runNode(%q) = %d, stderr %q", args, c, errOut.String())
		}
	}
	// An address it cannot listen on is an error of the run: exit 1
	var out, errOut syncBuffer
	if c := runNode([]string{"-listen", "no-port"}, &out, &errOut, nil); c != 1 || !strings.Contains(errOut.String(), "invalid config") {
		t.Errorf("bad -listen: exit %d, stderr %q", c, errOut.String())
	}
}
