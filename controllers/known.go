package controllers

import (
	"context"

	"kubeloop/api"
	"kubeloop/controllers/clusterroleaggregation"
	"kubeloop/controllers/deployment"
	"kubeloop/controllers/garbagecollector"
	"kubeloop/controllers/job"
	"kubeloop/controllers/labeler"
	"kubeloop/controllers/namespace"
	"kubeloop/controllers/nodelifecycle"
	"kubeloop/controllers/podgc"
	"kubeloop/controllers/replicaset"
	"kubeloop/controllers/rootcacertpublisher"
	"kubeloop/controllers/serviceaccount"
	"kubeloop/controllers/ttlafterfinished"
	"kubeloop/informers"
)

// KnownControllers is the table of every controller the manager can run,
// by the name --controllers uses (kube-controller-manager's
// NewControllerDescriptors).
func KnownControllers() map[string]InitFunc {
	return map[string]InitFunc{
		"replicaset": func(cc Context) (Runner, error) {
			return replicaset.NewController(cc.Client,
				informers.For[*api.ReplicaSet](cc.Informers), informers.For[*api.Pod](cc.Informers),
				cc.Recorder, replicaset.Options{MetricsProvider: cc.Metrics}), nil
		},
		"deployment": func(cc Context) (Runner, error) {
			return deployment.NewController(cc.Client,
				informers.For[*api.Deployment](cc.Informers), informers.For[*api.ReplicaSet](cc.Informers), informers.For[*api.Pod](cc.Informers),
				cc.Recorder, deployment.Options{MetricsProvider: cc.Metrics}), nil
		},
		"nodelifecycle": func(cc Context) (Runner, error) {
			return nodelifecycle.NewController(cc.Client,
				informers.For[*api.Node](cc.Informers), informers.For[*api.Lease](cc.Informers), informers.For[*api.Pod](cc.Informers),
				cc.Recorder, nodelifecycle.Options{MetricsProvider: cc.Metrics}), nil
		},
		"garbagecollector": func(cc Context) (Runner, error) {
			return garbagecollector.NewController(cc.Client, cc.Informers,
				garbagecollector.Options{MetricsProvider: cc.Metrics}), nil
		},
		"namespace": func(cc Context) (Runner, error) {
			return namespace.NewController(cc.Client, informers.For[*api.Namespace](cc.Informers),
				namespace.Options{MetricsProvider: cc.Metrics}), nil
		},
		"podgc": func(cc Context) (Runner, error) {
			return podgc.NewController(cc.Client, informers.For[*api.Pod](cc.Informers), informers.For[*api.Node](cc.Informers),
				podgc.Options{TerminatedPodThreshold: cc.ComponentConfig.TerminatedPodGCThreshold, MetricsProvider: cc.Metrics}), nil
		},
		"serviceaccount": func(cc Context) (Runner, error) {
			return serviceaccount.NewController(cc.Client, informers.For[*api.ServiceAccount](cc.Informers), informers.For[*api.Namespace](cc.Informers),
				serviceaccount.Options{MetricsProvider: cc.Metrics}), nil
		},
		"job": func(cc Context) (Runner, error) {
			return job.NewController(cc.Client, informers.For[*api.Job](cc.Informers), informers.For[*api.Pod](cc.Informers),
				cc.Recorder, job.Options{MetricsProvider: cc.Metrics}), nil
		},
		"ttl-after-finished": func(cc Context) (Runner, error) {
			return ttlafterfinished.New(cc.Client, informers.For[*api.Job](cc.Informers),
				ttlafterfinished.Options{MetricsProvider: cc.Metrics}), nil
		},
		"clusterrole-aggregation": func(cc Context) (Runner, error) {
			return clusterroleaggregation.NewController(cc.Client, informers.For[*api.ClusterRole](cc.Informers),
				clusterroleaggregation.Options{MetricsProvider: cc.Metrics}), nil
		},
		"root-ca-cert-publisher": func(cc Context) (Runner, error) {
			if len(cc.ComponentConfig.RootCA) == 0 {
				// A plain-HTTP cluster has no CA to publish.
				return idle{}, nil
			}
			return rootcacertpublisher.NewPublisher(cc.Client, informers.For[*api.ConfigMap](cc.Informers), informers.For[*api.Namespace](cc.Informers),
				cc.ComponentConfig.RootCA, rootcacertpublisher.Options{MetricsProvider: cc.Metrics}), nil
		},
		"labeler": func(cc Context) (Runner, error) {
			return labeler.NewController(cc.Client, informers.For[*api.ConfigMap](cc.Informers),
				labeler.Options{Namespaces: cc.ComponentConfig.LabelerNamespaces, MetricsProvider: cc.Metrics}), nil
		},
	}
}

// ServiceAccountNames maps each controller's --controllers name to the
// ServiceAccount in kube-system it runs as with
// --use-service-account-credentials; its ClusterRole is
// system:controller:<account> (apiserver/authorization/bootstrappolicy's
// ControllerRoles, kept in step by cluster's tests). Kubernetes names each
// account where it starts the controller (cmd/kube-controller-manager/app,
// ClientOrDie("replicaset-controller")). The labeler is the tutorial's.
func ServiceAccountNames() map[string]string {
	return map[string]string{
		"replicaset":              "replicaset-controller",
		"deployment":              "deployment-controller",
		"job":                     "job-controller",
		"nodelifecycle":           "node-controller",
		"garbagecollector":        "generic-garbage-collector",
		"namespace":               "namespace-controller",
		"podgc":                   "pod-garbage-collector",
		"serviceaccount":          "service-account-controller",
		"ttl-after-finished":      "ttl-after-finished-controller",
		"clusterrole-aggregation": "clusterrole-aggregation-controller",
		"root-ca-cert-publisher":  "root-ca-cert-publisher",
		"labeler":                 "labeler",
	}
}

// disabledByDefault names the known controllers that "*" leaves out; they
// run only when named. Kubernetes keeps such a list
// (ControllersDisabledByDefault: bootstrapsigner, tokencleaner); kubeloop
// has none today. The labeler, the tutorial's controller, is on by
// default, because the tutorial's steps must work on a cluster started
// without flags; "--controllers=*,-labeler" turns it off, and
// --labeler-namespaces narrows it.
func disabledByDefault(string) bool { return false }

// idle is a controller with nothing to do: it waits for the end.
type idle struct{}

func (idle) Run(ctx context.Context, _ int) { <-ctx.Done() }
