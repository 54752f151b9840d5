package crdserving

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver/apiextensions/registry/customresourcedefinition"
	"kubeloop/apiserver/endpoints/request"
	"kubeloop/apiserver/registry/rest"
	"kubeloop/store"
)

// Controller is the loop that turns CRD objects into served endpoints. It
// does in one place what three controllers of the apiextensions-apiserver
// do:
//   - naming (pkg/controller/status/naming_controller.go): the names of a
//     CRD must not clash with another CRD's in its group; then
//     status.acceptedNames = spec.names and NamesAccepted=True, else
//     NamesAccepted=False and the old accepted names stay;
//   - establishing (pkg/controller/establish/establishing_controller.go):
//     once the endpoints are built and registered, Established=True;
//   - finalizing (pkg/controller/finalizer/crd_finalizer.go): a deleted
//     CRD's custom resources are all deleted, then it is unserved and its
//     cleanup finalizer removed, which lets it go.
//
// It reads CRDs from their storage (list, then watch; relist when the watch
// ends) and writes them through their REST storage, like any client but
// without HTTP: it runs inside the apiserver, as Kubernetes' do.
// Reconciles are serial: CRDs are few and change rarely.
type Controller struct {
	// info is the CustomResourceDefinition kind; crds its storage.
	info   *api.ResourceInfo
	crds   store.Interface
	rest   rest.Updater // customresourcedefinitions
	status rest.Updater // customresourcedefinitions/status
	served *Served
	log    *slog.Logger

	// known is every CRD seen, by name (for name conflicts); retry holds
	// the names whose reconcile must run again (custom resources still
	// being deleted, a failed write).
	mu    sync.Mutex
	known map[string]*api.CustomResourceDefinition
	retry map[string]bool
}

// NewController reconciles the CRDs of crds into served.
func NewController(info *api.ResourceInfo, crds store.Interface, crdREST, statusREST rest.Updater, served *Served, log *slog.Logger) *Controller {
	return &Controller{info: info, crds: crds, rest: crdREST, status: statusREST, served: served,
		log: log.With("component", "crd-controller"), known: map[string]*api.CustomResourceDefinition{}, retry: map[string]bool{}}
}

// Sync lists every CRD and reconciles each once, returning the list's
// resourceVersion: the apiserver calls it before serving, so the custom
// resources of Established CRDs are served from the first request after a
// restart.
func (c *Controller) Sync(ctx context.Context) (uint64, error) {
	res, err := c.crds.List(ctx, c.info.KeyPrefix(), store.ListOptions{})
	if err != nil {
		return 0, fmt.Errorf("crdserving: list CRDs: %w", err)
	}
	seen := map[string]bool{}
	c.mu.Lock()
	c.known = map[string]*api.CustomResourceDefinition{}
	for _, o := range res.Items {
		crd := o.(*api.CustomResourceDefinition)
		c.known[crd.Name], seen[crd.Name] = crd, true
	}
	c.mu.Unlock()
	for _, o := range res.Items {
		c.reconcile(ctx, o.(*api.CustomResourceDefinition))
	}
	for _, name := range c.servedNames() {
		if !seen[name] {
			c.served.Unregister(name)
		}
	}
	return res.ResourceVersion, nil
}

func (c *Controller) servedNames() []string {
	c.served.mu.RLock()
	defer c.served.mu.RUnlock()
	out := make([]string, 0, len(c.served.crds))
	for n := range c.served.crds {
		out = append(out, n)
	}
	return out
}

// Run watches CRDs from rv until ctx ends, relisting when a watch ends,
// and retries pending reconciles every second.
func (c *Controller) Run(ctx context.Context, rv uint64) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for ctx.Err() == nil {
		w, err := c.crds.Watch(ctx, c.info.KeyPrefix(), store.ListOptions{ResourceVersion: strconv.FormatUint(rv, 10)})
		if err == nil {
			c.follow(ctx, w, tick.C)
			w.Stop()
		}
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			c.log.Info("watch failed, relisting", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if rv, err = c.Sync(ctx); err != nil {
			c.log.Info("relist failed", "err", err)
		}
	}
}

// follow handles one watch's events until it ends.
func (c *Controller) follow(ctx context.Context, w api.Watcher, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			c.runRetries(ctx)
		case ev, ok := <-w.ResultChan():
			if !ok {
				return
			}
			crd, isCRD := ev.Object.(*api.CustomResourceDefinition)
			switch {
			case ev.Type == api.Error || !isCRD:
				return
			case ev.Type == api.Deleted:
				c.mu.Lock()
				delete(c.known, crd.Name)
				c.mu.Unlock()
				c.served.Unregister(crd.Name)
				c.requeueGroup(crd)
				c.runRetries(ctx)
			case ev.Type == api.Added || ev.Type == api.Modified:
				c.mu.Lock()
				c.known[crd.Name] = crd
				c.mu.Unlock()
				c.reconcile(ctx, crd)
			}
		}
	}
}

