package authenticator

import (
	"context"
	"errors"
	"net/http"

	"kubeloop/apiserver/authentication/user"
)

// Request authenticates an HTTP request. The three outcomes:
//   - (u, true, nil): the request comes from u;
//   - (nil, false, nil): this authenticator has nothing to say (no
//     certificate, no token of its kind), ask the next;
//   - (nil, false, err): credentials were presented and are bad — the
//     request must fail with 401, not fall back to anonymous.
type Request interface {
	AuthenticateRequest(r *http.Request) (*user.Info, bool, error)
}

// Token authenticates a bearer token, with the outcomes of Request.
type Token interface {
	AuthenticateToken(ctx context.Context, token string) (*user.Info, bool, error)
}

// RequestFunc lets a function be a Request authenticator.
type RequestFunc func(r *http.Request) (*user.Info, bool, error)

// AuthenticateRequest calls f.
func (f RequestFunc) AuthenticateRequest(r *http.Request) (*user.Info, bool, error) { return f(r) }

// TokenFunc lets a function be a Token authenticator.
type TokenFunc func(ctx context.Context, token string) (*user.Info, bool, error)

// AuthenticateToken calls f.
func (f TokenFunc) AuthenticateToken(ctx context.Context, token string) (*user.Info, bool, error) {
	return f(ctx, token)
}

// Union asks each authenticator in turn and returns the first user found.
// Errors are collected and returned only if nobody authenticated the
// request; with failOnError the first error ends the search. Kubernetes:
// union.New and union.NewFailOnError.
func Union(failOnError bool, auths ...Request) Request {
	return RequestFunc(func(r *http.Request) (*user.Info, bool, error) {
		var errs []error
		for _, a := range auths {
			u, ok, err := a.AuthenticateRequest(r)
			if err != nil {
				if failOnError {
					return nil, false, err
				}
				errs = append(errs, err)
				continue
			}
			if ok {
				return u, true, nil
			}
		}
		return nil, false, errors.Join(errs...)
	})
}

// UnionToken is Union for token authenticators (without failOnError: a
// token one authenticator does not know may be another's).
func UnionToken(auths ...Token) Token {
	return TokenFunc(func(ctx context.Context, token string) (*user.Info, bool, error) {
		var errs []error
		for _, a := range auths {
			u, ok, err := a.AuthenticateToken(ctx, token)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if ok {
				return u, true, nil
			}
		}
		return nil, false, errors.Join(errs...)
	})
}
