package informer

import (
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/reflector"
)

// NewClientInformerFactory is the usual factory: informers list and watch
// through the kubeloop client, over HTTP, like every other component.
// tweak, if not nil, edits every LIST and WATCH (the kubelet narrows pods to
// spec.nodeName=<node> this way).
func NewClientInformerFactory(c *client.Client, resync time.Duration, tweak func(*api.ListOptions)) *SharedInformerFactory {
	return NewSharedInformerFactory(func(info *api.ResourceInfo) reflector.ListerWatcher {
		lw := client.NewListWatch(c, info, "")
		lw.TweakListOptions = tweak
		return lw
	}, resync)
}
