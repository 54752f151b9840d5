package main

import "strconv"

// rows is the table `make bench` prints: the figures issue 20 asks for,
// each read from one benchmark of the run. A row names its benchmark
// without the implementation element ("BenchmarkCreate/c=64"); a pattern
// with "*" (path.Match) makes one row per benchmark it matches. Ref is the
// implementation measured beside kubeloop in the same process ("etcd",
// "client-go", "k8s.io-api", "json"); a row without Ref is an absolute
// figure whose target applies to kubeloop's value. A row with RefUnit
// compares two figures of kubeloop's own line: configurations measured
// interleaved inside one benchmark (Ref is then only the reference's
// name in the table).
//
// Where an issue named no target, the one here is ours, and
// docs/performance.md says so.
var rows = []row{
	// Store create against the bare etcd transaction (issue 2), the two
	// interleaved in one benchmark, each encoding every object it writes.
	{Figure: "store create, c=1", Bench: "BenchmarkCreate/c=1", Unit: "objects/s", Ref: "etcd", RefUnit: "etcd-objects/s"},
	{Figure: "store create, c=16", Bench: "BenchmarkCreate/c=16", Unit: "objects/s", Ref: "etcd", RefUnit: "etcd-objects/s"},
	{Figure: "store create, c=64", Bench: "BenchmarkCreate/c=64", Unit: "objects/s", Ref: "etcd", RefUnit: "etcd-objects/s", Target: atLeast(0.9)},
	{Figure: "store create, CPU per create, c=64", Bench: "BenchmarkCreate/c=64", Unit: "cpu-us/object", Ref: "etcd", RefUnit: "etcd-cpu-us/object"},

	// Create over HTTP against raw etcd over gRPC (issues 5, 14 and 20),
	// interleaved in one benchmark with the same apiserver over HTTPS
	// (HTTP/2 and TLS, every cluster's default), which the reference does
	// not pay: informative beside it, its p99 too (the p99 is the
	// HTTP row's).
	{Figure: "apiserver create JSON over HTTP, c=64", Bench: "BenchmarkCreateConfigMaps/json/c=64", Unit: "objects/s", Ref: "etcd", RefUnit: "etcd-objects/s", Target: atLeast(0.6)},
	{Figure: "apiserver create JSON over HTTP, CPU per create", Bench: "BenchmarkCreateConfigMaps/json/c=64", Unit: "cpu-us/object", Ref: "etcd", RefUnit: "etcd-cpu-us/object"},
	{Figure: "apiserver create JSON over HTTP, p99", Bench: "BenchmarkCreateConfigMaps/json/c=64", Unit: "create-p99-ms", Target: valueAtMost(20)},
	{Figure: "apiserver create JSON over HTTPS, c=64", Bench: "BenchmarkCreateConfigMaps/json/c=64", Unit: "https-objects/s", Ref: "etcd", RefUnit: "etcd-objects/s"},
	{Figure: "apiserver create JSON over HTTPS, p99", Bench: "BenchmarkCreateConfigMaps/json/c=64", Unit: "https-create-p99-ms"},
	{Figure: "apiserver create protobuf over HTTP, c=64", Bench: "BenchmarkCreateConfigMaps/protobuf/c=64", Unit: "objects/s", Ref: "etcd", RefUnit: "etcd-objects/s", Target: atLeast(0.6)},
	{Figure: "apiserver create protobuf over HTTP, p99", Bench: "BenchmarkCreateConfigMaps/protobuf/c=64", Unit: "create-p99-ms", Target: valueAtMost(20)},
	{Figure: "apiserver create protobuf over HTTPS, c=64", Bench: "BenchmarkCreateConfigMaps/protobuf/c=64", Unit: "https-objects/s", Ref: "etcd", RefUnit: "etcd-objects/s"},
	{Figure: "apiserver create protobuf over HTTPS, p99", Bench: "BenchmarkCreateConfigMaps/protobuf/c=64", Unit: "https-create-p99-ms"},

	// The price of authentication and RBAC (issue 18): the same HTTPS
	// apiserver with them (a client certificate, a RoleBinding) and without
	// them (anonymous, AlwaysAllow), interleaved in one benchmark; raw etcd
	// beside it, informative.
	{Figure: "apiserver create HTTPS, authn+RBAC vs none, c=64", Bench: "BenchmarkCreateConfigMapsAuth/json/c=64", Unit: "objects/s", Ref: "noauth", RefUnit: "noauth-objects/s", Target: atLeast(0.9)},
	{Figure: "apiserver create HTTPS, CPU per create, authn+RBAC vs none", Bench: "BenchmarkCreateConfigMapsAuth/json/c=64", Unit: "cpu-us/object", Ref: "noauth", RefUnit: "noauth-cpu-us/object", Target: atMost(1.1)},
	{Figure: "apiserver create HTTPS, authn only vs none, c=64", Bench: "BenchmarkCreateConfigMapsAuth/json/c=64", Unit: "authn-objects/s", Ref: "noauth", RefUnit: "noauth-objects/s"},
	{Figure: "apiserver create HTTPS, authn+RBAC vs etcd, c=64", Bench: "BenchmarkCreateConfigMapsAuth/json/c=64", Unit: "objects/s", Ref: "etcd", RefUnit: "etcd-objects/s"},

	// What managedFields tracking costs (issue 16): a tracking apiserver
	// against one with Config.DisableManagedFields on the same etcd,
	// interleaved in one benchmark, a pod's create and replace over HTTPS
	// at c=16; and one server-side apply of a 100-container pod.
	{Figure: "create + update, managedFields tracked vs not, c=16", Bench: "BenchmarkCreateUpdateManagedFields", Unit: "tracked-pods/s", Ref: "untracked", RefUnit: "untracked-pods/s", Target: atLeast(0.9)},
	{Figure: "create + update, managedFields tracked vs not, CPU per pod", Bench: "BenchmarkCreateUpdateManagedFields", Unit: "tracked/untracked-cpu", Target: valueAtLeast(0.9)},
	{Figure: "apply of a 100-container pod", Bench: "BenchmarkApply100ContainerPod", Unit: "ns/op"},
	{Figure: "apply of a 100-container pod, allocations", Bench: "BenchmarkApply100ContainerPod", Unit: "allocs/op"},

	// Custom resources (issue 15): creates of a custom resource (a schema
	// with defaults, bounds, an enum, a list-map and a CEL rule) and of
	// ConfigMaps over HTTPS at c=16, in alternating rounds.
	{Figure: "create, custom resource vs ConfigMap, c=16", Bench: "BenchmarkCreateCustomResourceVsConfigMap", Unit: "cr-creates/s", Ref: "ConfigMap", RefUnit: "cm-creates/s", Target: atLeast(0.8)},

	// The watch cache (issue 4).
	{Figure: "LIST 10k pods, cache vs etcd", Bench: "BenchmarkList10kPods", Unit: "ns/op", Ref: "etcd", Target: atMost(0.1)},
	{Figure: "fan-out 1 write to 1000 watchers, p99", Bench: "BenchmarkFanout1000Watchers", Unit: "p99-ms", Ref: "etcd", Target: atMost(1)},
	{Figure: "watch cache heap per cached pod", Bench: "BenchmarkCacheMemory10kPods", Unit: "B/object", Target: valueAtMost(4096)},

	// Queues against client-go (issue 3): every row ≤ 1.0×.
	{Figure: "workqueue Add/Get/Done", Bench: "BenchmarkQueueAddGetDone/*/*", Unit: "ns/op", Ref: "client-go", Target: atMost(1)},
	{Figure: "workqueue serial Add/Get/Done", Bench: "BenchmarkQueueSerialAddGetDone", Unit: "ns/op", Ref: "client-go", Target: atMost(1)},
	{Figure: "delaying queue AddAfter 10k", Bench: "BenchmarkDelayingQueueAddAfter10k", Unit: "ns/op", Ref: "client-go", Target: atMost(1)},
	{Figure: "DeltaFIFO Add/Pop", Bench: "BenchmarkDeltaFIFOAddPop", Unit: "ns/op", Ref: "client-go", Target: atMost(1)},
	{Figure: "DeltaFIFO Replace 10k", Bench: "BenchmarkDeltaFIFOReplace10k", Unit: "ns/op", Ref: "client-go", Target: atMost(1)},

	// Informer initial sync against client-go's (issue 7).
	{Figure: "informer initial sync, 10k pods", Bench: "BenchmarkInformerInitialSync10kPods", Unit: "ns/op", Ref: "client-go", Target: atMost(1)},

	// The wire (issue 14): protobuf against JSON in our codec, and each
	// format of ours against k8s.io/api's generated code.
	{Figure: "10k-pod list, protobuf vs JSON", Bench: "BenchmarkPodList10kProtobuf/*", Unit: "ns/op", Ref: "json", Target: atMost(1)},
	{Figure: "10k-pod list, ours vs k8s.io/api", Bench: "BenchmarkPodList10k*/*", Unit: "ns/op", Ref: "k8s.io-api", Target: atMost(2)},
	{Figure: "10k-pod watch, ours vs k8s.io/api", Bench: "BenchmarkPodWatch10k*/*", Unit: "ns/op", Ref: "k8s.io-api", Target: atMost(2)},

	// 0 → 1000 pods on 20 nodes, the whole cluster in one process (issue 9).
	{Figure: "0→1000 pods on 20 nodes, startup p50", Bench: "BenchmarkScaleTo1000/nodes=20", Unit: "startup-p50-ms"},
	{Figure: "0→1000 pods on 20 nodes, startup p99", Bench: "BenchmarkScaleTo1000/nodes=20", Unit: "startup-p99-ms", Target: valueAtMost(1000)},
	{Figure: "0→1000 pods on 20 nodes, scheduler", Bench: "BenchmarkScaleTo1000/nodes=20", Unit: "sched-pods/s", Target: valueAtLeast(500)},
	{Figure: "0→1000 pods on 20 nodes, CPU per pod", Bench: "BenchmarkScaleTo1000/nodes=20", Unit: "cpu-ms/pod"},
}

