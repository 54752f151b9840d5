package pki

import (
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// LoadOrCreateServing returns <dir>/<name>.crt and .key if they are a
// serving certificate of ca that covers every host and is not about to
// expire; otherwise it issues a new pair and writes it. So a restart keeps
// the certificate, and a restart on a new address gets one that fits.
func LoadOrCreateServing(dir, name string, ca *CA, hosts []string) (*KeyPair, error) {
	return loadOrIssue(dir, name, ca, func(c *x509.Certificate) bool {
		for _, h := range hosts {
			if c.VerifyHostname(h) != nil {
				return false
			}
		}
		return true
	}, func() (*KeyPair, error) { return ca.IssueServing("kube-apiserver", hosts) })
}

// LoadOrCreateClient is LoadOrCreateServing for a client certificate of
// user with groups.
func LoadOrCreateClient(dir, name string, ca *CA, user string, groups []string) (*KeyPair, error) {
	return loadOrIssue(dir, name, ca, func(c *x509.Certificate) bool {
		return c.Subject.CommonName == user && slices.Equal(c.Subject.Organization, groups)
	}, func() (*KeyPair, error) { return ca.IssueClient(user, groups) })
}

func loadOrIssue(dir, name string, ca *CA, fits func(*x509.Certificate) bool, issue func() (*KeyPair, error)) (*KeyPair, error) {
	certPath, keyPath := filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if kp, ok := loadValid(certPath, keyPath, ca, fits); ok {
		return kp, nil
	}
	kp, err := issue()
	if err != nil {
		return nil, err
	}
	return kp, writePair(certPath, kp.CertPEM, keyPath, kp.KeyPEM)
}

// loadValid reads a pair and reports whether it is still good: signed by
// ca, fitting, and valid for at least another week.
func loadValid(certPath, keyPath string, ca *CA, fits func(*x509.Certificate) bool) (*KeyPair, bool) {
	certPEM, err := os.ReadFile(certPath)
	if err != nil {
		return nil, false
	}
	keyPEM, err := os.ReadFile(keyPath)
	if err != nil {
		return nil, false
	}
	cert, err := ParseCert(certPEM)
	if err != nil || cert.CheckSignatureFrom(ca.Cert) != nil || !fits(cert) {
		return nil, false
	}
	if time.Until(cert.NotAfter) < 7*24*time.Hour {
		return nil, false
	}
	if _, err := ParseKey(keyPEM); err != nil {
		return nil, false
	}
	return &KeyPair{CertPEM: certPEM, KeyPEM: keyPEM}, true
}

// ServingHosts is what the serving certificate of an apiserver listening
// on addr must cover: localhost, the loopback addresses, the in-cluster
// names of the kubernetes Service, and the listen host itself — or, for a
// wildcard address, this machine's name and interface addresses.
func ServingHosts(addr string) []string {
	hosts := []string{"localhost", "127.0.0.1", "::1",
		"kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip := net.ParseIP(host)
	switch {
	case host == "" || (ip != nil && ip.IsUnspecified()):
		if h, err := os.Hostname(); err == nil {
			hosts = append(hosts, h)
		}
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					hosts = append(hosts, n.IP.String())
				}
			}
		}
	default:
		hosts = append(hosts, host)
	}
	slices.Sort(hosts)
	return slices.Compact(hosts)
}

// LoadOrCreateKey returns the private key in <dir>/<name>.key, creating it
// on first use: the ServiceAccount token signing key (kubeadm's sa.key),
// which must survive restarts or every issued token stops working.
func LoadOrCreateKey(dir, name string) (crypto.Signer, error) {
	path := filepath.Join(dir, name+".key")
	if data, err := os.ReadFile(path); err == nil {
		return ParseKey(data)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("pki: %w", err)
	}
	key, err := newKey()
	if err != nil {
		return nil, err
	}
	pemBytes, err := encodeKey(key)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	if err := os.WriteFile(path, pemBytes, 0o600); err != nil {
		return nil, fmt.Errorf("pki: %w", err)
	}
	return key, nil
}
