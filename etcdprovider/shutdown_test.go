package etcdprovider

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/asynkron/protoactor-go/cluster"
)

// leaver is a cluster provider whose Shutdown returns err.
type leaver struct {
	cluster.ClusterProvider
	err error
}

func (l leaver) Shutdown(bool) error { return l.err }

// conn counts its closes.
type conn struct{ closed int }

func (c *conn) close() { c.closed++ }

func TestShutdownThatCannotLeaveIsReportedAndCloses(t *testing.T) {
	// Given a member whose provider cannot delete its key: etcd is gone
	var logs bytes.Buffer
	c := &conn{}
	p := &Provider{inner: leaver{err: ErrTimeout}, conn: c, logger: slog.New(slog.NewTextHandler(&logs, nil))}
	// When it shuts down
	err := p.Shutdown(true)
	// Then the failure is returned, logged on the cluster's logger, and the connection to etcd closed
	if !errors.Is(err, ErrDeregister) || !errors.Is(err, ErrTimeout) {
		t.Fatalf("Shutdown = %v, want ErrDeregister and ErrTimeout", err)
	}
	if !strings.Contains(logs.String(), "could not leave etcd") {
		t.Fatalf("log %q", logs.String())
	}
	if c.closed != 1 {
		t.Fatalf("connection closed %d times, want 1", c.closed)
	}
}

func TestShutdownThatLeavesCloses(t *testing.T) {
	c := &conn{}
	p := &Provider{inner: leaver{}, conn: c}
	if err := p.Shutdown(true); err != nil || c.closed != 1 {
		t.Fatalf("Shutdown = %v, closed %d times; want nil, 1", err, c.closed)
	}
}
