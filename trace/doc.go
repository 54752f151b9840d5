// Package trace is the spine of "scale to 5" seen from inside: each
// component reports the hops a change makes through it — apiserver
// received, etcd committed, watch cache dispatched, reflector received,
// DeltaFIFO queued, informer handler, workqueue add and get, reconcile, pod
// create, scheduler filter, score and bind, kubelet start, status written,
// Running observed — as Events numbered by the arrows of the deep-dive's
// sequence diagram (Step 1 to 10; Off for what the diagram does not draw).
// `make trace` prints one run (docs/trace.md); `kubectl-lite trace rs NAME`
// streams it from a running `kubeloop up` through the apiserver's
// /debug/trace.
//
// Where it sits: beside the spine, not on it. Every instrumented package
// imports it and it imports only package api, so it is a leaf like log/slog.
// Each site is one line calling a method in its package's trace.go, which
// returns at once unless On.
//
// The switch is the subscribers: Subscribe (or Record) switches the trace
// on, the last Close switches it off. While off, a site costs one atomic
// load and allocates nothing (TestHooksWhileOffDoNotAllocate; Emitted does
// not move). Emit never blocks a component: a subscriber whose buffer is
// full loses the event and counts it.
//
// How an event gets its number: a write's arrow comes from the request
// (RequestStep: a ReplicaSet scale is 1, a pod create 5, a binding 7, a pod
// status 10) and travels in the request's context to the store, which
// remembers the revision's arrow (RecordWrite). A watch event carrying that
// revision is then numbered by who receives it (DispatchStep, DeliveryStep):
// the controller manager's informers are arrow 3 (10 for a status write:
// Running observed), the scheduler's 6 for a new pod, a kubelet's 8 for a
// bound one. Components are named by the context cluster.Start runs them
// under (WithComponent), so a reflector knows whose it is.
//
// Why a process-wide switch, against STYLE.md's "no package-level mutable
// variables": the trace follows one change across components that share
// nothing but the process (kubeloop up runs them all in one); threading a
// tracer through every constructor would put trace plumbing on every page
// of the reading path for a debugging aid. runtime/trace and slog.Default
// make the same choice.
//
// Kubernetes counterpart: none as such. The apiserver and client-go record
// latency with component-base/tracing (OpenTelemetry spans, off by
// default, exported to a collector) and, in the apiserver, utiltrace.Trace
// for slow requests (staging/src/k8s.io/utils/trace); neither follows one
// object across the controller, scheduler and kubelet. What we simplify:
// no spans or trace context on the wire — the components are in one
// process, and an event is matched to its cause by resourceVersion.
package trace
