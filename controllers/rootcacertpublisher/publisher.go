package rootcacertpublisher

import (
	"context"
	"log/slog"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs and the workqueue's metrics.
const ControllerName = "root-ca-cert-publisher"

// RootCACertConfigMapName is the ConfigMap every namespace gets.
const RootCACertConfigMapName = "kube-root-ca.crt"

// descriptionAnnotation says what the ConfigMap is for, in Kubernetes' words.
const (
	descriptionKey   = "kubernetes.io/description"
	descriptionValue = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters."
)

// Options tune a Publisher.
type Options struct {
	// MetricsProvider receives the workqueue's metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
}

// Publisher keeps kube-root-ca.crt in every namespace.
type Publisher struct {
	configMaps *client.Resource[*api.ConfigMap]
	rootCA     string
	cmLister   listers.Lister[*api.ConfigMap]
	nsLister   listers.Lister[*api.Namespace]
	synced     []func() bool
	log        *slog.Logger
	// queue holds namespace names.
	queue workqueue.TypedRateLimitingInterface[string]
}

// NewPublisher publishes rootCA (PEM).
func NewPublisher(c *client.Client, cms informers.TypedInformer[*api.ConfigMap], nss informers.TypedInformer[*api.Namespace], rootCA []byte, opts Options) *Publisher {
	p := &Publisher{
		configMaps: client.For[*api.ConfigMap](c),
		rootCA:     string(rootCA),
		cmLister:   cms.Lister(),
		nsLister:   nss.Lister(),
		log:        slog.Default().With("component", ControllerName),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "root_ca_cert_publisher", MetricsProvider: opts.MetricsProvider}),
	}
	cmReg, cmErr := cms.AddEventHandler(informer.ResourceEventHandlerFuncs{
		UpdateFunc: func(_, obj any) { p.configMapChanged(obj) },
		DeleteFunc: p.configMapChanged,
	})
	nsReg, nsErr := nss.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { p.namespaceChanged(obj) },
		UpdateFunc: func(_, obj any) { p.namespaceChanged(obj) },
	})
	if cmErr != nil || nsErr != nil {
		p.log.Error("add event handler", "err", cmErr, "nsErr", nsErr)
		p.synced = []func() bool{cms.HasSynced, nss.HasSynced}
	} else {
		p.synced = []func() bool{cmReg.HasSynced, nsReg.HasSynced}
	}
	return p
}

// configMapChanged queues the namespace of a changed or deleted
// kube-root-ca.crt; other ConfigMaps are none of its business.
func (p *Publisher) configMapChanged(obj any) {
	if t, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if cm, ok := obj.(*api.ConfigMap); ok && cm.Name == RootCACertConfigMapName {
		p.queue.Add(cm.Namespace)
	}
}

func (p *Publisher) namespaceChanged(obj any) {
	if ns, ok := obj.(*api.Namespace); ok {
		p.queue.Add(ns.Name)
	}
}

// syncNamespace is the reconcile: an active namespace gets the ConfigMap,
// or has its data put back to exactly ca.crt and its description
// restored; its labels and other annotations are kept. Kubernetes:
// Publisher.syncNamespace.
func (p *Publisher) syncNamespace(ctx context.Context, ns string) error {
	namespace, err := p.nsLister.Get(ns)
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if namespace.Status.Phase != api.NamespaceActive {
		return nil
	}
	cm, err := p.cmLister.Namespace(ns).Get(RootCACertConfigMapName)
	if api.IsNotFound(err) {
		_, err = p.configMaps.Namespace(ns).Create(ctx, &api.ConfigMap{
			ObjectMeta: api.ObjectMeta{Name: RootCACertConfigMapName, Namespace: ns, Annotations: map[string]string{descriptionKey: descriptionValue}},
			Data:       map[string]string{"ca.crt": p.rootCA},
		}, client.CreateOptions{})
		switch {
		case err == nil:
			p.log.Info("created", "configmap", ns+"/"+RootCACertConfigMapName)
			return nil
		case api.IsAlreadyExists(err), api.HasStatusCause(err, api.CauseTypeNamespaceTerminating):
			return nil
		}
		return err
	}
	if err != nil {
		return err
	}
	if cm.Data["ca.crt"] == p.rootCA && len(cm.Data) == 1 && cm.Annotations[descriptionKey] == descriptionValue {
		return nil
	}
	cm = cm.DeepCopy()
	cm.Data = map[string]string{"ca.crt": p.rootCA}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[descriptionKey] = descriptionValue
	if _, err := p.configMaps.Namespace(ns).Update(ctx, cm, client.UpdateOptions{}); err != nil {
		return err
	}
	p.log.Info("updated", "configmap", ns+"/"+RootCACertConfigMapName)
	return nil
}

// Run is the worker loop every controller shares (package worker): wait
// for the caches, run workers until ctx ends, then stop them.
func (p *Publisher) Run(ctx context.Context, workers int) {
	p.loop().Run(ctx, workers)
}

func (p *Publisher) loop() *worker.Loop {
	return &worker.Loop{Log: p.log, Queue: p.queue, Synced: p.synced, Sync: p.syncNamespace}
}
