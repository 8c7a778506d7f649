package cluster

import (
	"strings"
	"testing"
)

// With members found through a real etcd, a breaker on one member reaches
// a grain on itself and on the other member.
func TestEtcdGrainOnEitherMember(t *testing.T) {
	ec := etcdClusterFor(t)
	// Given two members that found each other in etcd
	ec.members(t, 2, 0)
	for _, host := range []struct{ name, addr string }{
		{"on the registry's member", ec.r.addr},
		{"on the other member", ec.b.addr},
	} {
		t.Run(host.name, func(t *testing.T) {
			// And a breaker on r in front of a grain that lives on host
			id := ec.identityOn(t, "either", host.addr)
			key := "either/" + id
			ec.r.do(t, "register "+key+" "+id+" 3 1s 2s")
			// When it is called, Then the grain answers from host, its first message
			for i, want := range []string{" #1", " #2"} {
				reply := ec.r.do(t, "call "+key+" hello")
				if !strings.HasPrefix(reply, host.addr+" ") || !strings.HasSuffix(reply, want) {
					t.Fatalf("call %d: reply %q, want from %s%s", i+1, reply, host.addr, want)
				}
			}
		})
	}
}
