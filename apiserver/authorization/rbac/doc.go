// Package rbac is role-based access control: the authorizer that allows a
// request when some rule, reached through a binding whose subjects include
// the requester, covers it; the rule resolver behind it (which rules apply
// to a user in a namespace); and the rule comparison escalation prevention
// uses (does one set of rules cover another).
//
// Where it sits on the spine: the authorization filter asks the union of
// the Node authorizer and this one about every request, after
// authentication. The roles and bindings are read from a PolicyCache, an
// in-memory copy of the four RBAC resources kept by watching their watch
// caches, so a request costs no etcd read.
//
// Kubernetes counterparts (v1.37.2): plugin/pkg/auth/authorizer/rbac/rbac.go
// (RBACAuthorizer.Authorize, RulesFor, RuleAllows),
// pkg/registry/rbac/validation/rule.go (DefaultRuleResolver.VisitRulesFor,
// GetRoleReferenceRules, appliesTo, ConfirmNoEscalation),
// staging/src/k8s.io/component-helpers/auth/rbac/validation/policy_comparator.go
// (Covers, BreakdownRule), pkg/apis/rbac/v1/evaluation_helpers.go
// (VerbMatches, ResourceMatches, ...) and pkg/registry/rbac/validation/
// policy_compact.go (CompactRules). Kubernetes feeds the resolver from shared
// informers over a loopback client; the PolicyCache is that informer,
// reading the watch cache in-process.
//
// What we simplify: no field or label selector authorization, no
// authorization webhook; denials carry no audit annotations.
package rbac
