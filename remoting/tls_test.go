package remoting_test

import (
	"crypto/tls"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/tripwire-go/tripwire/internal/node"
	"github.com/tripwire-go/tripwire/internal/rawpeer"
	"github.com/tripwire-go/tripwire/internal/testcerts"
	"github.com/tripwire-go/tripwire/remoting"
)

// peerTLS is the mutual TLS of a peer whose certificate ca signs.
func peerTLS(t *testing.T, ca *testcerts.CA) *tls.Config {
	t.Helper()
	cert, err := ca.Issue("peer", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	return remoting.MutualTLS(cert, ca.Pool())
}

func TestOnlyPeersWithACertificateOfTheCAReachTheNode(t *testing.T) {
	// Given a node with mutual TLS
	n, ca, _ := nodeUnderTest(t)
	before := n.Calls()
	echo := actor.NewPID(n.Address(), node.Name)
	other, err := testcerts.NewCA("another CA")
	if err != nil {
		t.Fatal(err)
	}
	noCert := peerTLS(t, ca)
	noCert.Certificates = nil
	for name, creds := range map[string]credentials.TransportCredentials{
		"plaintext":                   insecure.NewCredentials(),
		"TLS without a certificate":   credentials.NewTLS(noCert),
		"a certificate of another CA": credentials.NewTLS(peerTLS(t, other)),
		"trusting only another CA":    credentials.NewTLS(remoting.MutualTLS(peerTLS(t, ca).Certificates[0], other.Pool())),
	} {
		// When a peer without a certificate of its CA connects
		_, err := dialRaw(t, n.Address(), creds)
		// Then it is refused at the handshake
		if err == nil {
			t.Errorf("%s: connected", name)
		}
	}
	// And nothing reached an actor
	if n.Calls() != before {
		t.Errorf("the echo ran %d requests", n.Calls()-before)
	}

	// When a peer with one sends a request, Then it is answered
	peer, err := dialRaw(t, n.Address(), credentials.NewTLS(peerTLS(t, ca)))
	if err != nil {
		t.Fatal(err)
	}
	f := actor.NewFuture(n.System(), 10*time.Second)
	send(t, peer, rawpeer.Batch(protoEnvelope(t, wrapperspb.String("hi"), echo, f.PID())))
	if _, err := f.Result(); err != nil {
		t.Fatal(err)
	}
}

func TestLoadMutualTLS(t *testing.T) {
	ca, err := testcerts.NewCA("tripwire test CA")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile, caFile, err := ca.WriteFiles(dir, "node", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	// Files that hold a certificate, its key and a CA make a mutual TLS
	c, err := remoting.LoadMutualTLS(certFile, keyFile, caFile)
	if err != nil || len(c.Certificates) != 1 || c.ClientAuth != tls.RequireAndVerifyClientCert {
		t.Fatalf("LoadMutualTLS = %+v, %v", c, err)
	}
	if _, err := remoting.Options(remoting.Config{TLS: c}); err != nil {
		t.Fatal(err)
	}
	// Others are ErrInvalidConfig, and say what is wrong
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.pem")
	for _, files := range [][3]string{
		{missing, keyFile, caFile},
		{certFile, missing, caFile},
		{certFile, keyFile, missing},
		{certFile, caFile, caFile}, // a certificate for a key
		{certFile, keyFile, notPEM},
	} {
		_, err := remoting.LoadMutualTLS(files[0], files[1], files[2])
		if !errors.Is(err, remoting.ErrInvalidConfig) {
			t.Errorf("LoadMutualTLS(%q) = %v, want ErrInvalidConfig", files, err)
		}
		if files[0] == missing || files[1] == missing || files[2] == missing {
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("LoadMutualTLS(%q) = %v, want fs.ErrNotExist too", files, err)
			}
		}
	}
}
