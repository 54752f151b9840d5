package kubelet

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"strings"
	"sync"
	"time"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/client/record"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/kubelet/runtime"
	"kubeloop/listers"
)

// ComponentName is the kubelet's name in events and logs.
const ComponentName = "kubelet"

// KubeletVersion is what the node reports in status.nodeInfo.
const KubeletVersion = "v1.37.0-kubeloop"

// Options describe one simulated node. The zero value of every field is
// Kubernetes' default (or a small, documented simplification of it).
type Options struct {
	// NodeName names the Node object, the Lease and the pods' spec.nodeName.
	NodeName string
	// CPU, Memory and Pods are the node's capacity, which is also its
	// allocatable: no system reservations. Defaults "4", "8Gi", 110.
	CPU    string
	Memory string
	Pods   int
	// Labels are added to the node's labels (kubernetes.io/hostname, os
	// and arch are always set).
	Labels map[string]string
	// PodCIDR is the node's pod range, a /24 ("10.244.3.0/24"); empty
	// derives one from the node name.
	PodCIDR string
	// NodeIP is the node's InternalIP; empty derives one from the name.
	NodeIP string

	// StartDelay is how long the default fake runtime takes to start a
	// container. Ignored when Runtime is set.
	StartDelay time.Duration
	// Runtime is the container runtime; nil makes a runtime.Fake.
	Runtime runtime.Runtime

	// HeartbeatInterval is how often the node Lease is renewed (10 s).
	HeartbeatInterval time.Duration
	// NodeStatusInterval is how often the kubelet checks its Node's status
	// and writes it if it changed (10 s, Kubernetes'
	// nodeStatusUpdateFrequency).
	NodeStatusInterval time.Duration
	// NodeStatusReportInterval is how often the status is written even
	// when unchanged (5 min, Kubernetes' nodeStatusReportFrequency): the
	// Lease, not the status, is the frequent heartbeat.
	NodeStatusReportInterval time.Duration
	// RestartBackoffBase and RestartBackoffMax bound the crash-loop
	// back-off (10 s doubling to 5 min).
	RestartBackoffBase time.Duration
	RestartBackoffMax  time.Duration
	// PLEGPeriod is how often the runtime is relisted (1 s).
	PLEGPeriod time.Duration
	// SharedObjects, when set, is the table through which the components
	// of one process hold one copy of each pod version between them
	// (informers/shared_objects.go; cluster/full sets it). Nil: this
	// kubelet keeps its own copies, as in a process of its own.
	SharedObjects *informers.SharedObjects
}

func (o *Options) setDefaults() error {
	if o.NodeName == "" {
		return errors.New("kubelet: NodeName is required")
	}
	setIfZero(&o.CPU, "4")
	setIfZero(&o.Memory, "8Gi")
	setIfZero(&o.Pods, 110)
	setIfZero(&o.HeartbeatInterval, 10*time.Second)
	setIfZero(&o.NodeStatusInterval, 10*time.Second)
	setIfZero(&o.NodeStatusReportInterval, 5*time.Minute)
	setIfZero(&o.RestartBackoffBase, 10*time.Second)
	setIfZero(&o.RestartBackoffMax, 5*time.Minute)
	setIfZero(&o.PLEGPeriod, time.Second)
	h := fnv.New32a()
	h.Write([]byte(o.NodeName))
	sum := h.Sum32()
	if o.PodCIDR == "" {
		o.PodCIDR = fmt.Sprintf("10.%d.%d.0/24", 64+sum>>24%64, sum>>16&0xff)
	}
	if o.NodeIP == "" {
		o.NodeIP = fmt.Sprintf("172.%d.%d.%d", 16+sum>>8%16, sum&0xff, 2+sum>>20%250)
	}
	if !strings.HasSuffix(o.PodCIDR, ".0/24") {
		return fmt.Errorf("kubelet: PodCIDR %q: only a.b.c.0/24 ranges are supported", o.PodCIDR)
	}
	for _, q := range []string{o.CPU, o.Memory} {
		if _, err := api.ParseQuantity(q); err != nil {
			return fmt.Errorf("kubelet: capacity %q: %w", q, err)
		}
	}
	return nil
}

func setIfZero[T comparable](p *T, v T) {
	var zero T
	if *p == zero {
		*p = v
	}
}

// Kubelet is one simulated node: it registers the Node, heartbeats, and runs
// the pods bound to it in its runtime. Kubernetes: pkg/kubelet/kubelet.go,
// Kubelet.
type Kubelet struct {
	opts     Options
	client   *client.Client
	pods     *client.Resource[*api.Pod]
	runtime  runtime.Runtime
	recorder *record.Recorder
	log      *slog.Logger

	// factory watches only this node's pods (spec.nodeName=<node>).
	factory   *informers.SharedInformerFactory
	podLister listers.Lister[*api.Pod]
	podSynced func() bool

	workers *podWorkers
	pleg    *pleg
	backOff *backOff

	// nodeUID is the registered Node's UID, the Lease's owner.
	mu      sync.Mutex
	nodeUID string
}

