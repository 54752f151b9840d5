package job

import (
	"context"
	"maps"

	"kubeloop/api"
	"kubeloop/apiserver/registry/generic"
	"kubeloop/apiserver/registry/rest"
)

// Strategy is the Job strategy: the default one (status cleared on create
// and kept on update, generation counted on spec changes) plus the
// generated selector. Kubernetes: pkg/registry/batch/job/strategy.go
// (jobStrategy).
type Strategy struct {
	generic.DefaultStrategy
}

// NewStrategy is the strategy of the jobs resource info describes.
func NewStrategy(info *api.ResourceInfo) Strategy {
	return Strategy{generic.DefaultStrategy{Info: info}}
}

// DefaultGarbageCollectionPolicy: a batch/v1 Job deleted without a
// propagation policy orphans its pods, the behaviour batch/v1 had before
// garbage collection and keeps for old clients. kubectl asks for
// Background, and the TTL controller for Foreground. Kubernetes:
// jobStrategy.DefaultGarbageCollectionPolicy.
func (Strategy) DefaultGarbageCollectionPolicy(context.Context) rest.GarbageCollectionPolicy {
	return rest.OrphanDependents
}

// PrepareForCreate clears status, starts generation at 1 and, unless the
// Job asks for spec.manualSelector, generates its selector and template
// labels. Kubernetes: jobStrategy.PrepareForCreate.
//
// A Job without labels of its own then gets its template's labels — the
// generated ones included. Kubernetes gets the same result differently: its
// SetDefaults_Job copies them when the object is decoded, and the object it
// answers and serves is decoded again from etcd after the selector was
// generated.
func (s Strategy) PrepareForCreate(ctx context.Context, obj api.Object) {
	s.DefaultStrategy.PrepareForCreate(ctx, obj)
	j := obj.(*api.Job)
	if j.Spec.ManualSelector == nil || !*j.Spec.ManualSelector {
		generateSelector(j)
	}
	if len(j.Labels) == 0 && len(j.Spec.Template.Labels) > 0 {
		j.Labels = maps.Clone(j.Spec.Template.Labels)
	}
}

// generateSelector labels the template with the Job's name and uid, under
// both the batch.kubernetes.io/ keys and the legacy unprefixed ones, and
// selects on the uid: unique, so no two Jobs can ever share pods. Labels the
// client already set are left alone; if they conflict, validation says so.
// Kubernetes: generateSelector.
func generateSelector(j *api.Job) {
	t := &j.Spec.Template
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	for key, value := range map[string]string{
		api.LegacyJobNameLabel: j.Name, api.JobNameLabel: j.Name,
		api.LegacyControllerUidLabel: j.UID, api.ControllerUidLabel: j.UID,
	} {
		if _, set := t.Labels[key]; !set {
			t.Labels[key] = value
		}
	}
	if j.Spec.Selector == nil {
		j.Spec.Selector = &api.LabelSelector{}
	}
	if j.Spec.Selector.MatchLabels == nil {
		j.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, set := j.Spec.Selector.MatchLabels[api.ControllerUidLabel]; !set {
		j.Spec.Selector.MatchLabels[api.ControllerUidLabel] = j.UID
	}
}
