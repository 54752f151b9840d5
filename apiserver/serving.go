package apiserver

import (
	"crypto/tls"
	"net"
)

// tlsConfig is the server side of TLS. It asks for a client certificate
// but does not insist on one or verify it: a request without one may still
// carry a token or be anonymous, and the x509 authenticator verifies the
// certificates that come, so a bad one is a 401 Status rather than a
// failed handshake. Kubernetes: staging/src/k8s.io/apiserver/pkg/server/
// secure_serving.go (SecureServingInfo.tlsConfig), which does the same
// with tls.RequestClientCert.
func (s *Server) tlsConfig() *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{*s.servingCert},
		ClientAuth:   tls.RequestClientCert,
		MinVersion:   tls.VersionTLS12,
	}
}

// isLoopback reports whether addr is a loopback IP address.
func isLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// defaultLimit is an in-flight limit: def for 0, none (0) for negative.
func defaultLimit(v, def int) int {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}
