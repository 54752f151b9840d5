package apiserver

import (
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/admission"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
)

// runNamespaceFinalizer is a small in-server namespace controller: for each
// terminating namespace it deletes every namespaced object in it through
// its registry, and once none is left it has the namespace registry drop
// the "kubernetes" finalizer and remove the namespace. Objects that wait
// for their own finalizers or grace period keep the namespace alive, as in
// Kubernetes; a periodic scan retries. Kubernetes runs this in
// kube-controller-manager
// (pkg/controller/namespace/deletion/namespaced_resources_deleter.go);
// keeping it here means `kubectl delete namespace` completes without a
// controller manager. (It moves to the controller manager with the
// workloads issue.)
func (s *Server) runNamespaceFinalizer() {
	defer s.wg.Done()
	tick := time.NewTicker(2 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case name := <-s.nsFinalize:
			s.finalizeNamespace(name)
		case <-tick.C:
			s.finalizeTerminating()
		}
	}
}

func (s *Server) finalizeTerminating() {
	info := s.namespaces.Info
	res, err := s.storage[info].List(s.ctx, info.KeyPrefix(), store.ListOptions{})
	if err != nil {
		return
	}
	for _, obj := range res.Items {
		if obj.GetObjectMeta().DeletionTimestamp != nil {
			s.finalizeNamespace(obj.GetObjectMeta().Name)
		}
	}
}

// finalizeNamespace makes one pass over a terminating namespace.
func (s *Server) finalizeNamespace(name string) {
	ctx := request.WithNamespace(s.ctx, name)
	remaining := 0
	for _, info := range s.reg.All() {
		if !info.Namespaced {
			continue
		}
		deleter, ok := s.restStorage[info][""].(rest.GracefulDeleter)
		if !ok {
			continue
		}
		res, err := s.storage[info].List(ctx, info.KeyPrefix()+name+"/", store.ListOptions{})
		if err != nil {
			s.log.Warn("namespace finalizer: list", "namespace", name, "resource", info.Resource, "err", err)
			return
		}
		validate := rest.AdmissionToValidateObjectFunc(s.admission, admission.Attributes{
			Operation: admission.Delete, Resource: info, Namespace: name,
		})
		for _, obj := range res.Items {
			m := obj.GetObjectMeta()
			out, err := deleter.Delete(ctx, m.Name, validate, &api.DeleteOptions{})
			switch {
			case api.IsNotFound(err):
			case err != nil:
				s.log.Warn("namespace finalizer: delete", "resource", info.Resource, "key", m.Namespace+"/"+m.Name, "err", err)
				remaining++
			case out.GetObjectMeta().DeletionTimestamp != nil:
				// Still there, waiting for finalizers or a grace period.
				remaining++
			}
		}
	}
	if remaining > 0 {
		return
	}
	if _, err := s.namespaces.Finalize(s.ctx, name); err != nil && !api.IsNotFound(err) {
		s.log.Warn("namespace finalizer: finalize", "namespace", name, "err", err)
	}
}
