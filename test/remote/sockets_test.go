package remote

import (
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// socketsTo counts the TCP sockets process pid holds (open file
// descriptors) to addr ("ip:port"), in whatever state: connected, or
// still connecting. It reads /proc, which shows the sockets of the
// process's own network namespace.
func socketsTo(t *testing.T, pid int, addr string) int {
	t.Helper()
	want, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	inodes := map[string]bool{}
	fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", pid))
	for _, fd := range fds {
		if link, err := os.Readlink(fd); err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	n := 0
	for _, table := range []string{"tcp", "tcp6"} {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || !inodes[f[9]] {
				continue
			}
			if ip, port, ok := procAddr(f[2]); ok && ip.Equal(want.IP) && port == want.Port {
				n++
			}
		}
	}
	return n
}

// procAddr parses an address of /proc/net/tcp: the IP address in hex, 32
// bits at a time in host (little-endian) order, a colon, the port in hex.
func procAddr(s string) (net.IP, int, bool) {
	ipHex, portHex, ok := strings.Cut(s, ":")
	raw, err := hex.DecodeString(ipHex)
	port, perr := strconv.ParseUint(portHex, 16, 16)
	if !ok || err != nil || perr != nil || len(raw)%4 != 0 {
		return nil, 0, false
	}
	for i := 0; i < len(raw); i += 4 {
		raw[i], raw[i+1], raw[i+2], raw[i+3] = raw[i+3], raw[i+2], raw[i+1], raw[i]
	}
	return net.IP(raw), int(port), true
}

// settle is how long the count of a caller's connections to a node must
// stay at most 2 to count as bounded: a connection of a failed attempt
// that protoactor left open redials with gRPC's backoff (at most
// remoting's ConnectTimeout apart) and would connect in that time.
const settle = 5 * time.Second

// boundedSockets checks that within a minute of when, the caller process
// pid holds at most 2 sockets to the node at addr, for settle on end, and
// returns how many it held at first and the most it held meanwhile.
func boundedSockets(t *testing.T, pid int, addr string, when time.Time) (first, most int) {
	t.Helper()
	first = socketsTo(t, pid, addr)
	var calm time.Time // since when the count has been at most 2
	for {
		n, now := socketsTo(t, pid, addr), time.Now()
		most = max(most, n)
		switch {
		case n > 2:
			calm = time.Time{}
		case calm.IsZero():
			calm = now
		}
		if !calm.IsZero() && now.Sub(calm) >= settle {
			return first, most
		}
		if now.Sub(when) > time.Minute+settle {
			t.Fatalf("the caller holds %d connections to the node a minute after it was reachable again (%d at first, %d at most), want at most 2", n, first, most)
		}
		time.Sleep(100 * time.Millisecond) // polling /proc: nothing tells when a socket closes
	}
}

// socketsAfter is boundedSockets with remoting on; without, it only counts
// the caller's connections to the node at the close and in the settle
// after it, for the figures.
func socketsAfter(t *testing.T, rem remotingSpec, pid int, addr string, closed time.Time) (first, most int) {
	t.Helper()
	if rem.On {
		return boundedSockets(t, pid, addr, closed)
	}
	first = socketsTo(t, pid, addr)
	for most = first; time.Since(closed) < settle; time.Sleep(100 * time.Millisecond) {
		most = max(most, socketsTo(t, pid, addr))
	}
	return first, most
}
