package client

import (
	"context"
	"fmt"

	"kubeloop/api"
)

// DiscoverResource finds a resource the server serves but kubeloop has no
// Go type for — a custom resource — through discovery, and returns its
// ResourceInfo, whose objects are *api.Unstructured. With it, Dynamic,
// NewListWatch, the informers and their listers work on the kind as on
// any other. client-go has the same split: a RESTMapper from discovery,
// then the dynamic client over unstructured.Unstructured.
func (c *Client) DiscoverResource(ctx context.Context, group, version, resource string) (*api.ResourceInfo, error) {
	path := "/apis/" + group + "/" + version
	if group == "" {
		path = "/api/" + version
	}
	var list APIResourceList
	if err := c.getJSON(ctx, path, &list); err != nil {
		return nil, err
	}
	for _, r := range list.Resources {
		if r.Name != resource {
			continue
		}
		info := UnstructuredResourceInfo(group, version, r.Kind, resource, r.Namespaced)
		info.Singular, info.ShortNames, info.Categories = r.SingularName, r.ShortNames, r.Categories
		for _, s := range list.Resources {
			switch s.Name {
			case resource + "/status":
				info.HasStatus = true
			case resource + "/scale":
				info.Subresources = append(info.Subresources, "scale")
			}
		}
		return info, nil
	}
	return nil, api.NewNotFound(api.GroupResource{Group: group, Resource: resource}, "")
}

// UnstructuredResourceInfo describes a kind known only by its names, whose
// objects are *api.Unstructured: what DiscoverResource returns, for callers
// that know the names already.
func UnstructuredResourceInfo(group, version, kind, resource string, namespaced bool) *api.ResourceInfo {
	if kind == "" || resource == "" {
		panic(fmt.Sprintf("client: UnstructuredResourceInfo needs a kind and a resource, got %q, %q", kind, resource))
	}
	return &api.ResourceInfo{
		Group: group, Version: version, Kind: kind, Resource: resource, Namespaced: namespaced, HasSpec: true,
		New:     func() api.Object { return &api.Unstructured{} },
		NewList: func() api.ListObject { return &api.UnstructuredList{} },
	}
}
