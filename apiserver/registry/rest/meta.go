package rest

import "kubeloop/api"

// KindOf is the group, version and kind of a resource's objects.
func KindOf(info *api.ResourceInfo) api.KindInfo {
	return api.KindInfo{Group: info.Group, Version: info.Version, Kind: info.Kind}
}

// WithTypeMeta returns obj with apiVersion and kind set, copying it first if
// they are missing: objects from the watch cache are shared and read-only.
// A Status (a subresource's answer) keeps its own.
func WithTypeMeta(k api.KindInfo, obj api.Object) api.Object {
	if _, ok := obj.(*api.Status); ok {
		return obj
	}
	tm := obj.GetTypeMeta()
	if tm.Kind == k.Kind && tm.APIVersion == k.GroupVersion() {
		return obj
	}
	obj = obj.DeepCopyObject()
	tm = obj.GetTypeMeta()
	tm.Kind, tm.APIVersion = k.Kind, k.GroupVersion()
	return obj
}
