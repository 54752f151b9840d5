package controllers

import (
	"kubeloop/api"
	"kubeloop/controllers/nodelifecycle"
	"kubeloop/controllers/replicaset"
	"kubeloop/informer"
)

// KnownControllers is the table of every controller the manager can run,
// by the name --controllers uses.
func KnownControllers() map[string]InitFunc {
	return map[string]InitFunc{
		"replicaset": func(cc Context) (Runner, error) {
			return replicaset.NewController(cc.Client,
				informer.For[*api.ReplicaSet](cc.Informers), informer.For[*api.Pod](cc.Informers),
				cc.Recorder, replicaset.Options{MetricsProvider: cc.Metrics}), nil
		},
		"nodelifecycle": func(cc Context) (Runner, error) {
			return nodelifecycle.NewController(cc.Client,
				informer.For[*api.Node](cc.Informers), informer.For[*api.Lease](cc.Informers), informer.For[*api.Pod](cc.Informers),
				cc.Recorder, nodelifecycle.Options{MetricsProvider: cc.Metrics}), nil
		},
	}
}
