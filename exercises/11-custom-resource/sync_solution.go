//go:build solution

package website

import (
	"context"
	"fmt"
	"maps"
	"time"

	"kubeloop/api"
	"kubeloop/client"
)

// newConfigMap sets blockOwnerDeletion as Kubernetes' controllers do
// (metav1.NewControllerRef), so that a foreground deletion of the Website
// waits for its ConfigMap.
func newConfigMap(site *api.Unstructured, spec WebsiteSpec) *api.ConfigMap {
	yes := true
	cm := &api.ConfigMap{Data: map[string]string{HTMLKey: spec.HTML}}
	cm.Name, cm.Namespace = configMapName(site), site.Namespace
	cm.OwnerReferences = []api.OwnerReference{{APIVersion: site.APIVersion, Kind: site.Kind, Name: site.Name,
		UID: site.UID, Controller: &yes, BlockOwnerDeletion: &yes}}
	return cm
}

// calculateStatus keeps the condition's time unless its status flips:
// setCondition does that, given the current conditions.
func calculateStatus(site *api.Unstructured, current WebsiteStatus, ready Condition, now time.Time) WebsiteStatus {
	status := current
	status.ObservedGeneration = site.Generation
	status.ConfigMapName = configMapName(site)
	ready.ObservedGeneration = site.Generation
	status.Conditions = setCondition(current.Conditions, ready, now)
	return status
}

// syncWebsite acts on the cached Website and ConfigMap, and writes only
// what differs: the ConfigMap's data, then the status through /status.
func (c *Controller) syncWebsite(ctx context.Context, key string) error {
	ns, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	site, err := c.siteLister.Namespace(ns).Get(name)
	if api.IsNotFound(err) {
		return nil // the garbage collector deletes what it owned
	}
	if err != nil {
		return err
	}
	spec, err := specOf(site)
	if err != nil {
		return nil // the schema lets no such spec in
	}
	current, err := statusOf(site)
	if err != nil {
		return nil
	}

	ready := Condition{Type: ConditionReady, Status: "True", Reason: ReasonPublished,
		Message: fmt.Sprintf("ConfigMap %q holds the page", configMapName(site))}
	var syncErr error
	want := newConfigMap(site, spec)
	cms := client.For[*api.ConfigMap](c.client).Namespace(ns)
	cm, err := c.cmLister.Namespace(ns).Get(want.Name)
	switch {
	case api.IsNotFound(err):
		if _, err := cms.Create(ctx, want, client.CreateOptions{}); err != nil {
			return fmt.Errorf("create ConfigMap %s/%s: %w", ns, want.Name, err)
		}
	case err != nil:
		return err
	case !isControlledBy(&cm.ObjectMeta, site):
		ready = Condition{Type: ConditionReady, Status: "False", Reason: ReasonConfigMapExists,
			Message: fmt.Sprintf("ConfigMap %q already exists and is not managed by Website %q", want.Name, name)}
		syncErr = fmt.Errorf("ConfigMap %s/%s is not controlled by Website %s", ns, want.Name, name)
	case !maps.Equal(cm.Data, want.Data):
		updated := cm.DeepCopy()
		updated.Data = want.Data
		if _, err := cms.Update(ctx, updated, client.UpdateOptions{}); err != nil {
			return fmt.Errorf("update ConfigMap %s/%s: %w", ns, want.Name, err)
		}
	}

	status := calculateStatus(site, current, ready, c.clock.Now())
	if api.SemanticEqual(current, status) {
		return syncErr
	}
	out, err := withStatus(site, status)
	if err != nil {
		return err
	}
	if _, err := c.websites.Namespace(ns).UpdateStatus(ctx, out, client.UpdateOptions{}); err != nil {
		if api.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("update status of %s: %w", key, err)
	}
	c.log.Info("status", "key", key, "observedGeneration", status.ObservedGeneration, "ready", ready.Status)
	return syncErr
}
