package bootstrappolicy

import "kubeloop/api"

// The API groups the rules name.
const (
	legacyGroup        = ""
	appsGroup          = "apps"
	batchGroup         = "batch"
	coordinationGroup  = "coordination.k8s.io"
	eventsGroup        = "events.k8s.io"
	rbacGroup          = api.RBACGroupName
	authenticationGrp  = "authentication.k8s.io"
	authorizationGroup = "authorization.k8s.io"
	autoscalingGroup   = "autoscaling"
)

// Verb sets the roles share, as Kubernetes' policy.go names them.
var (
	readWrite = []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"}
	read      = []string{"get", "list", "watch"}
)

// ruleBuilder writes a PolicyRule as one readable line:
// rule("get", "list").groups("").resources("pods").
// Kubernetes: pkg/apis/rbac/v1/helpers.go (NewRule, PolicyRuleBuilder).
type ruleBuilder struct{ r api.PolicyRule }

func rule(verbs ...string) *ruleBuilder {
	return &ruleBuilder{api.PolicyRule{Verbs: verbs}}
}

func (b *ruleBuilder) groups(g ...string) *ruleBuilder { b.r.APIGroups = g; return b }

func (b *ruleBuilder) resources(r ...string) *ruleBuilder { b.r.Resources = r; return b }

func (b *ruleBuilder) names(n ...string) *ruleBuilder { b.r.ResourceNames = n; return b }

func (b *ruleBuilder) urls(u ...string) *ruleBuilder { b.r.NonResourceURLs = u; return b }

func (b *ruleBuilder) done() api.PolicyRule { return b.r }

func rules(bs ...*ruleBuilder) []api.PolicyRule {
	out := make([]api.PolicyRule, len(bs))
	for i, b := range bs {
		out[i] = b.done()
	}
	return out
}

// eventsRule lets a component record events in both event APIs.
func eventsRule() []*ruleBuilder {
	return []*ruleBuilder{
		rule("create", "update", "patch").groups(legacyGroup).resources("events"),
		rule("create", "update", "patch").groups(eventsGroup).resources("events"),
	}
}

// bootstrapMeta is the metadata of a bootstrap object: the autoupdate
// annotation (reconciliation may fix it) and Kubernetes' bootstrapping label.
func bootstrapMeta(name string, labels map[string]string) api.ObjectMeta {
	l := map[string]string{"kubernetes.io/bootstrapping": "rbac-defaults"}
	for k, v := range labels {
		l[k] = v
	}
	return api.ObjectMeta{Name: name, Labels: l, Annotations: map[string]string{api.AutoUpdateAnnotationKey: "true"}}
}

func clusterRole(name string, labels map[string]string, rs ...*ruleBuilder) api.ClusterRole {
	return api.ClusterRole{
		TypeMeta:   api.TypeMeta{Kind: "ClusterRole", APIVersion: rbacGroup + "/v1"},
		ObjectMeta: bootstrapMeta(name, labels),
		Rules:      rules(rs...),
	}
}

// clusterRoleBinding binds the ClusterRole of the same name to subjects.
func clusterRoleBinding(name string, subjects ...api.Subject) api.ClusterRoleBinding {
	return api.ClusterRoleBinding{
		TypeMeta:   api.TypeMeta{Kind: "ClusterRoleBinding", APIVersion: rbacGroup + "/v1"},
		ObjectMeta: bootstrapMeta(name, nil),
		RoleRef:    api.RoleRef{APIGroup: rbacGroup, Kind: "ClusterRole", Name: name},
		Subjects:   subjects,
	}
}

func group(name string) api.Subject {
	return api.Subject{Kind: api.GroupKind, APIGroup: rbacGroup, Name: name}
}

func userSubject(name string) api.Subject {
	return api.Subject{Kind: api.UserKind, APIGroup: rbacGroup, Name: name}
}

func serviceAccount(namespace, name string) api.Subject {
	return api.Subject{Kind: api.ServiceAccountKind, Namespace: namespace, Name: name}
}
