package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/bootstrappolicy"
	"kubeloop/client"
)

// DefaultAuthorizationModes are the authorizers Start uses when
// Options.AuthorizationModes is nil: kubeadm's --authorization-mode.
// (kube-apiserver's own default, and apiserver.Config's, is AlwaysAllow.)
var DefaultAuthorizationModes = []string{apiserver.ModeNode, apiserver.ModeRBAC}

// DefaultAdmissionPlugins are the optional admission plugins of a cluster,
// as kubeadm starts kube-apiserver: ServiceAccount, on by default in
// kube-apiserver (a pod runs as its namespace's "default" account unless
// it names another, and is refused until that account exists), and
// NodeRestriction, which kubeadm adds so that a kubelet writes only its own
// Node, Lease and pods. `kubeloop up` and `kubeloop apiserver` default to
// them (--enable-admission-plugins); for Start see admissionPlugins.
var DefaultAdmissionPlugins = []string{admission.PluginServiceAccount, admission.PluginNodeRestriction}

// grantLabel marks the ClusterRoleBindings Start makes for a controller
// manager that uses its own credential, so they can be found and removed.
const grantLabel = "kubeloop.dev/controller-manager-grant"

// grantPrefix starts their names; they are not bootstrap policy (no
// "system:" name, no kubernetes.io/bootstrapping label).
const grantPrefix = "kubeloop:kube-controller-manager:"

// rbacEnabled says whether the apiserver authorizes with RBAC.
func (o Options) rbacEnabled() bool {
	return slices.Contains(o.authorizationModes(), apiserver.ModeRBAC)
}

func (o Options) authorizationModes() []string {
	if o.AuthorizationModes == nil {
		return DefaultAuthorizationModes
	}
	return o.AuthorizationModes
}

// admissionPlugins are the plugins Start enables: Options.AdmissionPlugins
// if set, else DefaultAdmissionPlugins when a component makes the default
// ServiceAccounts (Component.ServiceAccounts: the controller manager with
// its serviceaccount controller, as in cluster/full), and without
// ServiceAccount otherwise. A bare Start has no controllers, so no
// namespace would ever get its default account and the plugin would
// refuse every pod; controller-runtime's envtest, which runs a bare
// kube-apiserver, turns the plugin off for the same reason
// (sigs.k8s.io/controller-runtime v0.25.2,
// pkg/internal/testing/controlplane/apiserver.go, APIServer.defaultArgs:
// "disable-admission-plugins": {"ServiceAccount"}).
func (o Options) admissionPlugins() []string {
	if o.AdmissionPlugins != nil {
		return o.AdmissionPlugins
	}
	if slices.ContainsFunc(o.Components.Extra, func(c Component) bool { return c.ServiceAccounts }) {
		return DefaultAdmissionPlugins
	}
	return slices.DeleteFunc(slices.Clone(DefaultAdmissionPlugins), func(p string) bool { return p == admission.PluginServiceAccount })
}

// serviceAccountAdmission says whether Start enabled the ServiceAccount
// plugin, so pods wait for their namespace's default account.
func (o Options) serviceAccountAdmission() bool {
	return slices.Contains(o.admissionPlugins(), admission.PluginServiceAccount)
}

// reconcileControllerManagerGrants gives system:kube-controller-manager
// every controller role when the controller manager runs its controllers
// with its own credential (the default, as kube-controller-manager's
// --use-service-account-credentials=false). Kubernetes' bootstrap policy
// does not do this: its RBAC documentation says such a controller manager
// "must be granted all the relevant roles", and that is what these
// bindings are — one per system:controller:<name> role, the same rules and
// nothing more. With UseServiceAccountCredentials each controller holds
// only its own role, through its ServiceAccount, and the grants are
// removed (a data dir may keep them from an earlier start).
func (c *Cluster) reconcileControllerManagerGrants(ctx context.Context) error {
	if !c.opts.rbacEnabled() {
		return nil
	}
	bindings := client.For[*api.ClusterRoleBinding](c.Client)
	if c.opts.UseServiceAccountCredentials {
		err := bindings.DeleteCollection(ctx, api.DeleteOptions{}, client.ListOptions{LabelSelector: grantLabel + "=true"})
		if err != nil {
			return fmt.Errorf("cluster: remove the controller manager's grants: %w", err)
		}
		return c.waitGrants(ctx, false)
	}
	for _, role := range bootstrappolicy.ControllerRoles() {
		account := strings.TrimPrefix(role.Name, "system:controller:")
		b := &api.ClusterRoleBinding{
			ObjectMeta: api.ObjectMeta{Name: grantPrefix + account, Labels: map[string]string{grantLabel: "true"}},
			RoleRef:    api.RoleRef{APIGroup: api.RBACGroupName, Kind: "ClusterRole", Name: role.Name},
			Subjects:   []api.Subject{{Kind: api.UserKind, APIGroup: api.RBACGroupName, Name: user.KubeControllerManager}},
		}
		if _, err := bindings.Create(ctx, b, client.CreateOptions{}); err != nil && !api.IsAlreadyExists(err) {
			return fmt.Errorf("cluster: grant %s to %s: %w", role.Name, user.KubeControllerManager, err)
		}
	}
	return c.waitGrants(ctx, true)
}

// waitGrants waits until the authorizer's policy cache, which follows the
// bindings through a watch, answers as the grants say: the controller
// manager may (or may not) create pods (the replicaset grant) and update
// configmaps (the labeler's, made last). So when Start returns, what the
// components may do is settled, not on its way.
func (c *Cluster) waitGrants(ctx context.Context, granted bool) error {
	for {
		pods, err := c.allowed(ctx, user.KubeControllerManager, "create", "pods")
		if err != nil {
			return err
		}
		cms, err := c.allowed(ctx, user.KubeControllerManager, "update", "configmaps")
		if err != nil {
			return err
		}
		if pods == granted && cms == granted {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: the controller manager's grants never took effect: %w", ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// allowed asks a SubjectAccessReview whether name may verb resource (core
// group) in the default namespace.
func (c *Cluster) allowed(ctx context.Context, name, verb, resource string) (bool, error) {
	body, err := json.Marshal(&api.SubjectAccessReview{
		TypeMeta: api.TypeMeta{APIVersion: "authorization.k8s.io/v1", Kind: "SubjectAccessReview"},
		Spec: api.SubjectAccessReviewSpec{User: name,
			ResourceAttributes: &api.ResourceAttributes{Namespace: "default", Verb: verb, Resource: resource}},
	})
	if err != nil {
		return false, err
	}
	data, err := c.Client.DoRaw(ctx, "POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", nil, body)
	if err != nil {
		return false, fmt.Errorf("cluster: subject access review: %w", err)
	}
	r := &api.SubjectAccessReview{}
	if err := json.Unmarshal(data, r); err != nil {
		return false, fmt.Errorf("cluster: subject access review: %w", err)
	}
	return r.Status.Allowed, nil
}
