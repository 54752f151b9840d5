package cmd

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"kubeloop/api"
	"kubeloop/client"
)

// resourceFor maps what a user types (pods, pod, po, Pod, replicasets.apps)
// to a kind. kubectl asks discovery and a RESTMapper; kubeloop's kinds are
// all in api.Builtin(), and every resource name is unique without its group.
func resourceFor(typ string) (*api.ResourceInfo, error) {
	t, _, _ := strings.Cut(strings.ToLower(typ), ".")
	for _, info := range api.Builtin().All() {
		if t == info.Resource || t == info.Singular || t == strings.ToLower(info.Kind) || slices.Contains(info.ShortNames, t) {
			return info, nil
		}
	}
	return nil, fmt.Errorf("the server doesn't have a resource type %q", typ)
}

// target is one object the user pointed at, by name or in a manifest, with
// the client of its kind in the namespace of the command.
type target struct {
	info *api.ResourceInfo
	name string
	d    *client.DynamicResource
	// A manifest's object stays a JSON map, not a Go struct, so that apply
	// diffs exactly the fields the user wrote.
	source string         // the file, for messages
	obj    map[string]any // as written, with the command's namespace if it had none
}

// resolve is the start of every command that names objects: it reads "TYPE
// NAME..." or "TYPE/NAME..." as kubectl's resource builder does and builds
// the client. With allowNoName, "TYPE" alone is a target with no name.
func (f *factory) resolve(args []string, allowNoName bool) (*client.Client, []target, error) {
	if len(args) == 0 {
		return nil, nil, usageErrorf("you must specify the type of resource")
	}
	typ, names, slashed := args[0], args[1:], strings.Contains(args[0], "/")
	if slashed {
		names = args // each TYPE/NAME
	} else if len(names) == 0 {
		names = []string{""} // TYPE alone
	}
	cli, err := f.Client()
	if err != nil {
		return nil, nil, err
	}
	var ts []target
	for _, name := range names {
		if slashed {
			typ, name, _ = strings.Cut(name, "/")
		}
		info, err := resourceFor(typ)
		switch {
		case slashed && name == "":
			err = usageErrorf("there is no need to specify a resource type as a separate argument when passing arguments in resource/name form")
		case err == nil && name == "" && !allowNoName:
			err = usageErrorf("you must specify the name of the %s", info.Singular)
		}
		if err != nil {
			return nil, nil, err
		}
		ts = append(ts, target{info: info, name: name, d: cli.Dynamic(info).Namespace(f.namespace)})
	}
	return cli, ts, nil
}

// resolveOne is resolve for the commands that take exactly one object.
func (f *factory) resolveOne(args []string, verb string) (*client.Client, target, error) {
	cli, ts, err := f.resolve(args, false)
	if err == nil && len(ts) != 1 {
		err = usageErrorf("%s takes exactly one object", verb)
	}
	if err != nil {
		return nil, target{}, err
	}
	return cli, ts[0], nil
}

// qualifiedKind is how kubectl names a kind in messages: "pod",
// "replicaset.apps", "lease.coordination.k8s.io".
func qualifiedKind(info *api.ResourceInfo) string {
	return strings.ToLower(strings.TrimSuffix(info.Kind+"."+info.Group, "."))
}

// objectName is the -o name form: "pod/web-1", "replicaset.apps/web".
func objectName(info *api.ResourceInfo, name string) string {
	return qualifiedKind(info) + "/" + name
}

// nameSelector is the field selector for one object, used to watch it.
func nameSelector(name string) string { return "metadata.name=" + name }

// waitForChange reads the object, calls done with it (nil once it is gone)
// and, until done says so, blocks for the next change, watching from the
// version it read so no event can slip past. delete --wait and scale --wait
// are built on it.
func waitForChange(ctx context.Context, d *client.DynamicResource, name string, done func(api.Object) bool) error {
	for {
		obj, err := d.Get(ctx, name, client.GetOptions{})
		if api.IsNotFound(err) {
			obj, err = nil, nil
		}
		if err != nil || done(obj) {
			return err
		}
		w, err := d.Watch(ctx, client.ListOptions{FieldSelector: nameSelector(name), ResourceVersion: obj.GetObjectMeta().ResourceVersion})
		if err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			w.Stop()
			return fmt.Errorf("stopped waiting for %s %q: %w", d.Info().Resource, name, ctx.Err())
		case <-w.ResultChan(): // any event, or the stream's end: read again
		}
		w.Stop()
	}
}
