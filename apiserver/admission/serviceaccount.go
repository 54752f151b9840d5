package admission

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
)

// ServiceAccountGetter reads a service account: from the watch cache when
// live is false, from etcd when true.
type ServiceAccountGetter interface {
	GetServiceAccount(ctx context.Context, namespace, name string, live bool) (*api.ServiceAccount, error)
}

// ServiceAccount is the ServiceAccount admission plugin: a pod that names
// no service account runs as "default", and a pod is refused while its
// account does not exist, so that no pod ever runs as an identity nobody
// created. The default account of a fresh namespace appears a moment after
// the namespace (the serviceaccount controller makes it), so for it the
// plugin looks again a few times before refusing, as Kubernetes does.
// Kubernetes: plugin/pkg/admission/serviceaccount/admission.go (Admit,
// Validate, getServiceAccount). What we leave out: token volume
// projection (no tokens are mounted) and the image pull secrets copy.
type ServiceAccount struct {
	accounts ServiceAccountGetter
	// retries and retryInterval bound the wait for a default account.
	retries       int
	retryInterval time.Duration
}

var (
	_ MutationInterface   = (*ServiceAccount)(nil)
	_ ValidationInterface = (*ServiceAccount)(nil)
)

// NewServiceAccount is the plugin over accounts.
func NewServiceAccount(accounts ServiceAccountGetter) *ServiceAccount {
	return &ServiceAccount{accounts: accounts, retries: 10, retryInterval: 150 * time.Millisecond}
}

func isPodCreate(a *Attributes) (*api.Pod, bool) {
	if a.Operation != Create || a.Subresource != "" || a.Resource == nil || a.Resource.Group != "" || a.Resource.Resource != "pods" {
		return nil, false
	}
	pod, ok := a.Object.(*api.Pod)
	return pod, ok
}

// Admit defaults spec.serviceAccountName.
func (p *ServiceAccount) Admit(_ context.Context, a *Attributes) error {
	if pod, ok := isPodCreate(a); ok && pod.Spec.ServiceAccountName == "" {
		pod.Spec.ServiceAccountName = api.DefaultServiceAccountName
	}
	return nil
}

// Validate refuses a pod whose service account does not exist, in
// Kubernetes' words: `pods "p" is forbidden: error looking up service
// account ns/default: serviceaccount "default" not found`.
func (p *ServiceAccount) Validate(ctx context.Context, a *Attributes) error {
	pod, ok := isPodCreate(a)
	if !ok {
		return nil
	}
	name, ns := pod.Spec.ServiceAccountName, pod.Namespace
	if ns == "" {
		ns = a.Namespace
	}
	if err := p.lookup(ctx, ns, name); err != nil {
		return NewForbidden(a.groupResource(), a.objectName(), fmt.Errorf("error looking up service account %s/%s: %w", ns, name, err))
	}
	return nil
}

// lookup finds the account in the cache, then in etcd: once, or, for the
// default account, a few times.
func (p *ServiceAccount) lookup(ctx context.Context, ns, name string) error {
	_, err := p.accounts.GetServiceAccount(ctx, ns, name, false)
	if !api.IsNotFound(err) {
		return err
	}
	attempts := 1
	if name == api.DefaultServiceAccountName {
		attempts = p.retries
	}
	for i := range attempts {
		if i > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(p.retryInterval):
			}
		}
		_, err = p.accounts.GetServiceAccount(ctx, ns, name, true)
		if !api.IsNotFound(err) {
			return err
		}
	}
	// Kubernetes' lister names the resource in the singular.
	return api.NewNotFound(api.GroupResource{Resource: "serviceaccount"}, name)
}
