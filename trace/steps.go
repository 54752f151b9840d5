package trace

import (
	"context"
	"strings"
	"sync"
)

// The ten arrows of the deep-dive's sequence diagram, as the trace prints
// them. The numbering is the diagram's (autonumber), nothing else.
var stepNames = [...]string{
	Off: "beside the spine",
	1:   "kubectl scale → apiserver: spec.replicas = 5",
	2:   "apiserver → etcd: validate, admit, write (resourceVersion++)",
	3:   "apiserver ⇢ ReplicaSet controller: watch event (a hint)",
	4:   "ReplicaSet controller: syncReplicaSet re-reads the world",
	5:   "ReplicaSet controller → apiserver: create the missing pods",
	6:   "apiserver ⇢ scheduler: new pending pods",
	7:   "scheduler → apiserver: filter + score → binding",
	8:   "apiserver ⇢ kubelet: bound pods on my node",
	9:   "kubelet: UpdatePod → runtime starts containers",
	10:  "kubelet → apiserver: Pod.status = Running",
}

// String names the arrow.
func (s Step) String() string {
	if int(s) < len(stepNames) {
		return stepNames[s]
	}
	return "unknown step"
}

// The participants whose informers are on the spine; cluster/full names its
// components so.
const (
	ControllerManager = "controller-manager"
	Scheduler         = "scheduler"
	kubeletPrefix     = "kubelet"
)

// RequestStep is the arrow a write request is: scaling a ReplicaSet (1), a
// pod create (5), a binding (7), a pod status write (10). Reads and every
// other write are Off.
func RequestStep(verb, resource, subresource string) Step {
	write := verb == "create" || verb == "update" || verb == "patch"
	switch {
	case !write:
		return Off
	case resource == "replicasets" && (subresource == "" || subresource == "scale") && verb != "create":
		return 1
	case resource == "pods" && subresource == "" && verb == "create":
		return 5
	case resource == "pods" && subresource == "binding":
		return 7
	case resource == "pods" && subresource == "status":
		return 10
	}
	return Off
}

// CommitStep is the arrow of the etcd write a request of step s makes: the
// ReplicaSet's write is arrow 2 of its own; a pod's create, binding and
// status are written within their arrow.
func CommitStep(s Step) Step {
	if s == 1 {
		return 2
	}
	return s
}

// DispatchStep is the arrow of the watch event that carries the write at
// resourceVersion rv to object key: the arrow that follows the write in
// the diagram.
func DispatchStep(rv, key string) Step {
	switch process.writes.get(rv, key) {
	case 2:
		return 3
	case 5:
		return 6
	case 7:
		return 8
	case 10:
		return 10
	}
	return Off
}

// DeliveryStep is the arrow of a watch event at resourceVersion rv (of
// object key) arriving in component's informer: every event that reaches the controller manager
// is the ReplicaSet controller's hint (3), and a pod turned Running is its
// observation (10); the scheduler's arrow is a new pod (6), the kubelet's a
// bound one (8). Whatever else a component sees is beside the spine.
func DeliveryStep(component, rv, key string) Step {
	w := process.writes.get(rv, key)
	switch {
	case w == Off:
		return Off
	case component == ControllerManager && w == 10:
		return 10
	case component == ControllerManager:
		return 3
	case component == Scheduler && w == 5:
		return 6
	case strings.HasPrefix(component, kubeletPrefix) && w == 7:
		return 8
	}
	return Off
}

// WriteStarting says that a write of arrow s to object key is about to be
// sent to etcd. etcd's watch may hand the new revision to the watch cache
// before the transaction's answer is back, so until RecordWrite knows the
// revision, events of key take the arrow of the write in flight.
func WriteStarting(key string, s Step) {
	if On() {
		process.writes.start(key, s)
	}
}

// RecordWrite remembers that the write at rv to key was arrow s (Off
// included: a write beside the spine must not take the arrow of another in
// flight), so that the watch events carrying it are numbered by their
// cause.
func RecordWrite(rv, key string, s Step) {
	if On() {
		process.writes.put(rv, key, s)
	}
}

// writeSteps maps the resourceVersions of recent spine writes to their
// arrow, and object keys to the arrow of a write in flight. It forgets the
// oldest beyond a bound: a trace left on in `kubeloop up` must not grow
// without one.
type writeSteps struct {
	mu      sync.Mutex
	steps   map[string]Step // by resourceVersion
	order   []string        // of steps' keys, oldest first
	pending map[string]Step // by object key
}

const maxRememberedWrites = 1 << 14

func (w *writeSteps) start(key string, s Step) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.pending == nil || len(w.pending) >= maxRememberedWrites {
		// Writes that failed leave their entry; drop them all at once.
		w.pending = map[string]Step{}
	}
	w.pending[key] = s
}

func (w *writeSteps) put(rv, key string, s Step) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.steps == nil {
		w.steps = map[string]Step{}
	}
	if len(w.order) >= maxRememberedWrites {
		delete(w.steps, w.order[0])
		w.order = w.order[1:]
	}
	w.steps[rv] = s
	w.order = append(w.order, rv)
	delete(w.pending, key)
}

func (w *writeSteps) get(rv, key string) Step {
	w.mu.Lock()
	defer w.mu.Unlock()
	if s, ok := w.steps[rv]; ok {
		return s
	}
	return w.pending[key]
}

func (w *writeSteps) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.steps, w.order, w.pending = nil, nil, nil
}

type componentKey struct{}
type stepKey struct{}

// WithComponent names the component whose goroutines run under ctx
// (cluster.Start does it for each component it starts); informers started
// under ctx report their hops as that component's.
func WithComponent(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, componentKey{}, name)
}

// ComponentFrom is the name WithComponent gave, or "".
func ComponentFrom(ctx context.Context) string {
	s, _ := ctx.Value(componentKey{}).(string)
	return s
}

// WithStep carries a request's arrow from the apiserver's filter down to
// the storage write it causes.
func WithStep(ctx context.Context, s Step) context.Context {
	if s == Off {
		return ctx
	}
	return context.WithValue(ctx, stepKey{}, s)
}

// StepFrom is the arrow WithStep gave, or Off.
func StepFrom(ctx context.Context) Step {
	s, _ := ctx.Value(stepKey{}).(Step)
	return s
}

// ReplicaSetQueue is the ReplicaSet controller's workqueue name; its adds
// end arrow 3 and its gets begin arrow 4.
const ReplicaSetQueue = "replicaset"

// QueueStep is the arrow of a workqueue hop: only the ReplicaSet
// controller's queue is on the diagram.
func QueueStep(queue string, hop Hop) Step {
	switch {
	case queue != ReplicaSetQueue:
		return Off
	case hop == WorkqueueAdd:
		return 3
	case hop == WorkqueueGet:
		return 4
	}
	return Off
}
