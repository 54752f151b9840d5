// Package pod is the registry of pods: the pod strategy (a new pod is
// Pending; a pod bound to a node is deleted gracefully) and the REST
// storage of pods, pods/status and pods/binding.
//
// Where it sits on the spine: the scheduler's decision arrives here as a
// POST of pods/NAME/binding (BindingREST.Create sets spec.nodeName once),
// and every kubelet's report as a write of pods/NAME/status; both end in
// the pod's etcd key through the generic Store's storage.
//
// Kubernetes counterparts (v1.37.2): pkg/registry/core/pod/strategy.go
// (podStrategy.PrepareForCreate, CheckGracefulDelete, podStatusStrategy)
// and pkg/registry/core/pod/storage/storage.go (NewStorage, BindingREST.Create,
// assignPod, StatusREST).
//
// What we simplify: no QOS class, no pod-level resources, no
// eviction, ephemeralcontainers, resize, log, exec or proxy subresources;
// the binding writes no annotations from the Binding and does not check
// that the node exists (neither does Kubernetes). The status strategy is
// the generic one: it also keeps client changes to labels and annotations,
// as Kubernetes' pod status strategy does.
package pod
