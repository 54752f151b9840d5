package rbac

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/authorization/bootstrappolicy"
	"kubeloop/apiserver/authorization/rbac"
	"kubeloop/apiserver/registry/rest"
)

// ReconcileStorage is the REST storage reconciliation writes through.
type ReconcileStorage interface {
	rest.Getter
	rest.Creater
	rest.Updater
}

// EnsureBootstrapPolicy makes the cluster-wide bootstrap roles and bindings
// exist and hold at least what bootstrappolicy says: a missing one is
// created; an existing one whose autoupdate annotation is not "false" gets
// the missing rules, subjects, labels and aggregation selectors added,
// never removed, so an administrator's additions survive a restart.
// Aggregated roles' rules are the controller's to fill and are left alone.
// ctx must carry a privileged user (escalation prevention still runs).
// Kubernetes: pkg/registry/rbac/rest/storage_rbac.go (EnsureRBACPolicy)
// and pkg/registry/rbac/reconciliation (ReconcileRoleOptions.Run,
// computeReconciledRole, ReconcileRoleBindingOptions.Run).
func EnsureBootstrapPolicy(ctx context.Context, roles, bindings ReconcileStorage) error {
	for _, want := range append(bootstrappolicy.ClusterRoles(), bootstrappolicy.ControllerRoles()...) {
		err := reconcile(ctx, roles, &want, func(cur api.Object) bool {
			have := cur.(*api.ClusterRole)
			changed := mergeMeta(&have.ObjectMeta, &want.ObjectMeta)
			if want.AggregationRule != nil {
				if have.AggregationRule == nil {
					have.AggregationRule = &api.AggregationRule{}
				}
				for _, sel := range want.AggregationRule.ClusterRoleSelectors {
					if !hasSelector(have.AggregationRule.ClusterRoleSelectors, sel) {
						have.AggregationRule.ClusterRoleSelectors = append(have.AggregationRule.ClusterRoleSelectors, sel)
						changed = true
					}
				}
				return changed
			}
			if ok, missing := rbac.Covers(have.Rules, want.Rules); !ok {
				have.Rules = append(have.Rules, missing...)
				changed = true
			}
			return changed
		})
		if err != nil {
			return err
		}
	}
	for _, want := range append(bootstrappolicy.ClusterRoleBindings(), bootstrappolicy.ControllerRoleBindings()...) {
		err := reconcile(ctx, bindings, &want, func(cur api.Object) bool {
			have := cur.(*api.ClusterRoleBinding)
			changed := mergeMeta(&have.ObjectMeta, &want.ObjectMeta)
			for _, s := range want.Subjects {
				if !hasSubject(have.Subjects, s) {
					have.Subjects = append(have.Subjects, s)
					changed = true
				}
			}
			return changed
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// reconcile creates want, or lets fix change the stored object (returning
// whether it did) unless it opted out of updates.
func reconcile(ctx context.Context, st ReconcileStorage, want api.Object, fix func(api.Object) bool) error {
	name := want.GetObjectMeta().Name
	cur, err := st.Get(ctx, name, &rest.GetOptions{})
	if api.IsNotFound(err) {
		_, err = st.Create(ctx, want.DeepCopyObject(), nil, &rest.CreateOptions{})
		if api.IsAlreadyExists(err) {
			return nil // another apiserver made it first
		}
	}
	if err != nil || cur == nil {
		return wrap(name, err)
	}
	if cur.GetObjectMeta().Annotations[api.AutoUpdateAnnotationKey] == "false" {
		return nil
	}
	cur = cur.DeepCopyObject()
	if !fix(cur) {
		return nil
	}
	_, err = st.Update(ctx, name, rest.DefaultUpdatedObjectInfo(cur), nil, &rest.UpdateOptions{})
	return wrap(name, err)
}

func wrap(name string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("rbac: reconcile bootstrap policy %s: %w", name, err)
}

// mergeMeta adds want's labels and annotations that have are missing.
func mergeMeta(have, want *api.ObjectMeta) bool {
	changed := false
	for k, v := range want.Labels {
		if _, ok := have.Labels[k]; !ok {
			if have.Labels == nil {
				have.Labels = map[string]string{}
			}
			have.Labels[k], changed = v, true
		}
	}
	for k, v := range want.Annotations {
		if _, ok := have.Annotations[k]; !ok {
			if have.Annotations == nil {
				have.Annotations = map[string]string{}
			}
			have.Annotations[k], changed = v, true
		}
	}
	return changed
}

func hasSelector(list []api.LabelSelector, s api.LabelSelector) bool {
	for i := range list {
		if api.SemanticEqual(&list[i], &s) {
			return true
		}
	}
	return false
}

func hasSubject(list []api.Subject, s api.Subject) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
