package apiserver

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/crdserving"
	"kubeloop/apiserver/apiextensions/schema"
	"kubeloop/apiserver/endpoints"
	"kubeloop/apiserver/endpoints/handlers"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
)

// newCustomResources makes the table of served custom resources and the
// loop that fills it from the CRDs in etcd. Kubernetes runs both in the
// apiextensions-apiserver, chained behind kube-apiserver; here they are
// part of the one server: its API handler hands them every request for a
// group, version or resource the built-in registry does not have.
func (s *Server) newCustomResources(cfg Config) error {
	crdInfo, ok := s.reg.ForResource("apiextensions.k8s.io", "customresourcedefinitions")
	if !ok {
		return nil // a registry without CRDs serves no custom resources
	}
	served, err := crdserving.NewServed(crdserving.Config{
		NewStorage: func(ctx context.Context, info *api.ResourceInfo) (store.Interface, func(context.Context) error, func(), error) {
			return s.newStorage(s.ctx, cfg, info)
		},
		// The serializers are the custom resources' own (crdserving).
		Scope: handlers.RequestScope{
			Admission: s.admission, Logger: s.log, Metrics: s.metrics, StopContext: s.ctx,
		},
		Metrics: s.metrics,
		Logger:  s.log,
	})
	if err != nil {
		return err
	}
	rs := s.restStorage[crdInfo]
	main, ok1 := rs[""].(rest.Updater)
	status, ok2 := rs["status"].(rest.Updater)
	if !ok1 || !ok2 {
		return fmt.Errorf("apiserver: the CRD registry has no update or status storage")
	}
	s.customResources = served
	s.crdController = crdserving.NewController(crdInfo, s.storage[crdInfo], main, status, served, s.log)
	return nil
}

// startCustomResources serves the custom resources of every Established
// CRD before New returns (so they survive a restart without a gap), then
// follows CRD changes in the background.
func (s *Server) startCustomResources(ctx context.Context) error {
	if s.crdController == nil {
		return nil
	}
	rv, err := s.crdController.Sync(ctx)
	if err != nil {
		return err
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.crdController.Run(s.ctx, rv)
	}()
	return nil
}

// StructuralSchema is the structural schema of a served custom resource
// version (group, version, plural resource) — nil with ok true when the
// version has no schema — for server-side apply, which needs its
// x-kubernetes-list-type and x-kubernetes-list-map-keys. ok is false for
// anything that is not a served custom resource.
func (s *Server) StructuralSchema(group, version, resource string) (*schema.Structural, bool) {
	if s.customResources == nil {
		return nil, false
	}
	return s.customResources.StructuralSchema(group, version, resource)
}

// customResourcesHandler is the API handler's delegate: the custom
// resources, or nothing.
func (s *Server) customResourcesHandler() endpoints.Delegate {
	if s.customResources == nil {
		return nil
	}
	return s.customResources
}

// servedKinds is every kind the server serves: the built-in registry's,
// then the custom resources', for discovery.
type servedKinds struct {
	builtin *api.Registry
	custom  *crdserving.Served
}

// A custom resource in a group version the registry serves is left out, as
// it is not served (endpoints.APIHandler.ServeHTTP).
func (k servedKinds) All() []*api.ResourceInfo {
	out := append([]*api.ResourceInfo(nil), k.builtin.All()...)
	if k.custom == nil {
		return out
	}
	builtinGV := map[string]bool{}
	for _, info := range out {
		builtinGV[info.Group+"/"+info.Version] = true
	}
	for _, info := range k.custom.All() {
		if !builtinGV[info.Group+"/"+info.Version] {
			out = append(out, info)
		}
	}
	return out
}
