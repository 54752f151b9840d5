// Package authenticator is how the apiserver finds out who sent a request:
// the Request and Token interfaces every authenticator implements, and the
// pieces that combine them in Kubernetes' order — a union that asks each in
// turn, bearer-token extraction, the system:authenticated group, and the
// anonymous fallback.
//
// Where it sits on the spine: the authentication filter (filters.
// WithAuthentication) calls one Request authenticator built by New; the
// user it returns goes into the request's context (package user) for
// impersonation and authorization to read.
//
// Kubernetes counterparts (v1.37.2), all under staging/src/k8s.io/apiserver/
// pkg/authentication/: authenticator/interfaces.go (Request, Token),
// request/union/union.go (New, NewFailOnError), request/bearertoken/
// bearertoken.go (Authenticator.AuthenticateRequest), group/
// authenticated_group_adder.go (AuthenticatedGroupAdder), request/anonymous/
// anonymous.go; and pkg/kubeapiserver/authenticator/config.go (Config.New),
// which decides the order.
//
// What we simplify: an authenticator returns *user.Info, not a Response
// with audiences (the ServiceAccount authenticator checks its audience
// itself); no token cache, no front-proxy headers, no OIDC or webhook.
package authenticator
