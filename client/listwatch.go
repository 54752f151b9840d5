package client

import (
	"context"

	"kubeloop/api"
)

// ListWatch lists and watches one kind in one namespace (or all), with
// fixed selectors merged into every call. It has the shape a reflector needs
// (List, then Watch from the list's resourceVersion) without the client
// knowing the reflector: reflector/ defines the interface, and ListWatch, or
// a small adapter around it, satisfies it.
// client-go: tools/cache/listwatch.go, NewFilteredListWatchFromClient.
type ListWatch struct {
	Resource *DynamicResource
	// TweakListOptions, if set, edits the options of every List and Watch,
	// e.g. to add a label selector (client-go's informer tweak function).
	TweakListOptions func(*ListOptions)
}

// NewListWatch returns a ListWatch over info in namespace ("" = all).
func NewListWatch(c *Client, info *api.ResourceInfo, namespace string) *ListWatch {
	return &ListWatch{Resource: c.Dynamic(info).Namespace(namespace)}
}

// List reads one page.
func (lw *ListWatch) List(ctx context.Context, opts ListOptions) (api.ListObject, error) {
	if lw.TweakListOptions != nil {
		lw.TweakListOptions(&opts)
	}
	return lw.Resource.List(ctx, opts)
}

// Watch starts a watch.
func (lw *ListWatch) Watch(ctx context.Context, opts ListOptions) (api.Watcher, error) {
	if lw.TweakListOptions != nil {
		lw.TweakListOptions(&opts)
	}
	return lw.Resource.Watch(ctx, opts)
}
