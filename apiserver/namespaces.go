package apiserver

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
)

// defaultNamespaces exist in every cluster; the apiserver creates them at
// start, as Kubernetes' system namespaces controller does
// (pkg/controlplane/controller/systemnamespaces).
func defaultNamespaces() []string {
	return []string{"default", "kube-system", "kube-public", "kube-node-lease"}
}

// ensureDefaultNamespaces creates the default namespaces through the
// namespace registry and the admission chain, as a client's create would.
func (s *Server) ensureDefaultNamespaces(ctx context.Context) error {
	for _, name := range defaultNamespaces() {
		ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}
		a := admission.Attributes{Operation: admission.Create, Resource: s.namespaces.Info, Name: name, Object: ns}
		err := s.admission.Admit(ctx, &a)
		if err == nil {
			_, err = s.namespaces.Create(ctx, ns, rest.AdmissionToValidateObjectFunc(s.admission, a), &rest.CreateOptions{})
		}
		if err != nil && !api.IsAlreadyExists(err) {
			return fmt.Errorf("apiserver: create namespace %s: %w", name, err)
		}
	}
	return nil
}

// namespaceTerminating is the namespace registry's OnTerminating: the
// namespace is read live for a while (see namespaceGetter), so that no
// create slips in while the watch cache still shows it Active. Emptying
// it is the namespace controller's work (controllers/namespace), in the
// controller manager, as in Kubernetes.
func (s *Server) namespaceTerminating(name string) {
	s.forceLiveLookup.Store(name, time.Now())
}

// forceLiveLookupTTL is how long a namespace just marked Terminating is read
// from etcd rather than the cache: far longer than the cache's lag.
const forceLiveLookupTTL = time.Minute

// namespaceGetter lets admission read namespaces through the server's storage.
type namespaceGetter struct{ s *Server }

func (g namespaceGetter) GetNamespace(ctx context.Context, name string) (*api.Namespace, error) {
	info := g.s.namespaces.Info
	// Read from the watch cache first ("0": any freshness), as Kubernetes'
	// NamespaceLifecycle reads its informer; a namespace created a moment
	// ago may not be there yet, so a miss is checked against etcd.
	st := g.s.storage[info]
	obj, err := st.Get(ctx, info.Key("", name), store.GetOptions{ResourceVersion: "0"})
	live := err != nil && api.IsNotFound(err)
	if err == nil && obj.(*api.Namespace).Status.Phase != api.NamespaceTerminating {
		if since, ok := g.s.forceLiveLookup.Load(name); ok {
			if time.Since(since.(time.Time)) < forceLiveLookupTTL {
				live = true
			} else {
				g.s.forceLiveLookup.Delete(name)
			}
		}
	}
	if live {
		obj, err = st.Get(ctx, info.Key("", name), store.GetOptions{})
	}
	if err != nil {
		return nil, err
	}
	return obj.(*api.Namespace), nil
}

// serviceAccountGetter is the ServiceAccount plugin's view of the service
// accounts: the watch cache ("0"), or etcd ("", a consistent read).
type serviceAccountGetter struct{ s *Server }

func (g serviceAccountGetter) GetServiceAccount(ctx context.Context, namespace, name string, live bool) (*api.ServiceAccount, error) {
	info, _ := g.s.reg.ForResource("", "serviceaccounts")
	rv := "0"
	if live {
		rv = ""
	}
	obj, err := g.s.storage[info].Get(ctx, info.Key(namespace, name), store.GetOptions{ResourceVersion: rv})
	if err != nil {
		return nil, err
	}
	return obj.(*api.ServiceAccount), nil
}
