// Package x509 authenticates requests by their TLS client certificate:
// a certificate that chains to the client CA names the user in its Common
// Name and the groups in its Organizations.
//
// Where it sits on the spine: the first authenticator the authentication
// filter asks. The TLS handshake only requests a certificate (it does not
// verify it), so that requests without one can still authenticate with a
// token or as anonymous; this package does the verifying.
//
// Kubernetes: staging/src/k8s.io/apiserver/pkg/authentication/request/
// x509/x509.go at v1.37.2 (Authenticator.AuthenticateRequest,
// CommonNameUserConversion).
//
// What we simplify: a fixed CA pool (Kubernetes can reload the file), no
// user UID from the certificate. Beyond Kubernetes: a verified certificate
// is remembered (cache.go). The handshake's own verification
// (r.TLS.VerifiedChains) cannot stand in for ours: it is filled only when
// the server asks TLS to verify (VerifyClientCertIfGiven), and then a
// certificate of another CA fails the handshake instead of getting
// Kubernetes' 401, so both kube-apiserver and kubeloop only request one.
package x509
