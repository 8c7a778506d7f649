package cluster

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A member paused longer than its lease is dropped for good: the others
// block its ID (cluster/member_list.go:142-145, 196-198), so when it
// wakes up and registers again in etcd they ignore it, while they still
// take in a member that joins after it.
func TestEtcdPausedMemberIsEvictedForGood(t *testing.T) {
	ec := etcdClusterFor(t)
	// Given a third member, p
	p := ec.join(t)
	ec.members(t, 3, 5*time.Second)

	// When p is paused past its lease
	if err := p.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	ec.members(t, 2, etcdLease+2*time.Second) // r dropped it
	if err := p.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// And it wakes up and registers again: 3 members' keys in etcd
	eventually(t, 5*time.Second, "p registered in etcd again", func() bool { return ec.etcd.keys(t, ec.name) == 3 })

	// Then r still ignores it: once r has taken in a fourth member, which
	// registered after p (etcd's watch keeps the order), r sees itself, b
	// and the newcomer, not p
	q := ec.join(t)
	var seen string
	eventually(t, 5*time.Second, "r sees the newcomer", func() bool {
		seen = ec.r.do(t, "members")
		return strings.Contains(seen, q.addr)
	})
	if strings.Contains(seen, p.addr) || !strings.HasPrefix(seen, "3 ") {
		t.Fatalf("r sees %q, want r, b and the newcomer %s, and not p %s", seen, q.addr, p.addr)
	}
}

// keys counts the members' keys of cluster name in etcd (protoactor's
// provider keeps one per member under /protoactor/<name>/), through
// etcd's JSON gateway.
func (e *etcdServer) keys(t *testing.T, name string) int {
	t.Helper()
	prefix := "/protoactor/" + name + "/"
	end := prefix[:len(prefix)-1] + string(rune(prefix[len(prefix)-1]+1))
	body, _ := json.Marshal(map[string]any{
		"key": base64.StdEncoding.EncodeToString([]byte(prefix)), "range_end": base64.StdEncoding.EncodeToString([]byte(end)),
		"count_only": true,
	})
	c := http.Client{Timeout: 2 * time.Second}
	r, err := c.Post("http://"+e.endpoint+"/v3/kv/range", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("etcd range: %v", err)
	}
	defer r.Body.Close()
	var res struct{ Count string }
	if err := json.NewDecoder(r.Body).Decode(&res); err != nil {
		t.Fatalf("etcd range: %v", err)
	}
	if res.Count == "" {
		return 0 // etcd leaves out a zero count
	}
	n, err := strconv.Atoi(res.Count)
	if err != nil {
		t.Fatal(fmt.Errorf("etcd range count %q: %w", res.Count, err))
	}
	return n
}
