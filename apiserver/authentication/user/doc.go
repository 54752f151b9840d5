// Package user is who a request comes from, as authentication found it and
// authorization reads it: a name, a uid, groups and extra attributes.
//
// Kubernetes: staging/src/k8s.io/apiserver/pkg/authentication/user/user.go
// at v1.37.2 (the Info interface and DefaultInfo, and the well-known names
// system:masters, system:authenticated, system:anonymous, ...), and
// endpoints/request/context.go (WithUser, UserFrom).
//
// What we simplify: Info is a plain struct, not an interface, because every
// authenticator here produces the same shape.
package user
