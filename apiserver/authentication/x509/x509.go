package x509

import (
	"crypto/x509"
	"fmt"
	"net/http"
	"time"

	"kubeloop/apiserver/authentication/user"
)

// Authenticator verifies client certificates against a CA pool.
type Authenticator struct {
	roots *x509.CertPool
	// verified remembers certificates that verified (cache.go).
	verified verifiedCache
}

// New returns an authenticator trusting the CAs in roots.
func New(roots *x509.CertPool) *Authenticator { return &Authenticator{roots: roots} }

// AuthenticateRequest returns the certificate's CN as the user and its O
// fields as groups. No certificate means "not mine"; one that does not
// verify (unknown CA, expired, not for client auth) is an error: 401.
func (a *Authenticator) AuthenticateRequest(r *http.Request) (*user.Info, bool, error) {
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
		return nil, false, nil
	}
	leaf := r.TLS.PeerCertificates[0]
	now := time.Now()
	if a.verified.ok(leaf, now) {
		return userOf(leaf)
	}
	opts := x509.VerifyOptions{
		Roots:         a.roots,
		Intermediates: x509.NewCertPool(),
		KeyUsages:     []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	for _, c := range r.TLS.PeerCertificates[1:] {
		opts.Intermediates.AddCert(c)
	}
	if _, err := leaf.Verify(opts); err != nil {
		return nil, false, fmt.Errorf("verifying certificate SN=%s, CN=%s failed: %w", leaf.SerialNumber, leaf.Subject.CommonName, err)
	}
	a.verified.remember(leaf, now)
	return userOf(leaf)
}

func userOf(leaf *x509.Certificate) (*user.Info, bool, error) {
	// A certificate without a name identifies nobody; Kubernetes lets the
	// next authenticator try.
	if leaf.Subject.CommonName == "" {
		return nil, false, nil
	}
	return &user.Info{Name: leaf.Subject.CommonName, Groups: append([]string(nil), leaf.Subject.Organization...)}, true, nil
}
