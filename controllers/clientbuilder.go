package controllers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// ServiceAccountNamespace is where the controllers' ServiceAccounts live.
const ServiceAccountNamespace = "kube-system"

// tokenLifetime is how long each controller token is asked to live, and
// refreshAt the fraction of it after which a fresh one is fetched: the
// numbers of Kubernetes' DynamicControllerClientBuilder (an hour, renewed
// once 80% of it has gone).
const (
	tokenLifetime = time.Hour
	refreshAt     = 0.8
)

// serviceAccountClients makes the client config of one controller that
// runs as its own ServiceAccount (--use-service-account-credentials):
// it makes sure kube-system/<account> exists, asks the TokenRequest API
// for a token with the controller manager's own client, and keeps the
// token fresh. Kubernetes: k8s.io/controller-manager/pkg/clientbuilder/
// client_builder_dynamic.go (DynamicControllerClientBuilder.Config).
//
// What we simplify: a failed refresh is retried on the next request
// rather than by a background loop, and the old token is used until it
// expires; a 401 drops the token, so the next request fetches a new one.
type serviceAccountClients struct {
	root *client.Client
	base *client.Config
	now  func() time.Time
}

// Config is the client config of the controller that runs as account.
func (b serviceAccountClients) Config(ctx context.Context, account, component string) (*client.Config, error) {
	// Each fetch makes sure the account exists: one deleted by hand is
	// made again, and its new token works (the old one names the old UID).
	src := &tokenSource{fetch: func(ctx context.Context) (string, time.Time, error) {
		if err := b.ensureAccount(ctx, account); err != nil {
			return "", time.Time{}, err
		}
		return b.requestToken(ctx, account)
	}, now: b.now}
	if _, err := src.Token(ctx); err != nil {
		return nil, err
	}
	cfg := *b.base.ForComponent(component)
	// The token must be the only credential: a client certificate would
	// be authenticated first and the controller would still be the
	// controller manager.
	cfg.BearerToken = ""
	cfg.TLS.CertData, cfg.TLS.KeyData, cfg.TLS.CertFile, cfg.TLS.KeyFile = nil, nil, "", ""
	inner := cfg.WrapTransport
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		if inner != nil {
			rt = inner(rt)
		}
		return &bearerTransport{base: rt, src: src}
	}
	return &cfg, nil
}

// ensureAccount creates kube-system/<account> unless it exists.
func (b serviceAccountClients) ensureAccount(ctx context.Context, account string) error {
	sas := client.For[*api.ServiceAccount](b.root).Namespace(ServiceAccountNamespace)
	_, err := sas.Get(ctx, account, client.GetOptions{})
	if api.IsNotFound(err) {
		_, err = sas.Create(ctx, &api.ServiceAccount{ObjectMeta: api.ObjectMeta{Name: account}}, client.CreateOptions{})
		if api.IsAlreadyExists(err) {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("service account %s/%s: %w", ServiceAccountNamespace, account, err)
	}
	return nil
}

// requestToken asks for a token of kube-system/<account>.
func (b serviceAccountClients) requestToken(ctx context.Context, account string) (string, time.Time, error) {
	seconds := int64(tokenLifetime / time.Second)
	body, err := json.Marshal(&api.TokenRequest{
		TypeMeta: api.TypeMeta{APIVersion: "authentication.k8s.io/v1", Kind: "TokenRequest"},
		Spec:     api.TokenRequestSpec{ExpirationSeconds: &seconds},
	})
	if err != nil {
		return "", time.Time{}, err
	}
	path := "/api/v1/namespaces/" + ServiceAccountNamespace + "/serviceaccounts/" + account + "/token"
	data, err := b.root.DoRaw(ctx, http.MethodPost, path, nil, body)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("token for %s/%s: %w", ServiceAccountNamespace, account, err)
	}
	tr := &api.TokenRequest{}
	if err := json.Unmarshal(data, tr); err != nil {
		return "", time.Time{}, fmt.Errorf("token for %s/%s: %w", ServiceAccountNamespace, account, err)
	}
	return tr.Status.Token, tr.Status.ExpirationTimestamp.Time, nil
}

// tokenSource caches a token and fetches a new one once refreshAt of its
// lifetime has passed.
type tokenSource struct {
	fetch func(ctx context.Context) (string, time.Time, error)
	now   func() time.Time

	mu      sync.Mutex
	token   string
	renewAt time.Time
	expires time.Time
}

// Token is a token valid now; a failed refresh keeps the old one while it
// lasts.
func (s *tokenSource) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.token != "" && now.Before(s.renewAt) {
		return s.token, nil
	}
	token, expires, err := s.fetch(ctx)
	if err != nil {
		if s.token != "" && now.Before(s.expires) {
			return s.token, nil
		}
		return "", err
	}
	s.token, s.expires = token, expires
	s.renewAt = now.Add(time.Duration(float64(expires.Sub(now)) * refreshAt))
	return token, nil
}

// Invalidate forgets token if it is still the current one: the apiserver
// refused it (its account was deleted, say), so the next Token fetches.
func (s *tokenSource) Invalidate(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token == token {
		s.token, s.renewAt, s.expires = "", time.Time{}, time.Time{}
	}
}

// bearerTransport puts the source's token on every request.
type bearerTransport struct {
	base http.RoundTripper
	src  *tokenSource
}

func (t *bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	token, err := t.src.Token(r.Context())
	if err != nil {
		return nil, err
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+token)
	resp, err := t.base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		t.src.Invalidate(token)
	}
	return resp, err
}
