package admission

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/names"
)

// ServiceAccountGetter reads a service account: from the watch cache when
// live is false, from etcd when true.
type ServiceAccountGetter interface {
	GetServiceAccount(ctx context.Context, namespace, name string, live bool) (*api.ServiceAccount, error)
}

// ServiceAccount is the ServiceAccount admission plugin: a pod that names
// no service account runs as "default", and a pod is refused while its
// account does not exist, so that no pod ever runs as an identity nobody
// created. An admitted pod gets its account's credentials mounted (see
// mountServiceAccountToken) and, if it names no image pull secrets, its
// account's. The default account of a fresh namespace appears a moment
// after the namespace (the serviceaccount controller makes it), so for it
// the plugin looks again a few times before refusing, as Kubernetes does.
//
// Kubernetes: plugin/pkg/admission/serviceaccount/admission.go (Admit,
// Validate, getServiceAccount, shouldAutomount, mountServiceAccountToken,
// TokenVolumeSource). What we leave out: mirror pods (kubeloop's kubelet
// makes none, and NodeRestriction lets no kubelet create a pod), the
// kubernetes.io/enforce-mountable-secrets annotation (deprecated), and
// the ephemeral containers subresource.
type ServiceAccount struct {
	accounts ServiceAccountGetter
	// generateName names the token volume: kube-api-access- plus five
	// random characters.
	generateName func(base string) string
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
	return &ServiceAccount{accounts: accounts, generateName: names.GenerateName, retries: 10, retryInterval: 150 * time.Millisecond}
}

func isPodCreate(a *Attributes) (*api.Pod, bool) {
	if a.Operation != Create || a.Subresource != "" || a.Resource == nil || a.Resource.Group != "" || a.Resource.Resource != "pods" {
		return nil, false
	}
	pod, ok := a.Object.(*api.Pod)
	return pod, ok
}

// Admit defaults spec.serviceAccountName, then looks the account up: a
// missing one refuses the pod here already, as in Kubernetes, and a found
// one says whether to mount its token and which image pull secrets to
// copy.
func (p *ServiceAccount) Admit(ctx context.Context, a *Attributes) error {
	pod, ok := isPodCreate(a)
	if !ok {
		return nil
	}
	if pod.Spec.ServiceAccountName == "" {
		pod.Spec.ServiceAccountName = api.DefaultServiceAccountName
	}
	sa, err := p.getServiceAccount(ctx, a, pod)
	if err != nil {
		return err
	}
	if shouldAutomount(sa, pod) {
		p.mountServiceAccountToken(pod)
	}
	if len(pod.Spec.ImagePullSecrets) == 0 && len(sa.ImagePullSecrets) > 0 {
		pod.Spec.ImagePullSecrets = append([]api.LocalObjectReference(nil), sa.ImagePullSecrets...)
	}
	return nil
}

// Validate refuses a pod whose service account does not exist (any more:
// Admit found it), in Kubernetes' words: `pods "p" is forbidden: error
// looking up service account ns/default: serviceaccount "default" not
// found`.
func (p *ServiceAccount) Validate(ctx context.Context, a *Attributes) error {
	pod, ok := isPodCreate(a)
	if !ok {
		return nil
	}
	_, err := p.getServiceAccount(ctx, a, pod)
	return err
}

// getServiceAccount is the pod's account, or the 403 that refuses the pod.
func (p *ServiceAccount) getServiceAccount(ctx context.Context, a *Attributes, pod *api.Pod) (*api.ServiceAccount, error) {
	name, ns := pod.Spec.ServiceAccountName, pod.Namespace
	if ns == "" {
		ns = a.Namespace
	}
	sa, err := p.lookup(ctx, ns, name)
	if err != nil {
		return nil, NewForbidden(a.groupResource(), a.objectName(), fmt.Errorf("error looking up service account %s/%s: %w", ns, name, err))
	}
	return sa, nil
}

// lookup finds the account in the cache, then in etcd: once, or, for the
// default account, a few times.
func (p *ServiceAccount) lookup(ctx context.Context, ns, name string) (*api.ServiceAccount, error) {
	sa, err := p.accounts.GetServiceAccount(ctx, ns, name, false)
	if !api.IsNotFound(err) {
		return sa, err
	}
	attempts := 1
	if name == api.DefaultServiceAccountName {
		attempts = p.retries
	}
	for i := range attempts {
		if i > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(p.retryInterval):
			}
		}
		sa, err = p.accounts.GetServiceAccount(ctx, ns, name, true)
		if !api.IsNotFound(err) {
			return sa, err
		}
	}
	// Kubernetes' lister names the resource in the singular.
	return nil, api.NewNotFound(api.GroupResource{Resource: "serviceaccount"}, name)
}

// shouldAutomount: the pod's automountServiceAccountToken wins, then the
// account's; unset on both means yes.
func shouldAutomount(sa *api.ServiceAccount, pod *api.Pod) bool {
	if pod.Spec.AutomountServiceAccountToken != nil {
		return *pod.Spec.AutomountServiceAccountToken
	}
	if sa.AutomountServiceAccountToken != nil {
		return *sa.AutomountServiceAccountToken
	}
	return true
}
