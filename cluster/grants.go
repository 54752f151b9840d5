package cluster

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"kubeloop/api"
	"kubeloop/apiserver"
	"kubeloop/apiserver/authentication/user"
	"kubeloop/apiserver/authorization/bootstrappolicy"
	"kubeloop/client"
)

// DefaultAuthorizationModes are the authorizers Start uses when
// Options.AuthorizationModes is nil: kubeadm's --authorization-mode.
// (kube-apiserver's own default, and apiserver.Config's, is AlwaysAllow.)
var DefaultAuthorizationModes = []string{apiserver.ModeNode, apiserver.ModeRBAC}

// DefaultAdmissionPlugins are the optional admission plugins Start enables
// when Options.AdmissionPlugins is nil: NodeRestriction, which kubeadm
// turns on so that a kubelet writes only its own Node, Lease and pods.
var DefaultAdmissionPlugins = []string{"NodeRestriction"}

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

func (o Options) admissionPlugins() []string {
	if o.AdmissionPlugins == nil {
		return DefaultAdmissionPlugins
	}
	return o.AdmissionPlugins
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
		return nil
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
	return nil
}
