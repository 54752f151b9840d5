package informers

// Skip on a first reading: a memory saving for a cluster whose components
// share one process (cluster/full, kubeloop up). Each informer is complete
// without it; every component then keeps the pods it decoded itself, as
// it would in a process of its own.
//
// What it saves: the controller manager, the scheduler and the kubelets
// each cache every pod (the kubelets between them), decoded from their own
// watch events: three copies of the same pod at the same resourceVersion.
// With a SharedObjects handed to all of them, the second and third
// informer to decode a version keep the first one's copy instead, so a
// Running pod is held once; and that copy shares the parts it has in
// common with the pod taken in before it (internal/sharing: the pods of
// one ReplicaSet differ in little more than their names). At 1000 nodes ×
// 30 pods, `make bench-scale`: docs/performance.md, session 7.
//
// It is sound because a version of an object is the same bytes for every
// reader (but for the old state a watch sends, at the new version, when
// the object leaves its selector: share checks what selectors look at),
// every component applies the same transform (TrimManagedFields) before
// sharing, and cached objects are read-only: a component changes a
// DeepCopy, never the cache's object (the mutation detector of the tests,
// KUBELOOP_CACHE_MUTATION_DETECTOR, checks it; a shared object changed by
// one component shows in every cache that holds it).

import (
	"maps"
	"runtime"
	"sync"
	"weak"

	"kubeloop/api"
	"kubeloop/internal/sharing"
)

// SharedObjects is a table of the pod versions the informers of one
// process hold, by UID and resourceVersion. It holds them weakly: a
// version no cache holds any more is forgotten. The zero value is not
// usable; nil is (it shares nothing).
type SharedObjects struct {
	mu   sync.Mutex
	pods map[podVersion]weak.Pointer[api.Pod]
	// last is the pod version taken in last, whose parts the next one
	// shares (weakly held too).
	last   weak.Pointer[api.Pod]
	sharer sharing.Sharer
}

// podVersion identifies one version of one pod. The kind is part of it
// because a list's items may come without apiVersion and kind where a
// watch event's object has them.
type podVersion struct {
	uid, resourceVersion, kind string
}

// NewSharedObjects makes an empty table.
func NewSharedObjects() *SharedObjects {
	return &SharedObjects{pods: map[podVersion]weak.Pointer[api.Pod]{}}
}

// Transform is TrimManagedFields, then the copy of the pod's version that
// another informer already holds, if there is one. It is the informer
// transform of the components that share s; with s nil it is
// TrimManagedFields alone.
func (s *SharedObjects) Transform(obj any) (any, error) {
	obj, err := TrimManagedFields(obj)
	if s == nil || err != nil {
		return obj, err
	}
	if pod, ok := obj.(*api.Pod); ok && pod.UID != "" && pod.ResourceVersion != "" {
		return s.share(pod), nil
	}
	return obj, nil
}

// share returns the held copy of pod's version, or holds pod as that copy.
func (s *SharedObjects) share(pod *api.Pod) *api.Pod {
	k := podVersion{uid: pod.UID, resourceVersion: pod.ResourceVersion, kind: pod.Kind}
	s.mu.Lock()
	defer s.mu.Unlock()
	if held := s.pods[k].Value(); held != nil {
		if sameSelectableState(held, pod) {
			return held
		}
		// Not the same state: a watch whose selector the pod left gets
		// the old state at the new resourceVersion (watchEventFor's
		// DELETED); each informer keeps its own.
		return pod
	}
	if last := s.last.Value(); last != nil {
		s.sharer.Share(pod, last)
	}
	s.pods[k] = weak.Make(pod)
	s.last = s.pods[k]
	runtime.AddCleanup(pod, s.forget, k)
	return pod
}

// sameSelectableState compares what a label or field selector may look at
// and change: two copies of one version that differ there are not the same
// state (the fields not compared here cannot change).
func sameSelectableState(a, b *api.Pod) bool {
	return a.Spec.NodeName == b.Spec.NodeName && a.Status.Phase == b.Status.Phase &&
		a.Status.PodIP == b.Status.PodIP && a.Status.NominatedNodeName == b.Status.NominatedNodeName &&
		maps.Equal(a.Labels, b.Labels)
}

// forget drops k once its copy has been collected (and not replaced).
func (s *SharedObjects) forget(k podVersion) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pods[k].Value() == nil {
		delete(s.pods, k)
	}
}
