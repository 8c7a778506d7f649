package cluster

import (
	"io"
	"net"
	"sync"
	"testing"
)

// tcpProxy forwards its address to another while up; cut closes every
// connection through it and refuses new ones until heal.
type tcpProxy struct {
	addr, to string
	mu       sync.Mutex
	up       bool
	conns    []net.Conn
	wg       sync.WaitGroup
}

func newTCPProxy(t *testing.T, to string) *tcpProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{addr: l.Addr().String(), to: to, up: true}
	p.wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.join(c)
		}
	})
	t.Cleanup(func() {
		_ = l.Close()
		p.cut()
		p.wg.Wait()
	})
	return p
}

// join forwards c, if the proxy is up.
func (p *tcpProxy) join(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	u, err := net.Dial("tcp", p.to)
	if !p.up || err != nil {
		_ = c.Close()
		if u != nil {
			_ = u.Close()
		}
		return
	}
	p.conns = append(p.conns, c, u)
	p.wg.Go(func() { _, _ = io.Copy(u, c); _ = u.Close() })
	p.wg.Go(func() { _, _ = io.Copy(c, u); _ = c.Close() })
}

// cut closes every connection and refuses new ones.
func (p *tcpProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up = false
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

// heal lets connections through again.
func (p *tcpProxy) heal() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.up = true
}
