package namespace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// operation is a collection verb a resource may not serve.
type operation string

const (
	operationDeleteCollection operation = "deletecollection"
	operationList             operation = "list"
)

type operationKey struct {
	operation operation
	gvr       client.GroupVersionResource
}

// operationNotSupportedCache remembers which resources lack a verb, from
// discovery and from 405/404 answers, so they are not asked again.
// Kubernetes: operationNotSupportedCache.
type operationNotSupportedCache struct {
	mu sync.RWMutex
	m  map[operationKey]bool
}

func newOperationNotSupportedCache() *operationNotSupportedCache {
	return &operationNotSupportedCache{m: map[operationKey]bool{}}
}

func (o *operationNotSupportedCache) isSupported(key operationKey) bool {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return !o.m[key]
}

func (o *operationNotSupportedCache) setNotSupported(key operationKey) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.m[key] = true
}

// deletableResources turns discovery into the resources to empty: those
// that serve delete. A group version that does not parse stops the list,
// as in Kubernetes (discovery.GroupVersionResources). The verbs missing
// from discovery go into the cache.
func (d *namespacedResourcesDeleter) deletableResources(lists []*client.APIResourceList) ([]client.GroupVersionResource, error) {
	var out []client.GroupVersionResource
	for _, l := range lists {
		group, version, err := parseGroupVersion(l.GroupVersion)
		if err != nil {
			return nil, err
		}
		for _, r := range l.Resources {
			verbs := map[string]bool{}
			for _, v := range r.Verbs {
				verbs[v] = true
			}
			if !verbs["delete"] {
				continue
			}
			gvr := client.GroupVersionResource{Group: group, Version: version, Resource: r.Name}
			for _, op := range []operation{operationList, operationDeleteCollection} {
				if !verbs[string(op)] {
					d.opCache.setNotSupported(operationKey{op, gvr})
				}
			}
			out = append(out, gvr)
		}
	}
	return out, nil
}

// parseGroupVersion splits "apps/v1" (or "v1", the core group).
// apimachinery: schema.ParseGroupVersion.
func parseGroupVersion(gv string) (group, version string, err error) {
	if gv == "" || gv == "/" {
		return "", "", nil
	}
	switch strings.Count(gv, "/") {
	case 0:
		return "", gv, nil
	case 1:
		i := strings.Index(gv, "/")
		return gv[:i], gv[i+1:], nil
	}
	return "", "", fmt.Errorf("unexpected GroupVersion string: %v", gv)
}

// gvrDeletionMetadata is what one resource left behind.
type gvrDeletionMetadata struct {
	// finalizerEstimateSeconds: how much longer to wait; zero is no
	// estimate, not "all gone".
	finalizerEstimateSeconds int64
	numRemaining             int
	finalizersToNumRemaining map[string]int
}

// allGVRDeletionMetadata is what every resource left behind, for the
// conditions.
type allGVRDeletionMetadata struct {
	gvrToNumRemaining        map[client.GroupVersionResource]int
	finalizersToNumRemaining map[string]int
}

// deleteAllContent deletes every deletable resource's objects in the
// namespace and writes the NamespaceDeletion* conditions. It returns the
// longest estimate of how long what remains will take. Errors of one
// resource do not stop the others. Kubernetes: deleteAllContent.
func (d *namespacedResourcesDeleter) deleteAllContent(ctx context.Context, ns *api.Namespace) (int64, error) {
	var errs []error
	conditions := namespaceConditionUpdater{}
	lists, err := d.discover(ctx)
	if err != nil {
		// Not fatal: what could be discovered is still deleted.
		errs = append(errs, err)
		conditions.ProcessDiscoverResourcesErr(err)
	}
	gvrs, err := d.deletableResources(lists)
	if err != nil {
		errs = append(errs, err)
		conditions.ProcessGroupVersionErr(err)
	}
	totals := allGVRDeletionMetadata{gvrToNumRemaining: map[client.GroupVersionResource]int{}, finalizersToNumRemaining: map[string]int{}}
	estimate := int64(0)
	for _, gvr := range gvrs {
		left, err := d.deleteAllContentForGroupVersionResource(ctx, gvr, ns.Name, ns.DeletionTimestamp.Time)
		if err != nil {
			errs = append(errs, err)
			conditions.ProcessDeleteContentErr(err)
		}
		estimate = max(estimate, left.finalizerEstimateSeconds)
		if left.numRemaining > 0 {
			totals.gvrToNumRemaining[gvr] = left.numRemaining
			for f, n := range left.finalizersToNumRemaining {
				totals.finalizersToNumRemaining[f] += n
			}
		}
	}
	conditions.ProcessContentTotals(totals)
	// Written every pass that changes them, so a condition that was True
	// goes back to False once its cause is gone.
	if conditions.Update(ns) {
		if _, err := d.namespaces.UpdateStatus(ctx, ns, client.UpdateOptions{}); err != nil {
			d.log.Error("update namespace conditions", "namespace", ns.Name, "err", err)
		}
	}
	d.log.Debug("deleted content", "namespace", ns.Name, "estimate", estimate, "errors", len(errs))
	return estimate, errors.Join(errs...)
}

