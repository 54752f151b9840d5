// Package tokenfile authenticates static bearer tokens listed in a CSV file
// (kube-apiserver's --token-auth-file): one line per token,
//
//	token,user,uid,"group1,group2"
//
// the groups column optional.
//
// Where it sits on the spine: one of the token authenticators behind
// authenticator.BearerToken.
//
// Kubernetes: staging/src/k8s.io/apiserver/pkg/authentication/token/
// tokenfile/tokenfile.go at v1.37.2 (NewCSV, AuthenticateToken).
//
// What we simplify: the file is read once, at start (as in Kubernetes);
// lines starting with "#" are comments.
package tokenfile
