package remoting

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
)

// MutualTLS is the TLS of a node for Config.TLS: it presents cert to the
// peers it dials and to those that dial it, and accepts only peers whose
// certificate cas signs, on both sides (TLS 1.3). cert must be good for
// both (extended key usages serverAuth and clientAuth), and name the host
// its peers dial: the host of the node's address, as a DNS name or an IP
// address (or set ServerName on the result to one name every certificate
// holds).
func MutualTLS(cert tls.Certificate, cas *x509.CertPool) *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		RootCAs:      cas,
		ClientCAs:    cas,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS13,
	}
}

// LoadMutualTLS is MutualTLS with a certificate and key read from PEM
// files, and the CAs from caFile (PEM, one or more certificates). A file
// that cannot be read or parsed is ErrInvalidConfig (and the file's error,
// such as fs.ErrNotExist).
func LoadMutualTLS(certFile, keyFile, caFile string) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("%w: certificate %s, key %s: %w", ErrInvalidConfig, certFile, keyFile, err)
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("%w: CA: %w", ErrInvalidConfig, err)
	}
	cas := x509.NewCertPool()
	if !cas.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%w: CA %s holds no PEM certificate", ErrInvalidConfig, caFile)
	}
	return MutualTLS(cert, cas), nil
}

// checkTLS returns why c cannot be a node's TLS, or nil (also for nil c:
// plaintext).
func checkTLS(c *tls.Config) error {
	switch {
	case c == nil:
		return nil
	case c.ClientAuth != tls.RequireAndVerifyClientCert:
		return fmt.Errorf("%w: TLS is not mutual: ClientAuth is %v, want RequireAndVerifyClientCert (see MutualTLS)", ErrInvalidConfig, c.ClientAuth)
	case c.InsecureSkipVerify:
		return fmt.Errorf("%w: TLS with InsecureSkipVerify authenticates no node", ErrInvalidConfig)
	case len(c.Certificates) == 0 && (c.GetCertificate == nil || c.GetClientCertificate == nil):
		return fmt.Errorf("%w: TLS without a certificate for both sides (Certificates, or GetCertificate and GetClientCertificate)", ErrInvalidConfig)
	}
	return nil
}