func (c *Controller) runRetries(ctx context.Context) {
	c.mu.Lock()
	names := make([]string, 0, len(c.retry))
	for n := range c.retry {
		names = append(names, n)
	}
	c.retry = map[string]bool{}
	c.mu.Unlock()
	for _, n := range names {
		cur, err := c.crds.Get(ctx, c.info.Key("", n), store.GetOptions{})
		if err != nil {
			continue // gone: the watch unserves it
		}
		c.reconcile(ctx, cur.(*api.CustomResourceDefinition))
	}
}

func (c *Controller) retryLater(name string) {
	c.mu.Lock()
	c.retry[name] = true
	c.mu.Unlock()
}

// reconcile brings one CRD's serving and status in line with its spec.
func (c *Controller) reconcile(ctx context.Context, crd *api.CustomResourceDefinition) {
	if crd.DeletionTimestamp != nil {
		c.finalize(ctx, crd)
		return
	}
	want := crd.DeepCopy()
	if reason, msg := c.namesConflict(crd); reason != "" {
		customresourcedefinition.SetCondition(want, api.CRDNamesAccepted, api.ConditionFalse, reason, msg)
		if !customresourcedefinition.IsEstablished(crd) {
			customresourcedefinition.SetCondition(want, api.CRDEstablished, api.ConditionFalse, "NotAccepted", "not all names are accepted")
		}
	} else {
		want.Status.AcceptedNames = crd.Spec.Names
		customresourcedefinition.SetCondition(want, api.CRDNamesAccepted, api.ConditionTrue, "NoConflicts", "no conflicts found")
	}
	if want.Status.AcceptedNames.Kind != "" {
		if err := c.served.Register(ctx, want); err != nil {
			c.log.Info("not served", "crd", crd.Name, "err", err)
			customresourcedefinition.SetCondition(want, api.CRDEstablished, api.ConditionFalse, "ServingFailed", err.Error())
		} else if !customresourcedefinition.IsEstablished(want) {
			customresourcedefinition.SetCondition(want, api.CRDEstablished, api.ConditionTrue, "InitialNamesAccepted", "the initial names have been accepted")
		}
	}
	if api.SemanticEqual(&want.Status, &crd.Status) {
		return
	}
	if !namesEqual(want.Status.AcceptedNames, crd.Status.AcceptedNames) {
		c.requeueGroup(crd) // a rename may free names
	}
	if err := c.writeStatus(ctx, crd.Name, want.Status); err != nil {
		c.log.Info("status write failed", "crd", crd.Name, "err", err)
		c.retryLater(crd.Name)
	}
}

// namesConflict says why crd's names clash with another CRD of its group:
// a plural, singular, short name, kind or list kind already accepted by
// another. Kubernetes: NamingConditionController.getAcceptedNamesForGroup
// and calculateNamesAndConditions.
func (c *Controller) namesConflict(crd *api.CustomResourceDefinition) (reason, message string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	resources, kinds := map[string]bool{}, map[string]bool{}
	for name, other := range c.known {
		if name == crd.Name || other.Spec.Group != crd.Spec.Group {
			continue
		}
		n := other.Status.AcceptedNames
		for _, r := range append([]string{n.Plural, n.Singular}, n.ShortNames...) {
			resources[r] = r != ""
		}
		kinds[n.Kind], kinds[n.ListKind] = n.Kind != "", n.ListKind != ""
	}
	n := crd.Spec.Names
	switch {
	case resources[n.Plural]:
		return "PluralConflict", fmt.Sprintf("%q is already in use", n.Plural)
	case resources[n.Singular]:
		return "SingularConflict", fmt.Sprintf("%q is already in use", n.Singular)
	case kinds[n.Kind]:
		return "KindConflict", fmt.Sprintf("%q is already in use", n.Kind)
	case kinds[n.ListKind]:
		return "ListKindConflict", fmt.Sprintf("%q is already in use", n.ListKind)
	}
	for _, s := range n.ShortNames {
		if resources[s] {
			return "ShortNamesConflict", fmt.Sprintf("%q is already in use", s)
		}
	}
	return "", ""
}

