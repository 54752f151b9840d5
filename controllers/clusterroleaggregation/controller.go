package clusterroleaggregation

import (
	"context"
	"log/slog"
	"sort"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/controllers/worker"
	"kubeloop/informer"
	"kubeloop/informers"
	"kubeloop/listers"
	"kubeloop/workqueue"
)

// ControllerName names the controller in logs and the workqueue's metrics.
const ControllerName = "clusterrole-aggregation-controller"

// Options tune a Controller.
type Options struct {
	// MetricsProvider receives the workqueue's metrics (nil = none).
	MetricsProvider workqueue.MetricsProvider
}

// Controller keeps aggregated ClusterRoles' rules the union of the rules
// of the ClusterRoles they select.
type Controller struct {
	clusterRoles *client.Resource[*api.ClusterRole]
	lister       listers.Lister[*api.ClusterRole]
	synced       func() bool
	log          *slog.Logger
	// queue holds the names of ClusterRoles with an aggregationRule.
	queue workqueue.TypedRateLimitingInterface[string]
}

// NewController wires the ClusterRole informer: any change to any
// ClusterRole may change what some aggregated role should hold, so every
// event queues every aggregated role (there are few).
func NewController(c *client.Client, roles informers.TypedInformer[*api.ClusterRole], opts Options) *Controller {
	ctrl := &Controller{
		clusterRoles: client.For[*api.ClusterRole](c),
		lister:       roles.Lister(),
		log:          slog.Default().With("component", ControllerName),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "clusterroleaggregation", MetricsProvider: opts.MetricsProvider}),
	}
	reg, err := roles.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(any, bool) { ctrl.enqueue() },
		UpdateFunc: func(any, any) { ctrl.enqueue() },
		DeleteFunc: func(any) { ctrl.enqueue() },
	})
	ctrl.synced = roles.HasSynced
	if err != nil {
		ctrl.log.Error("add event handler", "err", err)
	} else {
		ctrl.synced = reg.HasSynced
	}
	return ctrl
}

func (c *Controller) enqueue() {
	for _, r := range c.lister.List(nil) {
		if r.AggregationRule != nil {
			c.queue.Add(r.Name)
		}
	}
}

// syncClusterRole is the reconcile: the rules of every other ClusterRole
// any selector matches, in name order, each rule once; written only if
// they differ from what the role holds. Kubernetes: syncClusterRole.
func (c *Controller) syncClusterRole(ctx context.Context, name string) error {
	role, err := c.lister.Get(name)
	if api.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if role.AggregationRule == nil {
		return nil
	}
	matched := map[string]*api.ClusterRole{}
	for i := range role.AggregationRule.ClusterRoleSelectors {
		sel, err := api.LabelSelectorAsSelector(&role.AggregationRule.ClusterRoleSelectors[i])
		if err != nil {
			return err
		}
		for _, r := range c.lister.List(sel) {
			if r.Name != role.Name {
				matched[r.Name] = r
			}
		}
	}
	names := make([]string, 0, len(matched))
	for n := range matched {
		names = append(names, n)
	}
	sort.Strings(names)
	var rules []api.PolicyRule
	for _, n := range names {
		for _, rule := range matched[n].Rules {
			if !containsRule(rules, rule) {
				rules = append(rules, *rule.DeepCopy())
			}
		}
	}
	if api.SemanticEqual(&rules, &role.Rules) {
		return nil
	}
	updated := role.DeepCopy()
	updated.Rules = rules
	if _, err := c.clusterRoles.Update(ctx, updated, client.UpdateOptions{}); err != nil {
		return err
	}
	c.log.Info("aggregated", "clusterrole", name, "rules", len(rules), "from", len(names))
	return nil
}

func containsRule(rules []api.PolicyRule, r api.PolicyRule) bool {
	for i := range rules {
		if api.SemanticEqual(&rules[i], &r) {
			return true
		}
	}
	return false
}

// Run is the worker loop every controller shares (package worker): wait
// for the cache, run workers until ctx ends, then stop them.
func (c *Controller) Run(ctx context.Context, workers int) {
	c.loop().Run(ctx, workers)
}

func (c *Controller) loop() *worker.Loop {
	return &worker.Loop{Log: c.log, Queue: c.queue, Synced: []func() bool{c.synced}, Sync: c.syncClusterRole}
}
