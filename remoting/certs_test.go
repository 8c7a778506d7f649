package remoting_test

import (
	"crypto/tls"
	"testing"

	"github.com/tripwire-go/tripwire/internal/testcerts"
	"github.com/tripwire-go/tripwire/remoting"
)

// testCA is a CA of the test's own.
type testCA struct{ *testcerts.CA }

func newCA(t *testing.T, name string) testCA {
	t.Helper()
	ca, err := testcerts.NewCA(name)
	if err != nil {
		t.Fatal(err)
	}
	return testCA{ca}
}

// node is the mutual TLS of a node whose certificate the CA signs for hosts.
func (ca testCA) node(t *testing.T, hosts ...string) *tls.Config {
	t.Helper()
	cert, err := ca.Issue("node", hosts...)
	if err != nil {
		t.Fatal(err)
	}
	return remoting.MutualTLS(cert, ca.Pool())
}
