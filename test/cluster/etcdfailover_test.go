package cluster

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tripwire-go/tripwire/internal/testkit"
)

// withFailover turns grain.Failover off for TestEtcdFailoverOnMemberKilled,
// to see it fail (and measure what the breakers did before): go test
// ./test/cluster -run TestEtcdFailoverOnMemberKilled -args -failover=false
var withFailover = flag.Bool("failover", true, "TestEtcdFailoverOnMemberKilled puts grain.Failover behind its breaker")

// failoverBound is how soon after the registry's member drops a killed
// member a call must have been answered by another one (issue 17).
const failoverBound = 500 * time.Millisecond

// When the member a grain lives on is killed (kill -9) while callers keep
// calling it, the breaker in front of the grain (opened meanwhile) probes
// as soon as the registry's member drops the dead one from its topology —
// etcd's lease, 3 s — and the calls find the grain on a member still
// there within failoverBound of that, whatever the OpenTimeout: with the
// default 30 s the circuit is open when the topology changes, with the
// demo's 1 s it may be half-open with a probe out to the dead member. The
// calls' timeout, 1 s, is longer than the bound, so that a probe out to the
// dead member meets it only if the grain target ends the probe when the
// topology drops the member (and a probe's activation elsewhere on a loaded
// machine is not failed by a short timeout).
func TestEtcdFailoverOnMemberKilled(t *testing.T) {
	ec := etcdClusterFor(t)
	for _, open := range []time.Duration{30 * time.Second, time.Second} {
		t.Run("OpenTimeout "+open.String(), func(t *testing.T) {
			// Given a third member, c, and a breaker on r in front of a grain
			// on c, with Failover, called by 4 callers
			c := ec.join(t)
			ec.members(t, 3, 5*time.Second)
			id := ec.identityOn(t, "failover", c.addr)
			key := "failover/" + id
			register := fmt.Sprintf("register %s %s 3 %v 1s", key, id, open)
			if *withFailover {
				register += " failover"
			}
			ec.r.do(t, register)
			ec.r.do(t, "load "+key)
			eventually(t, 5*time.Second, "the load reaches the grain", func() bool {
				return strings.HasPrefix(ec.r.do(t, "call "+key+" hello"), c.addr+" ")
			})

			// When c is killed
			killed := time.Now()
			c.kill()

			// Then r's topology drops it once its lease expires
			var dropped time.Duration
			eventually(t, etcdLease+2*time.Second, "r's topology drops c", func() bool {
				answer, err := ec.r.ask("left " + c.addr)
				if err != nil {
					t.Fatal(err)
				}
				ns, err := strconv.ParseInt(strings.TrimPrefix(answer, "ok "), 10, 64)
				dropped = time.Unix(0, ns).Sub(killed)
				return err == nil
			})
			// And a call is answered by another member within the bound of
			// that (without failover, wait for the OpenTimeout, to measure)
			stats := fmt.Sprintf("%d %s", killed.UnixNano(), c.addr)
			wait := dropped + failoverBound + time.Second
			if !*withFailover {
				wait = dropped + open + 5*time.Second
			}
			var s string
			if !testkit.Poll(wait-time.Since(killed), func() bool {
				s = ec.r.do(t, "stats "+key+" "+stats)
				return !strings.Contains(s, "elsewhere=none")
			}) {
				t.Fatalf("no call answered by another member %v after c was killed, %v after r's topology dropped it: %s; since the kill: %s",
					time.Since(killed).Round(time.Millisecond), (time.Since(killed) - dropped).Round(time.Millisecond),
					s, ec.r.do(t, fmt.Sprintf("history %s %d", key, killed.UnixNano())))
			}
			hist := ec.r.do(t, fmt.Sprintf("history %s %d", key, killed.UnixNano()))
			ec.r.do(t, "unload "+key)
			var opened, reason, elsewhere, host string
			var slow, down, rejected, other int
			if _, err := fmt.Sscanf(s, "open=%s reason=%s elsewhere=%s host=%s slow=%d down=%d rejected=%d other=%d",
				&opened, &reason, &elsewhere, &host, &slow, &down, &rejected, &other); err != nil {
				t.Fatalf("stats %q: %v", s, err)
			}
			first, err := time.ParseDuration(elsewhere)
			if err != nil {
				t.Fatalf("stats %q: %v", s, err)
			}
			t.Logf("c killed, OpenTimeout %v, failover %v: open after %s (%s); dropped by r's topology after %v; first success on another member after %v, %v after the drop; in between %d calls failed at their deadline, %d at once with ErrTargetDown, %d rejected, %d otherwise",
				open, *withFailover, opened, reason, dropped.Round(time.Millisecond), first, (first - dropped).Round(time.Millisecond), slow, down, rejected, other)
			if host != ec.r.addr && host != ec.b.addr {
				t.Fatalf("answered from %s, want r (%s) or b (%s)", host, ec.r.addr, ec.b.addr)
			}
			if first-dropped > failoverBound {
				t.Errorf("first success on another member %v after c was dropped, want at most %v; since the kill: %s",
					(first - dropped).Round(time.Millisecond), failoverBound, hist)
			}
		})
	}
}
