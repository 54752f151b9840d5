package serviceaccount

import (
	"context"
	"crypto"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
)

// DefaultIssuer is kubeadm's --service-account-issuer, also the default
// audience of tokens.
const DefaultIssuer = "https://kubernetes.default.svc.cluster.local"

// Claims is a ServiceAccount token's payload: the registered claims and
// Kubernetes' private "kubernetes.io" claim naming the account and, for a
// bound token, the pod.
type Claims struct {
	jwt.RegisteredClaims
	Kubernetes privateClaims `json:"kubernetes.io"`
}

type privateClaims struct {
	Namespace      string `json:"namespace"`
	ServiceAccount ref    `json:"serviceaccount"`
	Pod            *ref   `json:"pod,omitempty"`
}

type ref struct {
	Name string `json:"name"`
	UID  string `json:"uid"`
}

// Generator signs tokens.
type Generator struct {
	key    crypto.Signer
	issuer string
}

// NewGenerator signs with key (ECDSA P-256, ES256) as issuer.
func NewGenerator(key crypto.Signer, issuer string) *Generator {
	return &Generator{key: key, issuer: issuer}
}

// Token issues a token for sa, valid from now for lifetime, for
// audiences, bound to pod if it is not nil. Kubernetes: claims.go
// (Claims) and jwt.go (GenerateToken).
func (g *Generator) Token(sa *api.ServiceAccount, pod *api.Pod, audiences []string, now time.Time, lifetime time.Duration) (string, time.Time, error) {
	exp := now.Add(lifetime)
	c := Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    g.issuer,
			Subject:   MakeUsername(sa.Namespace, sa.Name),
			Audience:  audiences,
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(exp),
			ID:        rand.Text(),
		},
		Kubernetes: privateClaims{Namespace: sa.Namespace, ServiceAccount: ref{Name: sa.Name, UID: sa.UID}},
	}
	if pod != nil {
		c.Kubernetes.Pod = &ref{Name: pod.Name, UID: pod.UID}
	}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodES256, c).SignedString(g.key)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("serviceaccount: sign token: %w", err)
	}
	return signed, exp, nil
}

// Getter reads the objects a token names, to check they still exist.
type Getter interface {
	GetServiceAccount(ctx context.Context, namespace, name string) (*api.ServiceAccount, error)
	GetPod(ctx context.Context, namespace, name string) (*api.Pod, error)
}

// Authenticator verifies tokens a Generator with the same key signed.
type Authenticator struct {
	public    crypto.PublicKey
	issuer    string
	audiences []string
	getter    Getter
	now       func() time.Time
}

// NewAuthenticator accepts tokens of issuer signed by key's public half
// and meant for one of audiences.
func NewAuthenticator(public crypto.PublicKey, issuer string, audiences []string, getter Getter) *Authenticator {
	return &Authenticator{public: public, issuer: issuer, audiences: audiences, getter: getter, now: time.Now}
}

// AuthenticateToken returns the service account's user for a valid token.
// A token that is not a JWT of our issuer is not ours (another token
// authenticator may know it); one of ours that fails any check is an
// error, so a 401. Kubernetes: jwt.go (jwtTokenAuthenticator.
// AuthenticateToken) and claims.go (validator.Validate), whose messages
// these are.
func (a *Authenticator) AuthenticateToken(ctx context.Context, token string) (*user.Info, bool, error) {
	if !a.ours(token) {
		return nil, false, nil
	}
	c := &Claims{}
	_, err := jwt.ParseWithClaims(token, c, func(*jwt.Token) (any, error) { return a.public, nil },
		jwt.WithValidMethods([]string{"ES256"}), jwt.WithIssuer(a.issuer),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(a.now))
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, false, errors.New("service account token has expired")
	case err != nil:
		return nil, false, fmt.Errorf("invalid service account token: %w", err)
	}
	if !slices.ContainsFunc(c.Audience, func(aud string) bool { return slices.Contains(a.audiences, aud) }) {
		return nil, false, errors.New("token audiences do not match the apiserver's audiences")
	}
	k := c.Kubernetes
	sa, err := a.getter.GetServiceAccount(ctx, k.Namespace, k.ServiceAccount.Name)
	if err != nil {
		return nil, false, fmt.Errorf("service account token has been invalidated: %w", err)
	}
	if sa.UID != k.ServiceAccount.UID {
		return nil, false, fmt.Errorf("service account UID (%s) does not match claim (%s)", sa.UID, k.ServiceAccount.UID)
	}
	if sa.DeletionTimestamp != nil {
		return nil, false, errors.New("service account has been deleted")
	}
	u := &user.Info{Name: MakeUsername(k.Namespace, sa.Name), UID: sa.UID, Groups: MakeGroupNames(k.Namespace),
		Extra: map[string][]string{CredentialIDKey: {"JTI=" + c.ID}}}
	if k.Pod != nil {
		pod, err := a.getter.GetPod(ctx, k.Namespace, k.Pod.Name)
		if err != nil {
			return nil, false, fmt.Errorf("service account token has been invalidated: %w", err)
		}
		if pod.UID != k.Pod.UID {
			return nil, false, fmt.Errorf("pod UID (%s) does not match claim (%s)", pod.UID, k.Pod.UID)
		}
		u.Extra[PodNameKey] = []string{pod.Name}
		u.Extra[PodUIDKey] = []string{pod.UID}
	}
	return u, true, nil
}

// ours reads the token's issuer without verifying anything: only tokens
// claiming our issuer are ours to judge.
func (a *Authenticator) ours(token string) bool {
	if strings.Count(token, ".") != 2 {
		return false
	}
	c := &jwt.RegisteredClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, c); err != nil {
		return false
	}
	return c.Issuer == a.issuer
}
