package admission

import (
	"context"
	"fmt"

	"kubeloop/api"
)

// NamespaceLifecycle keeps namespaced objects inside live namespaces:
//   - a create into a namespace that does not exist is 404 NotFound (for the
//     namespace, as Kubernetes answers);
//   - a create into a namespace that is being deleted is 403 Forbidden, so
//     the namespace controller's cleanup is not raced by new content;
//   - the immortal namespaces cannot be deleted.
//
// Updates and deletes of existing objects are always allowed: deletion is
// how a terminating namespace empties, and finalizer removals are updates.
// Namespaces themselves and cluster-scoped kinds are not subject to the
// checks. Every create is checked, events included: Kubernetes makes no
// exception for events either, so events about a namespace's last pods are
// dropped once it is terminating.
type NamespaceLifecycle struct {
	namespaces NamespaceGetter
	immortal   map[string]bool
}

var (
	_ MutationInterface   = (*NamespaceLifecycle)(nil)
	_ ValidationInterface = (*NamespaceLifecycle)(nil)
)

// NewNamespaceLifecycle checks namespaces through ns. The immortal set is
// Kubernetes' (default, kube-system, kube-public) plus kube-node-lease,
// which kubeloop's kubelets need for their heartbeats.
func NewNamespaceLifecycle(ns NamespaceGetter) *NamespaceLifecycle {
	return &NamespaceLifecycle{
		namespaces: ns,
		immortal: map[string]bool{
			api.NamespaceDefault:   true,
			api.NamespaceSystem:    true,
			api.NamespacePublic:    true,
			api.NamespaceNodeLease: true,
		},
	}
}

// Admit refuses writes that break the namespace lifecycle. It never changes
// the object; it runs in the mutating phase so that it runs first, which is
// where Kubernetes runs it too (Lifecycle implements only Admit there).
func (l *NamespaceLifecycle) Admit(ctx context.Context, a *Attributes) error {
	return l.check(ctx, a)
}

// Validate repeats the check in the validating phase. Kubernetes checks once;
// we check again because kubeloop's apiserver runs only the validating
// phase for deletes (there is nothing to mutate), and because a namespace
// may have started terminating between the two phases.
func (l *NamespaceLifecycle) Validate(ctx context.Context, a *Attributes) error {
	return l.check(ctx, a)
}

func (l *NamespaceLifecycle) check(ctx context.Context, a *Attributes) error {
	if isNamespaceResource(a) {
		if a.Operation == Delete && l.immortal[a.Name] {
			return NewForbidden(a.groupResource(), a.Name, fmt.Errorf("this namespace may not be deleted"))
		}
		return nil
	}
	if a.Namespace == "" || a.Operation != Create {
		return nil
	}
	// A malformed namespace name cannot exist; let validation answer 422
	// for metadata.namespace instead of a misleading 404.
	if len(api.IsDNS1123Label(a.Namespace)) > 0 {
		return nil
	}
	ns, err := l.namespaces.GetNamespace(ctx, a.Namespace)
	if err != nil {
		if api.IsNotFound(err) {
			return api.NewNotFound(api.GroupResource{Resource: "namespaces"}, a.Namespace)
		}
		return api.NewInternalError(fmt.Errorf("looking up namespace %q: %w", a.Namespace, err))
	}
	if ns.Status.Phase == api.NamespaceTerminating || ns.DeletionTimestamp != nil {
		refusal := NewForbidden(a.groupResource(), a.objectName(),
			fmt.Errorf("unable to create new content in namespace %s because it is being terminated", a.Namespace))
		refusal.ErrStatus.Details.Causes = append(refusal.ErrStatus.Details.Causes, api.StatusCause{
			Type:    CauseTypeNamespaceTerminating,
			Message: fmt.Sprintf("namespace %s is being terminated", a.Namespace),
			Field:   "metadata.namespace",
		})
		return refusal
	}
	return nil
}

func isNamespaceResource(a *Attributes) bool {
	if a.Resource != nil {
		return a.Resource.Group == "" && a.Resource.Resource == "namespaces"
	}
	_, ok := a.Object.(*api.Namespace)
	return ok
}