// deleteAllContentForGroupVersionResource deletes one resource's objects
// (one DELETE of the collection, or one per object where the collection
// verb is missing) and reports what is left. Kubernetes:
// deleteAllContentForGroupVersionResource.
func (d *namespacedResourcesDeleter) deleteAllContentForGroupVersionResource(ctx context.Context,
	gvr client.GroupVersionResource, namespace string, deletedAt time.Time) (gvrDeletionMetadata, error) {
	estimate, err := d.estimateGracefulTermination(ctx, gvr, namespace, deletedAt)
	if err != nil {
		return gvrDeletionMetadata{}, err
	}
	supported, err := d.deleteCollection(ctx, gvr, namespace)
	if err != nil {
		return gvrDeletionMetadata{finalizerEstimateSeconds: estimate}, err
	}
	if !supported {
		if err := d.deleteEachItem(ctx, gvr, namespace); err != nil {
			return gvrDeletionMetadata{finalizerEstimateSeconds: estimate}, err
		}
	}
	list, listSupported, err := d.listCollection(ctx, gvr, namespace)
	if err != nil || !listSupported {
		return gvrDeletionMetadata{finalizerEstimateSeconds: estimate}, err
	}
	if len(list.Items) == 0 {
		return gvrDeletionMetadata{}, nil
	}
	finalizers := map[string]int{}
	for _, item := range list.Items {
		for _, f := range item.Finalizers {
			finalizers[f]++
		}
	}
	left := gvrDeletionMetadata{finalizerEstimateSeconds: estimate, numRemaining: len(list.Items), finalizersToNumRemaining: finalizers}
	switch {
	case estimate != 0:
		return left, nil
	case len(finalizers) > 0:
		// Waiting on finalizers is normal: give the garbage collector time.
		left.finalizerEstimateSeconds = finalizerEstimateSeconds
		return left, nil
	}
	// Nothing explains why they are still here.
	return left, fmt.Errorf("unexpected items still remain in namespace: %s for gvr: %v", namespace, gvr)
}

// deleteCollection deletes the whole collection in one request; false if
// the resource does not serve that. Propagation is Background, so the
// garbage collector adds no orphan finalizer to what it deletes: this
// controller removes everything itself.
func (d *namespacedResourcesDeleter) deleteCollection(ctx context.Context, gvr client.GroupVersionResource, namespace string) (bool, error) {
	key := operationKey{operationDeleteCollection, gvr}
	if !d.opCache.isSupported(key) {
		return false, nil
	}
	background := api.DeletePropagationBackground
	err := d.client.Metadata(gvr).Namespace(namespace).DeleteCollection(ctx, api.DeleteOptions{PropagationPolicy: &background}, client.ListOptions{})
	if err == nil {
		return true, nil
	}
	// Some resources list no collection verbs and answer 404 rather than
	// 405 to them (Kubernetes issue 22413).
	if api.IsMethodNotSupported(err) || api.IsNotFound(err) {
		d.opCache.setNotSupported(key)
		return false, nil
	}
	return true, err
}

// listCollection lists the resource's objects in the namespace; false if
// the resource does not serve list.
func (d *namespacedResourcesDeleter) listCollection(ctx context.Context, gvr client.GroupVersionResource, namespace string) (*client.PartialObjectMetadataList, bool, error) {
	key := operationKey{operationList, gvr}
	if !d.opCache.isSupported(key) {
		return nil, false, nil
	}
	list, err := d.client.Metadata(gvr).Namespace(namespace).List(ctx, client.ListOptions{})
	if err == nil {
		return list, true, nil
	}
	if api.IsMethodNotSupported(err) || api.IsNotFound(err) {
		d.opCache.setNotSupported(key)
		return nil, false, nil
	}
	return nil, true, err
}

// deleteEachItem lists the objects and deletes them one by one.
func (d *namespacedResourcesDeleter) deleteEachItem(ctx context.Context, gvr client.GroupVersionResource, namespace string) error {
	list, supported, err := d.listCollection(ctx, gvr, namespace)
	if err != nil || !supported {
		return err
	}
	background := api.DeletePropagationBackground
	for _, item := range list.Items {
		err := d.client.Metadata(gvr).Namespace(namespace).Delete(ctx, item.Name, api.DeleteOptions{PropagationPolicy: &background})
		if err != nil && !api.IsNotFound(err) && !api.IsMethodNotSupported(err) {
			return err
		}
	}
	return nil
}

// estimateGracefulTermination is how many seconds the resource's objects
// may take to go: for pods, the longest grace period of those not yet
// terminal, unless the namespace was deleted longer ago than that.
func (d *namespacedResourcesDeleter) estimateGracefulTermination(ctx context.Context, gvr client.GroupVersionResource, namespace string, deletedAt time.Time) (int64, error) {
	if gvr.Group != "" || gvr.Resource != "pods" {
		return 0, nil
	}
	estimate, err := d.estimateGracefulTerminationForPods(ctx, namespace)
	if err != nil {
		return 0, err
	}
	if time.Since(deletedAt) >= time.Duration(estimate)*time.Second {
		return 0, nil
	}
	return estimate, nil
}

func (d *namespacedResourcesDeleter) estimateGracefulTerminationForPods(ctx context.Context, namespace string) (int64, error) {
	pods, err := client.For[*api.Pod](d.client).Namespace(namespace).List(ctx, client.ListOptions{})
	if err != nil {
		return 0, err
	}
	estimate := int64(0)
	for _, p := range pods.Items {
		if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
			continue
		}
		if g := p.Spec.TerminationGracePeriodSeconds; g != nil && *g > estimate {
			estimate = *g
		}
	}
	return estimate, nil
}
