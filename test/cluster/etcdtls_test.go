package cluster

import (
	"os"
	"sync"
	"testing"

	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/tripwire-go/tripwire/internal/rawpeer"
	"github.com/tripwire-go/tripwire/internal/testcerts"
	"github.com/tripwire-go/tripwire/remoting"
)

// Every member of the etcd tests runs protoactor's remote with
// remoting.Options and mutual TLS: one certificate of a CA of the test
// process's own for all of them, naming 127.0.0.1, made once.
var memberCerts struct {
	once sync.Once
	dir  string
	tls  tlsFiles
	err  error
}

// tlsFiles are a member's certificate, key and CAs, as PEM files.
type tlsFiles struct{ Cert, Key, CA string }

// etcdMemberTLS returns the files of the members' certificate.
func etcdMemberTLS() (tlsFiles, error) {
	memberCerts.once.Do(func() {
		ca, err := testcerts.NewCA("tripwire cluster test CA")
		if err != nil {
			memberCerts.err = err
			return
		}
		if memberCerts.dir, memberCerts.err = os.MkdirTemp("", "tripwire-cluster-certs"); memberCerts.err != nil {
			return
		}
		f := &memberCerts.tls
		f.Cert, f.Key, f.CA, memberCerts.err = ca.WriteFiles(memberCerts.dir, "member", "127.0.0.1")
	})
	return memberCerts.tls, memberCerts.err
}

// removeMemberCerts deletes the certificates' files.
func removeMemberCerts() {
	if memberCerts.dir != "" {
		_ = os.RemoveAll(memberCerts.dir)
	}
}

// remoteOptions are a member's remote options with the TLS of files
// (none if nil).
func remoteOptions(files *tlsFiles) ([]remote.ConfigOption, error) {
	if files == nil {
		return nil, nil
	}
	tlsCfg, err := remoting.LoadMutualTLS(files.Cert, files.Key, files.CA)
	if err != nil {
		return nil, err
	}
	return remoting.Options(remoting.Config{TLS: tlsCfg})
}

// The members of the etcd tests talk mutual TLS: a peer without a
// certificate of their CA is refused at the handshake, one with it is not.
func TestEtcdMembersTalkMutualTLS(t *testing.T) {
	ec := etcdClusterFor(t)
	files, err := etcdMemberTLS()
	if err != nil {
		t.Fatal(err)
	}
	tlsCfg, err := remoting.LoadMutualTLS(files.Cert, files.Key, files.CA)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := rawpeer.Dial(ec.r.addr, insecure.NewCredentials()); err == nil {
		p.Close()
		t.Error("a plaintext peer connected to a member")
	}
	p, err := rawpeer.Dial(ec.r.addr, credentials.NewTLS(tlsCfg))
	if err != nil {
		t.Fatalf("a peer of the members' CA: %v", err)
	}
	p.Close()
}
