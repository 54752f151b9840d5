package filters

import (
	"log/slog"
	"net/http"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/authenticator"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/endpoints/handlers/responsewriters"
)

// WithAuthentication finds out who sent the request and stores the user
// in its context (user.WithUser) for impersonation and authorization. A
// request with bad credentials — an unknown token, a certificate from
// another CA, an expired ServiceAccount token — is answered 401 with the
// bare message "Unauthorized", exactly as Kubernetes does; why it failed
// goes to the server log only. Kubernetes: staging/src/k8s.io/apiserver/
// pkg/endpoints/filters/authentication.go (WithAuthentication) and
// unauthorized.go (Unauthorized).
func WithAuthentication(next http.Handler, auth authenticator.Request, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok, err := auth.AuthenticateRequest(r)
		if err != nil || !ok {
			if err != nil {
				log.Info("unable to authenticate the request", "path", r.URL.Path, "err", err)
			}
			responsewriters.WriteStatus(w, api.NewUnauthorized("Unauthorized"))
			return
		}
		next.ServeHTTP(w, r.WithContext(user.WithUser(r.Context(), u)))
	})
}
