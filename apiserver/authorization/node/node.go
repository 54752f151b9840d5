package node

import (
	"context"
	"fmt"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/authorizer"
	"kubeloop/apiserver/authorization/rbac"
)

// PodsOnNode lists the pods bound to a node.
type PodsOnNode func(ctx context.Context, nodeName string) ([]*api.Pod, error)

// Authorizer is the Node authorizer.
type Authorizer struct {
	pods  PodsOnNode
	rules []api.PolicyRule
}

var _ authorizer.Authorizer = (*Authorizer)(nil)

// New authorizes kubelets by rules (bootstrappolicy.NodeRules) and by the
// pods bound to their node.
func New(pods PodsOnNode, rules []api.PolicyRule) *Authorizer {
	return &Authorizer{pods: pods, rules: rules}
}

// NodeIdentity returns the node name of a kubelet's user, and whether u is
// a kubelet at all. Kubernetes: nodeidentifier.NodeIdentity.
func NodeIdentity(u *user.Info) (string, bool) {
	if u == nil || !u.InGroup(user.NodesGroup) {
		return "", false
	}
	name, ok := strings.CutPrefix(u.Name, "system:node:")
	return name, ok
}

// Authorize decides a kubelet's request; anyone else's is not its business.
func (a *Authorizer) Authorize(ctx context.Context, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	nodeName, isNode := NodeIdentity(attrs.User)
	if !isNode {
		return authorizer.DecisionNoOpinion, "", nil
	}
	if nodeName == "" {
		return authorizer.DecisionNoOpinion, fmt.Sprintf("unknown node for user %q", attrs.User.Name), nil
	}
	if attrs.IsResourceRequest && attrs.APIGroup == "" {
		switch {
		case attrs.Resource == "secrets" || attrs.Resource == "configmaps" || attrs.Resource == "persistentvolumeclaims":
			return a.authorizeGet(ctx, nodeName, attrs)
		case attrs.Resource == "serviceaccounts" && attrs.Subresource == "token":
			return a.authorizeCreateToken(ctx, nodeName, attrs)
		}
	}
	for i := range a.rules {
		if rbac.RuleAllows(attrs, &a.rules[i]) {
			return authorizer.DecisionAllow, "", nil
		}
	}
	return authorizer.DecisionNoOpinion, "", nil
}

// authorizeGet allows reading one object that a pod on the node uses.
func (a *Authorizer) authorizeGet(ctx context.Context, nodeName string, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	if attrs.Verb != "get" || attrs.Name == "" {
		return authorizer.DecisionNoOpinion, "can only get individual resources of this type", nil
	}
	if attrs.Subresource != "" {
		return authorizer.DecisionNoOpinion, fmt.Sprintf("cannot get subresource %s", attrs.Subresource), nil
	}
	return a.ifReferenced(ctx, nodeName, attrs, func(p *api.Pod) bool {
		return referencedBy(p, attrs.Resource, attrs.Name)
	})
}

// authorizeCreateToken allows a token for an account a pod on the node runs as.
func (a *Authorizer) authorizeCreateToken(ctx context.Context, nodeName string, attrs authorizer.Attributes) (authorizer.Decision, string, error) {
	if attrs.Verb != "create" || attrs.Name == "" {
		return authorizer.DecisionNoOpinion, "can only create tokens for individual service accounts", nil
	}
	return a.ifReferenced(ctx, nodeName, attrs, func(p *api.Pod) bool {
		return p.Spec.ServiceAccountName == attrs.Name
	})
}

func (a *Authorizer) ifReferenced(ctx context.Context, nodeName string, attrs authorizer.Attributes, uses func(*api.Pod) bool) (authorizer.Decision, string, error) {
	pods, err := a.pods(ctx, nodeName)
	if err != nil {
		return authorizer.DecisionNoOpinion, "", err
	}
	for _, p := range pods {
		if p.Namespace == attrs.Namespace && uses(p) {
			return authorizer.DecisionAllow, "", nil
		}
	}
	return authorizer.DecisionNoOpinion, fmt.Sprintf("no relationship found between node '%s' and this object", nodeName), nil
}