// requeueGroup marks for another reconcile the CRDs of crd's group,
// other than crd, whose names are not accepted: crd's deletion or rename
// may have freed them. Kubernetes:
// NamingConditionController.requeueAllOtherGroupCRDs.
func (c *Controller) requeueGroup(crd *api.CustomResourceDefinition) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for name, other := range c.known {
		if name != crd.Name && other.Spec.Group == crd.Spec.Group && !customresourcedefinition.ConditionTrue(other, api.CRDNamesAccepted) {
			c.retry[name] = true
		}
	}
}

// finalize deletes every custom resource of a deleted CRD, then unserves
// it and removes its cleanup finalizer. Custom resources held by their own
// finalizers keep it waiting; it is retried every second.
func (c *Controller) finalize(ctx context.Context, crd *api.CustomResourceDefinition) {
	if !slices.Contains(crd.Finalizers, customresourcedefinition.CleanupFinalizer) {
		return
	}
	// Serve it as Terminating (creates refused) while it empties.
	if crd.Status.AcceptedNames.Kind != "" {
		if err := c.served.Register(ctx, crd); err != nil {
			c.log.Info("not served", "crd", crd.Name, "err", err)
		}
	}
	remaining, err := c.deleteCustomResources(ctx, crd)
	if err != nil || remaining > 0 {
		// Kubernetes' finalizer's conditions (crd_finalizer.go:sync).
		reason, msg := "InstanceDeletionInProgress", "CustomResource deletion is in progress"
		if err != nil {
			reason, msg = "InstanceDeletionFailed", err.Error()
		}
		want := crd.DeepCopy()
		customresourcedefinition.SetCondition(want, api.CRDTerminating, api.ConditionTrue, reason, msg)
		if !api.SemanticEqual(&want.Status, &crd.Status) {
			_ = c.writeStatus(ctx, crd.Name, want.Status)
		}
		c.retryLater(crd.Name)
		return
	}
	c.served.Unregister(crd.Name)
	_, err = c.rest.Update(ctx, crd.Name, updateFunc(func(cur api.Object) (api.Object, error) {
		cur.GetObjectMeta().Finalizers = slices.DeleteFunc(cur.GetObjectMeta().Finalizers, func(f string) bool {
			return f == customresourcedefinition.CleanupFinalizer
		})
		return cur, nil
	}), nil, &rest.UpdateOptions{})
	if err != nil && !api.IsNotFound(err) {
		c.log.Info("finalizer removal failed", "crd", crd.Name, "err", err)
		c.retryLater(crd.Name)
		return
	}
	c.log.Info("finalized", "crd", crd.Name)
}

// deleteCustomResources deletes every custom resource of crd (each as a
// DELETE would: finalizers and owner references respected) and returns
// how many remain. Kubernetes: CRDFinalizer.deleteInstances.
func (c *Controller) deleteCustomResources(ctx context.Context, crd *api.CustomResourceDefinition) (int, error) {
	st, _, ok := c.served.storageStore(crd.Name)
	if !ok {
		return 0, nil // never served: it has no custom resources
	}
	res, err := st.Storage.List(ctx, st.Info.KeyPrefix(), store.ListOptions{})
	if err != nil {
		return 0, fmt.Errorf("could not list instances: %w", err)
	}
	remaining := 0
	var errs []error
	for _, obj := range res.Items {
		m := obj.GetObjectMeta()
		if m.DeletionTimestamp != nil {
			remaining++
			continue
		}
		_, err := st.Delete(request.WithNamespace(ctx, m.Namespace), m.Name, nil, &api.DeleteOptions{})
		switch {
		case err == nil:
			if still, gerr := st.Storage.Get(ctx, st.Info.Key(m.Namespace, m.Name), store.GetOptions{}); gerr == nil && still != nil {
				remaining++
			}
		case api.IsNotFound(err):
		default:
			errs = append(errs, err)
			remaining++
		}
	}
	if len(errs) > 0 {
		return remaining, fmt.Errorf("could not issue all deletes: %w", errors.Join(errs...))
	}
	return remaining, nil
}

// writeStatus writes status into the CRD's status through its registry.
func (c *Controller) writeStatus(ctx context.Context, name string, status api.CustomResourceDefinitionStatus) error {
	_, err := c.status.Update(ctx, name, updateFunc(func(cur api.Object) (api.Object, error) {
		crd := cur.(*api.CustomResourceDefinition)
		crd.Status = *status.DeepCopy()
		return crd, nil
	}), nil, &rest.UpdateOptions{})
	return err
}

// updateFunc is an UpdatedObjectInfo made of a function of the stored
// object (the read-modify-write retries it on a conflict).
type updateFunc func(cur api.Object) (api.Object, error)

func (f updateFunc) UpdatedObject(_ context.Context, old api.Object) (api.Object, error) {
	return f(old)
}
