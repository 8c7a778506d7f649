package remote

import (
	"os"
	"sync"
	"testing"

	"github.com/tripwire-go/tripwire/internal/testcerts"
)

// The certificates of the tests' mutual TLS, made once for the test
// process: one certificate of the tests' CA for every node, naming every
// address a node of these tests listens on, and one of another CA.
var certs struct {
	once      sync.Once
	dir       string
	ca, other tlsFiles
	err       error
}

// testTLS returns the files of a certificate of the tests' CA, and of one
// of another CA.
func testTLS(t *testing.T) (ca, other tlsFiles) {
	t.Helper()
	certs.once.Do(func() {
		if certs.dir, certs.err = os.MkdirTemp("", "tripwire-remote-certs"); certs.err != nil {
			return
		}
		hosts := []string{"127.0.0.1", vethA, vethB}
		for _, c := range []struct {
			name  string
			files *tlsFiles
		}{{"tripwire test CA", &certs.ca}, {"another CA", &certs.other}} {
			ca, err := testcerts.NewCA(c.name)
			if err != nil {
				certs.err = err
				return
			}
			f := c.files
			if f.Cert, f.Key, f.CA, certs.err = ca.WriteFiles(certs.dir, "node-of-"+c.name[:3], hosts...); certs.err != nil {
				return
			}
		}
	})
	if certs.err != nil {
		t.Fatal(certs.err)
	}
	return certs.ca, certs.other
}

// removeCerts deletes the certificates' files.
func removeCerts() {
	if certs.dir != "" {
		_ = os.RemoveAll(certs.dir)
	}
}
