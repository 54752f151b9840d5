package authenticator

import (
	"errors"
	"net/http"
	"strings"

	"kubeloop/apiserver/authentication/user"
)

// errInvalidToken is Kubernetes' message for a bearer token nobody knows.
var errInvalidToken = errors.New("invalid bearer token")

// BearerToken reads "Authorization: Bearer <token>" and asks tokens who it
// is. A request without such a header is not its business; a token that no
// token authenticator accepts is an error (401), never anonymous. On
// success the header is removed, so nothing further down (a proxy, a log)
// sees the credential. Kubernetes: request/bearertoken/bearertoken.go.
func BearerToken(tokens Token) Request {
	return RequestFunc(func(r *http.Request) (*user.Info, bool, error) {
		auth := strings.TrimSpace(r.Header.Get("Authorization"))
		scheme, token, found := strings.Cut(auth, " ")
		if !found || !strings.EqualFold(scheme, "bearer") {
			return nil, false, nil
		}
		token = strings.TrimSpace(token)
		if token == "" {
			return nil, false, nil
		}
		u, ok, err := tokens.AuthenticateToken(r.Context(), token)
		if !ok && err == nil {
			err = errInvalidToken
		}
		if ok {
			r.Header.Del("Authorization")
		}
		return u, ok, err
	})
}
