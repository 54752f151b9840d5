//go:build solution

package labeler

import (
	"context"
	"fmt"

	"kubeloop/api"
	"kubeloop/client"
)

func (c *Controller) syncConfigMap(ctx context.Context, key string) error {
	namespace, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		// Retrying cannot repair a malformed key; log it and let it go.
		c.log.Error("invalid key", "key", key, "err", err)
		return nil
	}
	cached, err := c.cmLister.Namespace(namespace).Get(name)
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read configmap %s from the cache: %w", key, err)
	}
	// Reading a nil map is fine in Go, so no nil check is needed here.
	if cached.Labels[LabelKey] == LabelValue {
		return nil
	}

	cm := cached.DeepCopy()
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels[LabelKey] = LabelValue
	// cm still carries the resourceVersion the cache saw: if someone wrote
	// the ConfigMap since, the apiserver answers 409 Conflict instead of
	// letting us overwrite their change, and the retry starts from theirs.
	if _, err := client.For[*api.ConfigMap](c.client).Namespace(namespace).Update(ctx, cm, client.UpdateOptions{}); err != nil {
		if api.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("label configmap %s: %w", key, err)
	}
	c.log.Info("labelled", "key", key)
	return nil
}
