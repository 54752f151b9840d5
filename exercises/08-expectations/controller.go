package expectations

import (
	"context"
	"log/slog"
	"sync"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// Controller keeps spec.replicas pods for every ReplicaSet. It is kubeloop's
// ReplicaSet controller (controllers/replicaset) cut down to what the
// expectations are about: no adoption or release, no status, no ranking of
// the pods to delete. Everything here is given; the expectations are yours.
type Controller struct {
	client    *client.Client
	log       *slog.Logger
	rsLister  listers.Lister[*api.ReplicaSet]
	podLister listers.Lister[*api.Pod]
	synced    []func() bool

	// expectations holds back the syncs of a ReplicaSet whose own creates
	// and deletes the cache has not caught up with.
	expectations *ControllerExpectations
	queue        workqueue.TypedRateLimitingInterface[string]

	// syncHandler is syncReplicaSet; a field so the grader can watch it.
	syncHandler func(ctx context.Context, key string) error
}

// Options tune a Controller.
type Options struct {
	// Clock drives the expectations' timeout (nil: the wall clock).
	Clock workqueue.Clock
}

// NewController wires the informers' handlers to the queue and the
// expectations. Start the informers' factory after it, then call Run.
func NewController(c *client.Client, rsInformer informers.TypedInformer[*api.ReplicaSet], podInformer informers.TypedInformer[*api.Pod], opts Options) (*Controller, error) {
	rsc := &Controller{
		client:       c,
		log:          slog.Default().With("component", "exercise-replicaset"),
		rsLister:     rsInformer.Lister(),
		podLister:    podInformer.Lister(),
		expectations: NewControllerExpectations(opts.Clock),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "exercise-replicaset"}),
	}
	rsc.syncHandler = rsc.syncReplicaSet
	rsReg, err := rsInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { rsc.enqueue(obj) },
		UpdateFunc: func(_, obj any) { rsc.enqueue(obj) },
		DeleteFunc: rsc.deleteRS,
	})
	if err != nil {
		return nil, err
	}
	podReg, err := podInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { rsc.addPod(obj) },
		UpdateFunc: rsc.updatePod,
		DeleteFunc: rsc.deletePod,
	})
	if err != nil {
		return nil, err
	}
	// Wait for the handlers, not only the caches: an initial pod reaching
	// addPod after a sync has set expectations would count as one of that
	// sync's creations.
	rsc.synced = []func() bool{rsReg.HasSynced, podReg.HasSynced}
	return rsc, nil
}

// Run waits for the caches, runs workers until ctx ends, then shuts the
// queue down and waits for them.
func (rsc *Controller) Run(ctx context.Context, workers int) {
	var wg sync.WaitGroup
	defer wg.Wait()
	defer rsc.queue.ShutDown()
	if !informer.WaitForCacheSync(ctx, rsc.synced...) {
		return
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for rsc.processNextWorkItem(ctx) {
			}
		}()
	}
	<-ctx.Done()
}

func (rsc *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := rsc.queue.Get()
	if shutdown {
		return false
	}
	defer rsc.queue.Done(key)
	if err := rsc.syncHandler(ctx, key); err != nil {
		if ctx.Err() == nil {
			rsc.log.Info("sync failed, will retry", "key", key, "err", err)
		}
		rsc.queue.AddRateLimited(key)
		return true
	}
	rsc.queue.Forget(key)
	return true
}

func (rsc *Controller) enqueue(obj any) {
	if key, err := api.MetaNamespaceKeyFunc(obj); err == nil {
		rsc.queue.Add(key)
	}
}

func (rsc *Controller) deleteRS(obj any) {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	key, err := api.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	rsc.expectations.DeleteExpectations(key)
	rsc.queue.Add(key)
}

// addPod observes one of our creations: the pod names its ReplicaSet in
// its controller reference.
func (rsc *Controller) addPod(obj any) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	if pod.DeletionTimestamp != nil {
		rsc.deletePod(pod) // first seen already going away: a deletion
		return
	}
	if key, ok := rsc.ownerKey(pod); ok {
		rsc.expectations.CreationObserved(key)
		rsc.queue.Add(key)
	}
}

func (rsc *Controller) updatePod(_, newObj any) {
	pod, ok := newObj.(*api.Pod)
	if !ok {
		return
	}
	if pod.DeletionTimestamp != nil {
		// Graceful deletion: the pod is going; count it now, the DELETED
		// event will count nothing more.
		rsc.deletePod(pod)
		return
	}
	if key, ok := rsc.ownerKey(pod); ok {
		rsc.queue.Add(key)
	}
}

// deletePod observes one of our deletions; a tombstone is unwrapped.
func (rsc *Controller) deletePod(obj any) {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	if key, ok := rsc.ownerKey(pod); ok {
		rsc.expectations.DeletionObserved(key, pod.Namespace+"/"+pod.Name)
		rsc.queue.Add(key)
	}
}

// ownerKey is the key of the cached ReplicaSet that controls pod.
func (rsc *Controller) ownerKey(pod *api.Pod) (string, bool) {
	for _, ref := range pod.OwnerReferences {
		if ref.Controller == nil || !*ref.Controller || ref.Kind != "ReplicaSet" {
			continue
		}
		rs, err := rsc.rsLister.Namespace(pod.Namespace).Get(ref.Name)
		if err != nil || rs.UID != ref.UID {
			return "", false
		}
		return pod.Namespace + "/" + rs.Name, true
	}
	return "", false
}