// row is one line of the table as declared above.
type row struct {
	Figure string
	Bench  string
	Unit   string
	Ref    string
	// RefUnit, when set, takes the reference from kubeloop's own line.
	RefUnit string
	Target  target
}

// target is what a row must reach: on the ratio kubeloop ÷ reference, or,
// for rows without a reference, on kubeloop's own value. The zero target
// means the row is informative only.
type target struct {
	OnRatio bool
	AtLeast bool // else at most
	Value   float64
}

func atLeast(v float64) target      { return target{OnRatio: true, AtLeast: true, Value: v} }
func atMost(v float64) target       { return target{OnRatio: true, Value: v} }
func valueAtLeast(v float64) target { return target{AtLeast: true, Value: v} }
func valueAtMost(v float64) target  { return target{Value: v} }

func (t target) set() bool { return t.Value != 0 }

func (t target) String() string {
	if !t.set() {
		return "—"
	}
	op := "≤"
	if t.AtLeast {
		op = "≥"
	}
	if t.OnRatio {
		return op + " " + strconv.FormatFloat(t.Value, 'g', -1, 64) + "×"
	}
	return op + " " + strconv.FormatFloat(t.Value, 'g', -1, 64)
}

// met says whether a measured figure reaches the target.
func (t target) met(value, ratio float64) bool {
	v := value
	if t.OnRatio {
		v = ratio
	}
	if t.AtLeast {
		return v >= t.Value
	}
	return v <= t.Value
}
