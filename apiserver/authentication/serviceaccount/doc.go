// Package serviceaccount is the identity of a ServiceAccount and its
// tokens: the user name system:serviceaccount:<namespace>:<name> and its
// groups, and JWTs the apiserver signs (TokenRequest) and later verifies
// (the token authenticator) — signature, issuer, expiry, audience, and
// that the account, and the pod the token is bound to, still exist with
// the same UID.
//
// Where it sits on the spine: the serviceaccounts/token subresource calls
// Generator.Token; the authentication filter's bearer-token authenticator
// asks Authenticator.AuthenticateToken.
//
// Kubernetes counterparts (v1.37.2): pkg/serviceaccount/jwt.go
// (JWTTokenGenerator, JWTTokenAuthenticator), pkg/serviceaccount/claims.go
// (Claims, validator.Validate), staging/src/k8s.io/apiserver/pkg/
// authentication/serviceaccount/util.go (MakeUsername, SplitUsername,
// MakeGroupNames).
//
// What we simplify: one ES256 key (Kubernetes accepts several public keys
// and RS256); tokens bind to a pod only (not a Secret or a Node); no
// legacy Secret-based tokens, no warnafter, no node claims.
package serviceaccount
