package apiserver

import (
	"context"
	"fmt"
	"time"

	"kubeloop/api"
	"kubeloop/store"
)

// defaultNamespaces exist in every cluster; the apiserver creates them at
// start, as Kubernetes' system namespaces controller does
// (pkg/controlplane/controller/systemnamespaces).
func defaultNamespaces() []string {
	return []string{"default", "kube-system", "kube-public", "kube-node-lease"}
}

// prepareKindForCreate is the per-kind part of create that Kubernetes keeps
// in each strategy's PrepareForCreate: a new pod is Pending, a new namespace
// is Active and carries the "kubernetes" finalizer.
func prepareKindForCreate(obj api.Object) {
	switch o := obj.(type) {
	case *api.Pod:
		o.Status.Phase = api.PodPending
	case *api.Namespace:
		o.Status.Phase = api.NamespaceActive
		o.Spec.Finalizers = []api.FinalizerName{api.FinalizerKubernetes}
	}
}

func (s *Server) namespaceInfo() *api.ResourceInfo {
	info, _ := api.ForType[*api.Namespace](s.reg)
	return info
}

func (s *Server) ensureDefaultNamespaces(ctx context.Context) error {
	info := s.namespaceInfo()
	if info == nil {
		return nil
	}
	for _, name := range defaultNamespaces() {
		ns := &api.Namespace{ObjectMeta: api.ObjectMeta{Name: name}}
		if _, err := s.createObject(ctx, info, ns); err != nil && !api.IsAlreadyExists(err) {
			return fmt.Errorf("apiserver: create namespace %s: %w", name, err)
		}
	}
	return nil
}

// deleteNamespace starts the deletion of a namespace: it becomes
// Terminating with a deletionTimestamp, and the namespace finalizer (below)
// empties it and removes it. Kubernetes: pkg/registry/core/namespace/storage
// (REST.Delete) and the namespace controller in kube-controller-manager.
func (s *Server) deleteNamespace(ctx context.Context, info *api.ResourceInfo, name string) (api.Object, error) {
	out, err := s.storageFor(info).GuaranteedUpdate(ctx, info.Key("", name), nil, func(cur api.Object) (api.Object, error) {
		ns := cur.(*api.Namespace)
		if ns.DeletionTimestamp == nil {
			now := api.Now()
			zero := int64(0)
			ns.DeletionTimestamp, ns.DeletionGracePeriodSeconds = &now, &zero
		}
		ns.Status.Phase = api.NamespaceTerminating
		return ns, nil
	}, nil)
	s.logWrite("delete", info, nil, out, err)
	if err != nil {
		return nil, err
	}
	s.forceLiveLookup.Store(name, time.Now())
	select {
	case s.nsFinalize <- name:
	default: // the periodic scan will find it
	}
	return out, nil
}

// runNamespaceFinalizer is a small in-server namespace controller: for each
// terminating namespace it deletes every namespaced object in it, and once
// none is left it drops the "kubernetes" finalizer and removes the
// namespace. Objects that wait for their own finalizers or grace period keep
// the namespace alive, as in Kubernetes; a periodic scan retries.
// Kubernetes runs this in kube-controller-manager
// (pkg/controller/namespace/deletion/namespaced_resources_deleter.go);
// keeping it here means `kubectl delete namespace` completes without a
// controller manager.
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
	info := s.namespaceInfo()
	res, err := s.storageFor(info).List(s.ctx, info.KeyPrefix(), store.ListOptions{})
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
	ctx := s.ctx
	remaining := 0
	for _, info := range s.reg.All() {
		if !info.Namespaced {
			continue
		}
		res, err := s.storageFor(info).List(ctx, info.KeyPrefix()+name+"/", store.ListOptions{})
		if err != nil {
			s.log.Warn("namespace finalizer: list", "namespace", name, "resource", info.Resource, "err", err)
			return
		}
		for _, obj := range res.Items {
			m := obj.GetObjectMeta()
			out, err := s.deleteObject(ctx, info, m.Namespace, m.Name, &api.DeleteOptions{})
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
	info := s.namespaceInfo()
	out, err := s.storageFor(info).GuaranteedUpdate(ctx, info.Key("", name), nil, func(cur api.Object) (api.Object, error) {
		ns := cur.(*api.Namespace)
		var keep []api.FinalizerName
		for _, f := range ns.Spec.Finalizers {
			if f != api.FinalizerKubernetes {
				keep = append(keep, f)
			}
		}
		ns.Spec.Finalizers = keep
		return ns, nil
	}, nil)
	if err != nil {
		if !api.IsNotFound(err) {
			s.log.Warn("namespace finalizer: update", "namespace", name, "err", err)
		}
		return
	}
	ns := out.(*api.Namespace)
	if len(ns.Spec.Finalizers) == 0 && len(ns.Finalizers) == 0 {
		if _, err := s.finishDeletion(ctx, info, out); err != nil {
			s.log.Warn("namespace finalizer: delete", "namespace", name, "err", err)
		}
	}
}
