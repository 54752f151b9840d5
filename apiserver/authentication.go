package apiserver

import (
	"crypto/x509"
	"fmt"

	"kubeloop/apiserver/authentication/authenticator"
	"kubeloop/apiserver/authentication/tokenfile"
	x509auth "kubeloop/apiserver/authentication/x509"
)

// AuthenticationOptions say how a request may prove who it comes from.
// The zero value accepts only anonymous requests, as a kube-apiserver
// started without authentication flags does; cluster.Start and `kubeloop
// up` turn on client certificates and ServiceAccount tokens.
type AuthenticationOptions struct {
	// ClientCA verifies client certificates (kube-apiserver's
	// --client-ca-file). Nil: certificates authenticate nobody.
	ClientCA *x509.CertPool
	// TokenAuthFile is a static token CSV (--token-auth-file).
	TokenAuthFile string
	// Tokens are more token authenticators, asked after the token file.
	Tokens []authenticator.Token
	// DisableAnonymous answers 401 to requests without credentials
	// (--anonymous-auth=false). By default they run as system:anonymous.
	DisableAnonymous bool
}

// buildAuthenticator puts the configured authenticators in Kubernetes'
// order: client certificates, then bearer tokens, then anonymous.
// Kubernetes: pkg/kubeapiserver/authenticator/config.go (Config.New).
func buildAuthenticator(o AuthenticationOptions) (authenticator.Request, error) {
	var reqs []authenticator.Request
	if o.ClientCA != nil {
		reqs = append(reqs, x509auth.New(o.ClientCA))
	}
	var tokens []authenticator.Token
	if o.TokenAuthFile != "" {
		tf, err := tokenfile.NewCSV(o.TokenAuthFile)
		if err != nil {
			return nil, fmt.Errorf("apiserver: %w", err)
		}
		tokens = append(tokens, tf)
	}
	tokens = append(tokens, o.Tokens...)
	// Even with no token authenticator a bearer token is looked at: one
	// nobody can verify is bad credentials (401), not a reason to go on as
	// anonymous. (Kubernetes ignores the header then; it always has
	// ServiceAccount tokens configured in practice.)
	reqs = append(reqs, authenticator.BearerToken(authenticator.UnionToken(tokens...)))
	return authenticator.New(!o.DisableAnonymous, reqs...), nil
}
