// Package serviceaccount is the registry of ServiceAccounts: their strategy
// and REST storage.
//
// Where it sits on the spine: the ServiceAccount controller creates the
// "default" account of every namespace here, and `kubectl create
// serviceaccount` adds others. A ServiceAccount has neither spec nor
// status; the strategy only trims its secret references to names.
//
// Kubernetes counterparts (v1.37.2): pkg/registry/core/serviceaccount/strategy.go
// (strategy.PrepareForCreate, PrepareForUpdate, cleanSecretReferences,
// Validate, ValidateUpdate) and pkg/registry/core/serviceaccount/storage/
// storage.go (NewREST).
//
// What we simplify: no token subresource (serviceaccounts/NAME/token, the
// TokenRequest API) — kubeloop has no authentication, so there is nothing a
// token could prove.
package serviceaccount
