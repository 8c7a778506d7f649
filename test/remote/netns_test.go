package remote

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// A netPair is two network namespaces of this test's own, "hosts" a and b,
// joined by a veth pair with an address each from a private /30 that no
// route leads out of: a partition between them is made by dropping
// packets in a, the node's side, with nftables, and touches nothing else.
type netPair struct {
	a, b         string // the namespaces' names
	addrA, addrB string // their addresses on the veth pair
}

const (
	// netnsPrefix starts the name of every namespace these tests make,
	// followed by the test process's pid and a or b.
	netnsPrefix = "twnet"
	// The /30 between a and b: it exists only on the veth pair.
	vethA, vethB = "10.213.7.1", "10.213.7.2"
	// requireNetnsEnv makes a missing tool fail the test instead of
	// skipping it (make test sets it, so CI cannot skip).
	requireNetnsEnv = "TRIPWIRE_REQUIRE_NETNS"
	// partitionTable is the nftables table that drops a's packets.
	partitionTable = "tripwire_partition"
)

// newNetPair makes the two namespaces, or skips the test, saying why, where
// this machine cannot: not root, no ip, no nft. The test's cleanup deletes
// them (which deletes the veth pair and every nftables table in them);
// namespaces left by a test process that was killed are deleted first.
func newNetPair(t *testing.T) *netPair {
	t.Helper()
	if reason := netnsUnavailable(); reason != "" {
		if os.Getenv(requireNetnsEnv) == "1" {
			t.Fatalf("%s=1 but %s (make netns installs iproute2 and nftables)", requireNetnsEnv, reason)
		}
		t.Skipf("needs network namespaces: %s (make netns installs iproute2 and nftables; run as root)", reason)
	}
	deleteStaleNamespaces(t)
	p := &netPair{
		a: fmt.Sprintf("%s%da", netnsPrefix, os.Getpid()), b: fmt.Sprintf("%s%db", netnsPrefix, os.Getpid()),
		addrA: vethA, addrB: vethB,
	}
	t.Cleanup(func() {
		for _, ns := range []string{p.a, p.b} {
			if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil && !strings.Contains(string(out), "No such file") {
				t.Errorf("ip netns del %s: %v: %s", ns, err, out)
			}
		}
	})
	ifA, ifB := fmt.Sprintf("tw%da", os.Getpid()), fmt.Sprintf("tw%db", os.Getpid())
	for _, args := range [][]string{
		{"netns", "add", p.a},
		{"netns", "add", p.b},
		{"link", "add", ifA, "netns", p.a, "type", "veth", "peer", "name", ifB, "netns", p.b},
		{"-n", p.a, "addr", "add", p.addrA + "/30", "dev", ifA},
		{"-n", p.b, "addr", "add", p.addrB + "/30", "dev", ifB},
		{"-n", p.a, "link", "set", "lo", "up"},
		{"-n", p.b, "link", "set", "lo", "up"},
		{"-n", p.a, "link", "set", ifA, "up"},
		{"-n", p.b, "link", "set", ifB, "up"},
	} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return p
}

// netnsUnavailable says why namespaces cannot be made here ("" if they can).
func netnsUnavailable() string {
	if os.Geteuid() != 0 {
		return "not root"
	}
	for _, tool := range []string{"ip", "nft"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "no " + tool + " on PATH"
		}
	}
	return ""
}

// deleteStaleNamespaces deletes the namespaces of test processes that are
// no longer running: one killed mid-test (by -timeout, say) ran no cleanup.
func deleteStaleNamespaces(t *testing.T) {
	out, err := exec.Command("ip", "netns", "list").Output()
	if err != nil {
		t.Fatalf("ip netns list: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		pid, err := strconv.Atoi(strings.TrimRight(strings.TrimPrefix(name, netnsPrefix), "ab"))
		if !strings.HasPrefix(name, netnsPrefix) || err != nil || pidRunning(pid) {
			continue
		}
		_ = exec.Command("ip", "netns", "del", name).Run()
	}
}

func pidRunning(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// partition drops every packet into and out of a, without a word to
// either side: what a real partition looks like (no RST, no ICMP).
func (p *netPair) partition(t *testing.T) {
	t.Helper()
	rules := "table inet " + partitionTable + " {\n" +
		"  chain input { type filter hook input priority 0; policy drop; }\n" +
		"  chain output { type filter hook output priority 0; policy drop; }\n" +
		"}\n"
	cmd := exec.Command("ip", "netns", "exec", p.a, "nft", "-f", "-")
	cmd.Stdin = strings.NewReader(rules)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nft in %s: %v: %s", p.a, err, out)
	}
}

// heal removes the partition.
func (p *netPair) heal(t *testing.T) {
	t.Helper()
	if out, err := exec.Command("ip", "netns", "exec", p.a, "nft", "delete", "table", "inet", partitionTable).CombinedOutput(); err != nil {
		t.Fatalf("nft delete in %s: %v: %s", p.a, err, out)
	}
}

// synSchedule sets the SYN retransmission schedule of both hosts: linear
// (Linux since 6.5: the first 4 retransmissions 1 s apart) or exponential
// (before 6.5: 1 s, then doubling). Each namespace has its own.
func (p *netPair) synSchedule(t *testing.T, schedule string) {
	t.Helper()
	v, ok := map[string]string{"linear": "4", "exponential": "0"}[schedule]
	if !ok {
		t.Fatalf("SYN schedule %q: want linear or exponential", schedule)
	}
	for _, ns := range []string{p.a, p.b} {
		if out, err := exec.Command("ip", "netns", "exec", ns, "sysctl", "-w", "net.ipv4.tcp_syn_linear_timeouts="+v).CombinedOutput(); err != nil {
			t.Fatalf("sysctl in %s: %v: %s", ns, err, out)
		}
	}
}
