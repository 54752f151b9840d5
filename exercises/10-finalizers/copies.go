package finalizer

import (
	"context"
	"fmt"
	"maps"

	"kubeloop/api"
	"kubeloop/client"
)

// ensureCopy makes the copy of src in its target namespace (the value of
// CopyToLabel) hold src's data, creating it if needed, and deletes copies
// of src left in any other namespace (the label was changed).
func (c *Controller) ensureCopy(ctx context.Context, src *api.ConfigMap) error {
	target := src.Labels[CopyToLabel]
	cms := client.For[*api.ConfigMap](c.client)
	existing, err := c.copiesOf(ctx, src)
	if err != nil {
		return err
	}
	for _, cp := range existing {
		if cp.Namespace == target {
			if maps.Equal(cp.Data, src.Data) {
				return nil
			}
			cp.Data = maps.Clone(src.Data)
			_, err := cms.Namespace(target).Update(ctx, cp, client.UpdateOptions{})
			return err
		}
		if err := cms.Namespace(cp.Namespace).Delete(ctx, cp.Name, api.DeleteOptions{}); err != nil && !api.IsNotFound(err) {
			return err
		}
	}
	_, err = cms.Namespace(target).Create(ctx, &api.ConfigMap{
		ObjectMeta: api.ObjectMeta{
			Name:        src.Name,
			Labels:      map[string]string{CopyOfLabel: src.UID},
			Annotations: map[string]string{CopyOfLabel: src.Namespace + "/" + src.Name},
		},
		Data: maps.Clone(src.Data),
	}, client.CreateOptions{})
	if api.IsAlreadyExists(err) {
		return fmt.Errorf("%s/%s exists and is not a copy of %s/%s", target, src.Name, src.Namespace, src.Name)
	}
	if err == nil {
		c.log.Info("copied", "key", src.Namespace+"/"+src.Name, "to", target)
	}
	return err
}

// deleteCopies deletes every copy of src, wherever it is. It reads them
// with a live LIST rather than from the cache, which may not have seen a
// copy created a moment ago: a copy missed here would be left for ever.
// No copy left is success.
func (c *Controller) deleteCopies(ctx context.Context, src *api.ConfigMap) error {
	copies, err := c.copiesOf(ctx, src)
	if err != nil {
		return err
	}
	for _, cp := range copies {
		err := client.For[*api.ConfigMap](c.client).Namespace(cp.Namespace).Delete(ctx, cp.Name, api.DeleteOptions{})
		if err != nil && !api.IsNotFound(err) {
			return fmt.Errorf("delete copy %s/%s: %w", cp.Namespace, cp.Name, err)
		}
		c.log.Info("deleted copy", "key", src.Namespace+"/"+src.Name, "copy", cp.Namespace+"/"+cp.Name)
	}
	return nil
}

func (c *Controller) copiesOf(ctx context.Context, src *api.ConfigMap) ([]*api.ConfigMap, error) {
	list, err := client.For[*api.ConfigMap](c.client).List(ctx, client.ListOptions{LabelSelector: CopyOfLabel + "=" + src.UID})
	if err != nil {
		return nil, fmt.Errorf("list copies of %s/%s: %w", src.Namespace, src.Name, err)
	}
	return list.Items, nil
}
