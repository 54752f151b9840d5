package apiserver

import (
	"context"
	"crypto"
	"crypto/x509"
	"fmt"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/serviceaccount"
	sarest "kubeloop/apiserver/registry/core/serviceaccount"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"

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
	// ServiceAccountKey signs and verifies ServiceAccount tokens
	// (--service-account-signing-key-file; ECDSA P-256). Nil: no
	// ServiceAccount tokens and no serviceaccounts/token subresource.
	ServiceAccountKey crypto.Signer
	// ServiceAccountIssuer is the tokens' iss (--service-account-issuer;
	// default serviceaccount.DefaultIssuer), APIAudiences the audiences
	// the apiserver accepts (--api-audiences; default the issuer).
	ServiceAccountIssuer string
	APIAudiences         []string
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

// serviceAccountTokens sets up ServiceAccount tokens when a signing key is
// configured: the token authenticator (appended to o.Tokens) and the
// serviceaccounts/token subresource that issues them. Kubernetes:
// pkg/controlplane/apiserver/options (--service-account-signing-key-file,
// --service-account-issuer, --api-audiences).
func (s *Server) serviceAccountTokens(o *AuthenticationOptions) error {
	if o.ServiceAccountKey == nil {
		return nil
	}
	issuer := o.ServiceAccountIssuer
	if issuer == "" {
		issuer = serviceaccount.DefaultIssuer
	}
	audiences := o.APIAudiences
	if len(audiences) == 0 {
		audiences = []string{issuer}
	}
	getter := objectGetter{s}
	o.Tokens = append(o.Tokens, serviceaccount.NewAuthenticator(o.ServiceAccountKey.Public(), issuer, audiences, getter))
	info, ok := s.reg.ForResource("", "serviceaccounts")
	if !ok {
		return fmt.Errorf("apiserver: ServiceAccount tokens need the serviceaccounts resource")
	}
	s.restStorage[info]["token"] = &sarest.TokenREST{
		ServiceAccounts: s.restStorage[info][""].(rest.Getter), Pods: getter,
		Generator: serviceaccount.NewGenerator(o.ServiceAccountKey, issuer), Audiences: audiences, Now: time.Now,
	}
	return nil
}

// objectGetter reads the service accounts and pods tokens name: from the
// watch cache, and from etcd when the cache does not have them (yet), as
// Kubernetes' token getter falls back to a live lookup.
type objectGetter struct{ s *Server }

func (g objectGetter) GetServiceAccount(ctx context.Context, namespace, name string) (*api.ServiceAccount, error) {
	obj, err := g.get(ctx, "serviceaccounts", namespace, name)
	if err != nil {
		return nil, err
	}
	return obj.(*api.ServiceAccount), nil
}

func (g objectGetter) GetPod(ctx context.Context, namespace, name string) (*api.Pod, error) {
	obj, err := g.get(ctx, "pods", namespace, name)
	if err != nil {
		return nil, err
	}
	return obj.(*api.Pod), nil
}

func (g objectGetter) get(ctx context.Context, resource, namespace, name string) (api.Object, error) {
	info, ok := g.s.reg.ForResource("", resource)
	if !ok {
		return nil, fmt.Errorf("apiserver: no %s resource", resource)
	}
	st := g.s.storage[info]
	obj, err := st.Get(ctx, info.Key(namespace, name), store.GetOptions{ResourceVersion: "0"})
	if api.IsNotFound(err) {
		obj, err = st.Get(ctx, info.Key(namespace, name), store.GetOptions{})
	}
	return obj, err
}
