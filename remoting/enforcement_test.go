package remoting_test

import (
	"net"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"google.golang.org/grpc"

	"github.com/tripwire-go/tripwire/remoting"
)

// The server side accepts pings as often as MinTime, even on a connection
// with no stream open; gRPC's default policy (at most one ping every 5
// minutes, none without a stream) would close the connection with
// "too_many_pings" on the third, as it still does for a peer that pings
// faster than MinTime.
func TestServerAcceptsPingsAtMinTime(t *testing.T) {
	const minTime = 100 * time.Millisecond
	opts, err := remoting.ServerOptions(remoting.Config{Keepalive: remoting.Keepalive{MinTime: minTime}})
	if err != nil {
		t.Fatal(err)
	}
	// Given a gRPC server with the options
	addr := serve(t, opts)

	// When a client pings it every MinTime and a little, 5 times
	c := dialHTTP2(t, addr)
	for i := range 5 {
		time.Sleep(minTime + 30*time.Millisecond) // the pace under test, not a wait for something
		// Then every ping is answered
		if err := c.ping(); err != nil {
			t.Fatalf("ping %d at the allowed pace: %v", i+1, err)
		}
	}

	// When another client pings 10 times as often
	fast := dialHTTP2(t, addr)
	var err2 error
	for range 5 {
		time.Sleep(minTime / 10)
		if err2 = fast.ping(); err2 != nil {
			break
		}
	}
	// Then the server sends it away
	if err2 == nil {
		t.Fatal("a client pinging every MinTime/10 was never sent away")
	}
}

// serve starts a gRPC server with opts on a port of 127.0.0.1; the test's
// cleanup stops it.
func serve(t *testing.T, opts []grpc.ServerOption) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(opts...)
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Serve(l) }()
	t.Cleanup(func() { s.Stop(); <-done })
	return l.Addr().String()
}

// h2client is a bare HTTP/2 connection, to send pings at a chosen pace.
type h2client struct {
	t    *testing.T
	conn net.Conn
	fr   *http2.Framer
}

func dialHTTP2(t *testing.T, addr string) *h2client {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	if _, err := conn.Write([]byte(http2.ClientPreface)); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(conn, conn)
	if err := fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	return &h2client{t: t, conn: conn, fr: fr}
}

// errGoAway is the server closing the connection.
type errGoAway struct{ f *http2.GoAwayFrame }

func (e errGoAway) Error() string {
	return "GOAWAY " + e.f.ErrCode.String() + " " + string(e.f.DebugData())
}

// ping sends a ping and reads frames until its ack (nil) or a GOAWAY.
func (c *h2client) ping() error {
	c.t.Helper()
	data := [8]byte{'t', 'r', 'i', 'p', 'w', 'i', 'r', 'e'}
	if err := c.fr.WritePing(false, data); err != nil {
		return err
	}
	_ = c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		f, err := c.fr.ReadFrame()
		if err != nil {
			return err
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				if err := c.fr.WriteSettingsAck(); err != nil {
					return err
				}
			}
		case *http2.PingFrame:
			if f.IsAck() && f.Data == data {
				return nil
			}
		case *http2.GoAwayFrame:
			return errGoAway{f}
		}
	}
}
