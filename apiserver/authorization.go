package apiserver

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/authorization/bootstrappolicy"
	"kubeloop/apiserver/authorization/node"
	"kubeloop/apiserver/authorization/rbac"
	"kubeloop/apiserver/authorization/union"
	"kubeloop/apiserver/endpoints/request"
	authorizationreviews "kubeloop/apiserver/registry/authorization"
	rbacregistry "kubeloop/apiserver/registry/rbac"
	"kubeloop/store"
)

// The authorization modes (kube-apiserver's --authorization-mode values).
const (
	ModeAlwaysAllow = "AlwaysAllow"
	ModeRBAC        = "RBAC"
	ModeNode        = "Node"
)

// buildAuthorizer makes the server's authorizer from the modes, in
// order, behind the privileged-groups authorizer (system:masters may do
// anything), as pkg/kubeapiserver/authorizer/config.go (New) does. RBAC
// also starts the policy cache, fills in escalation prevention and, once
// the storage is ready, reconciles the bootstrap policy (see
// reconcileBootstrapPolicy).
func (s *Server) buildAuthorizer(ctx context.Context, modes []string) (authorizer.Authorizer, error) {
	if len(modes) == 0 {
		modes = []string{ModeAlwaysAllow}
	}
	if slices.Contains(modes, ModeAlwaysAllow) {
		if len(modes) > 1 {
			return nil, fmt.Errorf("apiserver: authorization mode %s cannot be combined with others", ModeAlwaysAllow)
		}
		return authorizer.AlwaysAllow(), nil
	}
	authorizers := []authorizer.Authorizer{union.NewPrivilegedGroups(user.SystemPrivilegedGroup)}
	for _, mode := range modes {
		switch mode {
		case ModeRBAC:
			cache := rbac.NewPolicyCache(ctx, rbac.Sources{
				Roles:               s.source("roles"),
				RoleBindings:        s.source("rolebindings"),
				ClusterRoles:        s.source("clusterroles"),
				ClusterRoleBindings: s.source("clusterrolebindings"),
			})
			s.readyChecks = append(s.readyChecks, func(context.Context) error {
				if !cache.HasSynced() {
					return errors.New("rbac policy cache not synced")
				}
				return nil
			})
			s.ruleResolver = rbac.NewRuleResolver(cache)
			authorizers = append(authorizers, rbac.New(s.ruleResolver))
		case ModeNode:
			authorizers = append(authorizers, s.nodeAuthorizer(ctx))
		default:
			return nil, fmt.Errorf("apiserver: unknown authorization mode %q", mode)
		}
	}
	a := union.New(authorizers...)
	if s.ruleResolver != nil {
		s.escalation.Authorizer, s.escalation.Resolver = a, s.ruleResolver
	}
	return a, nil
}

// source is the storage of one RBAC resource, for the policy cache.
func (s *Server) source(resource string) rbac.Source {
	info, _ := s.reg.ForResource(api.RBACGroupName, resource)
	return rbac.Source{Info: info, Storage: s.storage[info]}
}

// reconcileBootstrapPolicy writes the bootstrap roles and bindings as
// system:apiserver in system:masters, the identity of Kubernetes'
// loopback client. Only in RBAC mode: without it nobody reads them.
func (s *Server) reconcileBootstrapPolicy(ctx context.Context) error {
	if s.ruleResolver == nil {
		return nil
	}
	ctx = user.WithUser(ctx, &user.Info{Name: user.APIServerUser, Groups: []string{user.SystemPrivilegedGroup}})
	roles, _ := s.reg.ForResource(api.RBACGroupName, "clusterroles")
	bindings, _ := s.reg.ForResource(api.RBACGroupName, "clusterrolebindings")
	rs, ok1 := s.restStorage[roles][""].(rbacregistry.ReconcileStorage)
	bs, ok2 := s.restStorage[bindings][""].(rbacregistry.ReconcileStorage)
	if !ok1 || !ok2 {
		return errors.New("apiserver: the rbac storage cannot be reconciled")
	}
	ctx = request.WithNamespace(ctx, "")
	if err := rbacregistry.EnsureBootstrapPolicy(ctx, rs, bs); err != nil {
		return fmt.Errorf("apiserver: %w", err)
	}
	return nil
}

// nodeAuthorizer is the Node authorizer over an index of the pods by
// node (node.PodIndex), which lists the pod watch cache until it has
// synced: a kubelet's reads of secrets and configmaps look at its node's
// pods there.
func (s *Server) nodeAuthorizer(ctx context.Context) authorizer.Authorizer {
	info, _ := s.reg.ForResource("", "pods")
	pods := s.storage[info]
	list := func(ctx context.Context, nodeName string) ([]*api.Pod, error) {
		res, err := pods.List(ctx, info.KeyPrefix(), store.ListOptions{
			ResourceVersion: "0",
			Predicate:       store.SelectionPredicate{Field: api.FieldSelectorFromSet(map[string]string{"spec.nodeName": nodeName})},
		})
		if err != nil {
			return nil, err
		}
		out := make([]*api.Pod, 0, len(res.Items))
		for _, obj := range res.Items {
			out = append(out, obj.(*api.Pod))
		}
		return out, nil
	}
	index := node.NewPodIndex(ctx, info, pods, list)
	return node.New(index.PodsOnNode, bootstrappolicy.NodeRules())
}

// rulesResolver is RBAC's resolver for the rules review, nil without RBAC
// (an interface holding a nil pointer would not compare nil).
func (s *Server) rulesResolver() authorizationreviews.RuleResolver {
	if s.ruleResolver == nil {
		return nil
	}
	return s.ruleResolver
}
