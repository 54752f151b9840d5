package cmd

import (
	"context"
	"fmt"
	"strings"

	"kubeloop/api"
	"kubeloop/client"
)

// resourceFor maps what a user types (pods, pod, po, Pod, replicasets.apps)
// to a kind. kubectl asks discovery and a RESTMapper; kubeloop's kinds are all
// in api.Builtin(), so the table is local.
func resourceFor(typ string) (*api.ResourceInfo, error) {
	t := strings.ToLower(typ)
	// "replicasets.apps": the group only disambiguates, and every kubeloop
	// resource name is already unique.
	t, _, _ = strings.Cut(t, ".")
	for _, info := range api.Builtin().All() {
		if t == info.Resource || t == info.Singular || t == strings.ToLower(info.Kind) {
			return info, nil
		}
		for _, s := range info.ShortNames {
			if t == s {
				return info, nil
			}
		}
	}
	return nil, fmt.Errorf("the server doesn't have a resource type %q", typ)
}

// target is one named object the user pointed at.
type target struct {
	info *api.ResourceInfo
	name string
}

// parseTargets reads "TYPE NAME..." or "TYPE/NAME..." the way kubectl's
// resource builder does. With allowNoName, "TYPE" alone is a target with no name.
func parseTargets(args []string, allowNoName bool) ([]target, error) {
	if len(args) == 0 {
		return nil, usageErrorf("you must specify the type of resource")
	}
	if strings.Contains(args[0], "/") {
		var out []target
		for _, a := range args {
			typ, name, ok := strings.Cut(a, "/")
			if !ok || name == "" {
				return nil, usageErrorf("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form")
			}
			info, err := resourceFor(typ)
			if err != nil {
				return nil, err
			}
			out = append(out, target{info, name})
		}
		return out, nil
	}
	info, err := resourceFor(args[0])
	if err != nil {
		return nil, err
	}
	if len(args) == 1 {
		if !allowNoName {
			return nil, usageErrorf("you must specify the name of the %s", info.Singular)
		}
		return []target{{info: info}}, nil
	}
	var out []target
	for _, name := range args[1:] {
		out = append(out, target{info, name})
	}
	return out, nil
}

// qualifiedKind is how kubectl names a kind in messages: "pod",
// "replicaset.apps", "lease.coordination.k8s.io".
func qualifiedKind(info *api.ResourceInfo) string {
	if info.Group == "" {
		return strings.ToLower(info.Kind)
	}
	return strings.ToLower(info.Kind) + "." + info.Group
}

// objectName is the -o name form: "pod/web-1", "replicaset.apps/web".
func objectName(info *api.ResourceInfo, name string) string {
	return qualifiedKind(info) + "/" + name
}

// resourceClient is the dynamic client of info, scoped to ns when the kind
// is namespaced.
func resourceClient(c *client.Client, info *api.ResourceInfo, ns string) *client.DynamicResource {
	d := c.Dynamic(info)
	if info.Namespaced {
		d = d.Namespace(ns)
	}
	return d
}

// nameSelector is the field selector for one object, used to watch it.
func nameSelector(name string) string { return "metadata.name=" + name }

// waitForDeletion blocks until the object is gone, watching from the
// version it was last read at so no DELETED event can slip past.
func waitForDeletion(ctx context.Context, d *client.DynamicResource, name string) error {
	obj, err := d.Get(ctx, name, client.GetOptions{})
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	w, err := d.Watch(ctx, client.ListOptions{FieldSelector: nameSelector(name), ResourceVersion: obj.GetObjectMeta().ResourceVersion})
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("timed out waiting for %s %q to be deleted: %w", d.Info().Resource, name, ctx.Err())
		case ev, ok := <-w.ResultChan():
			if !ok {
				// The server ended the watch (timeout); start again.
				return waitForDeletion(ctx, d, name)
			}
			if ev.Type == api.Deleted {
				return nil
			}
		}
	}
}
