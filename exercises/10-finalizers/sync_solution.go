//go:build solution

package finalizer

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/client"
)

// syncConfigMap adds the finalizer before the copy exists, and removes it
// after the copies are gone: at no moment can a copy outlive a source
// that nobody will clean up after.
func (c *Controller) syncConfigMap(ctx context.Context, key string) error {
	ns, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cached, err := c.cmLister.Namespace(ns).Get(name)
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	held := hasFinalizer(&cached.ObjectMeta, FinalizerName)

	if cached.DeletionTimestamp != nil || cached.Labels[CopyToLabel] == "" {
		if !held {
			return nil // not ours, or already cleaned up
		}
		if err := c.deleteCopies(ctx, cached); err != nil {
			return err
		}
		return c.removeFinalizer(ctx, cached)
	}

	src := cached
	if !held {
		withFinalizer := cached.DeepCopy()
		withFinalizer.Finalizers = append(withFinalizer.Finalizers, FinalizerName)
		src, err = client.For[*api.ConfigMap](c.client).Namespace(ns).Update(ctx, withFinalizer, client.UpdateOptions{})
		if err != nil {
			return fmt.Errorf("add finalizer to %s: %w", key, err)
		}
	}
	return c.ensureCopy(ctx, src)
}

// removeFinalizer filters into a new slice: cm is the cache's object, and
// its Finalizers array is shared with it.
func (c *Controller) removeFinalizer(ctx context.Context, cm *api.ConfigMap) error {
	out := cm.DeepCopy()
	out.Finalizers = nil
	for _, f := range cm.Finalizers {
		if f != FinalizerName {
			out.Finalizers = append(out.Finalizers, f)
		}
	}
	_, err := client.For[*api.ConfigMap](c.client).Namespace(cm.Namespace).Update(ctx, out, client.UpdateOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("remove finalizer from %s/%s: %w", cm.Namespace, cm.Name, err)
	}
	c.log.Info("released", "key", cm.Namespace+"/"+cm.Name)
	return nil
}