// New builds a kubelet for opts.NodeName. Nothing talks to the apiserver
// until Run.
func New(c *client.Client, opts Options) (*Kubelet, error) {
	if err := opts.setDefaults(); err != nil {
		return nil, err
	}
	rt := opts.Runtime
	if rt == nil {
		rt = runtime.NewFake(runtime.FakeConfig{
			StartDelay: opts.StartDelay,
			IPPrefix:   strings.TrimSuffix(opts.PodCIDR, "0/24"),
		})
	}
	nodeName := opts.NodeName
	factory := informers.NewClientInformerFactoryWithOptions(c, informer.Options{Transform: opts.SharedObjects.Transform}, func(o *api.ListOptions) {
		o.FieldSelector = "spec.nodeName=" + nodeName
	})
	podInformer := informers.For[*api.Pod](factory)
	kl := &Kubelet{
		opts:      opts,
		client:    c,
		pods:      client.For[*api.Pod](c),
		runtime:   rt,
		recorder:  record.NewRecorder(c, ComponentName, nodeName),
		log:       slog.Default().With("component", ComponentName, "node", nodeName),
		factory:   factory,
		podLister: podInformer.Lister(),
		podSynced: podInformer.HasSynced,
		backOff:   newBackOff(opts.RestartBackoffBase, opts.RestartBackoffMax),
	}
	kl.workers = newPodWorkers(kl.syncPod, kl.removePod, kl.log)
	kl.pleg = newPLEG(rt, opts.PLEGPeriod, kl.handlePLEGEvent, kl.log)
	if _, err := podInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { kl.HandlePodUpdate(obj) },
		UpdateFunc: func(_, obj any) { kl.HandlePodUpdate(obj) },
		DeleteFunc: kl.HandlePodRemove,
	}); err != nil {
		return nil, fmt.Errorf("kubelet: watch pods: %w", err)
	}
	return kl, nil
}

// NodeName is the node this kubelet runs.
func (kl *Kubelet) NodeName() string { return kl.opts.NodeName }

// Run registers the node (retrying until it succeeds), then heartbeats,
// watches its pods and runs them until ctx ends; it returns nil then.
// Kubernetes: Kubelet.Run and syncLoop; the sources (apiserver, file, http)
// collapse to the one informer.
func (kl *Kubelet) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	wg.Add(1)
	go func() { defer wg.Done(); kl.recorder.Run(ctx) }()

	if err := kl.registerWithAPIServer(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while registering
		}
		return err
	}
	kl.log.Info("node registered")
	wg.Add(2)
	go func() { defer wg.Done(); kl.runNodeLease(ctx) }()
	go func() { defer wg.Done(); kl.runNodeStatus(ctx) }()

	kl.workers.start(ctx)
	kl.factory.Start(ctx)
	if !informer.WaitForCacheSync(ctx, kl.podSynced) {
		kl.factory.Shutdown()
		kl.workers.wait()
		return nil
	}
	wg.Add(1)
	go func() { defer wg.Done(); kl.pleg.run(ctx) }()
	<-ctx.Done()
	kl.factory.Shutdown()
	kl.workers.wait()
	return nil
}

// HandlePodUpdate hands an added or changed pod to its worker. Kubernetes
// splits this into HandlePodAdditions, HandlePodUpdates and
// HandlePodReconcile; for a pod worker they all mean "sync again".
func (kl *Kubelet) HandlePodUpdate(obj any) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	kl.workers.UpdatePod(pod)
}

// HandlePodRemove tells the pod's worker that the pod is gone from the API:
// whatever still runs of it must go. Kubernetes: HandlePodRemoves.
func (kl *Kubelet) HandlePodRemove(obj any) {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	kl.workers.RemovePod(pod)
}

// handlePLEGEvent wakes the worker of the pod whose containers changed. A
// sandbox whose pod the kubelet no longer knows is an orphan: its own
// worker cleans it up (Kubernetes: HandlePodCleanups).
func (kl *Kubelet) handlePLEGEvent(ev podLifecycleEvent) {
	if !kl.workers.wake(ev.podUID) {
		pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: ev.name, Namespace: ev.namespace, UID: ev.podUID}}
		if cached, err := kl.podLister.Namespace(ev.namespace).Get(ev.name); err == nil && cached.UID == ev.podUID {
			kl.workers.UpdatePod(cached)
			return
		}
		kl.workers.RemovePod(pod)
	}
}
