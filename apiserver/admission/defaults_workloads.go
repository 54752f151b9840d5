package admission

import (
	"math"

	"kubeloop/api"
)

// The defaults of the workload kinds: pkg/apis/apps/v1/defaults.go
// (SetDefaults_Deployment), pkg/apis/batch/v1/defaults.go (SetDefaults_Job)
// and pkg/apis/core/v1/defaults.go (SetDefaults_Secret), v1.37.2. Their pod
// templates get the pod spec defaults, as every template does.

// Deployment defaults (SetDefaults_Deployment).
const (
	defaultRevisionHistoryLimit    int32 = 10
	defaultProgressDeadlineSeconds int32 = 600
	defaultMaxUnavailableAndSurge        = "25%"
)

func setDefaultsDeployment(d *api.Deployment) {
	spec := &d.Spec
	if spec.Replicas == nil {
		spec.Replicas = ptrTo(int32(1))
	}
	st := &spec.Strategy
	if st.Type == "" {
		st.Type = api.RollingUpdateDeploymentStrategyType
	}
	// Only a rolling update has bounds; a Recreate deployment that states
	// them is refused by validation rather than silently cleaned up.
	if st.Type == api.RollingUpdateDeploymentStrategyType {
		if st.RollingUpdate == nil {
			st.RollingUpdate = &api.RollingUpdateDeployment{}
		}
		if st.RollingUpdate.MaxUnavailable == nil {
			v := api.FromString(defaultMaxUnavailableAndSurge)
			st.RollingUpdate.MaxUnavailable = &v
		}
		if st.RollingUpdate.MaxSurge == nil {
			v := api.FromString(defaultMaxUnavailableAndSurge)
			st.RollingUpdate.MaxSurge = &v
		}
	}
	if spec.RevisionHistoryLimit == nil {
		spec.RevisionHistoryLimit = ptrTo(defaultRevisionHistoryLimit)
	}
	if spec.ProgressDeadlineSeconds == nil {
		spec.ProgressDeadlineSeconds = ptrTo(defaultProgressDeadlineSeconds)
	}
	setDefaultsPodSpec(&spec.Template.Spec)
}

// defaultBackoffLimit is how many pod failures a Job tolerates by default.
const defaultBackoffLimit int32 = 6

// setDefaultsJob is SetDefaults_Job. A Job that states neither completions
// nor parallelism is one pod that must succeed once; one that states only
// parallelism is a work queue (completions stays unset). With a budget per
// index the Job-wide backoff limit is effectively off. The Job's own labels
// come from the template when it has none. The template's restartPolicy
// is defaulted to Always like any pod's, which Job validation then refuses:
// a Job must say OnFailure or Never.
func setDefaultsJob(j *api.Job) {
	spec := &j.Spec
	if spec.Completions == nil && spec.Parallelism == nil {
		spec.Completions = ptrTo(int32(1))
	}
	if spec.Parallelism == nil {
		spec.Parallelism = ptrTo(int32(1))
	}
	if spec.BackoffLimit == nil {
		if spec.BackoffLimitPerIndex != nil {
			spec.BackoffLimit = ptrTo(int32(math.MaxInt32))
		} else {
			spec.BackoffLimit = ptrTo(defaultBackoffLimit)
		}
	}
	if len(j.Labels) == 0 && j.Spec.Template.Labels != nil {
		j.Labels = copyLabels(j.Spec.Template.Labels)
	}
	if spec.CompletionMode == nil {
		spec.CompletionMode = ptrTo(api.NonIndexedCompletion)
	}
	if spec.Suspend == nil {
		spec.Suspend = ptrTo(false)
	}
	if p := spec.PodFailurePolicy; p != nil {
		for i := range p.Rules {
			for k := range p.Rules[i].OnPodConditions {
				if c := &p.Rules[i].OnPodConditions[k]; c.Status == "" {
					c.Status = api.ConditionTrue
				}
			}
		}
	}
	if spec.PodReplacementPolicy == nil {
		// A failure policy judges pods by how they ended, so a replacement
		// must wait until the old pod really has.
		if spec.PodFailurePolicy != nil {
			spec.PodReplacementPolicy = ptrTo(api.Failed)
		} else {
			spec.PodReplacementPolicy = ptrTo(api.TerminatingOrFailed)
		}
	}
	if spec.ManualSelector == nil {
		spec.ManualSelector = ptrTo(false)
	}
	setDefaultsPodSpec(&spec.Template.Spec)
}

// setDefaultsSecret merges stringData into data and defaults the type.
//
// In Kubernetes the merge is not a default but the conversion from v1 to
// the internal type, which has no stringData (Convert_v1_Secret_To_core_Secret):
// a stringData value replaces the data value of the same key, and stringData
// is never stored or returned. Decoding is where both happen there, and
// defaulting is our decoding step, so both happen here.
func setDefaultsSecret(s *api.Secret) {
	if len(s.StringData) > 0 {
		if s.Data == nil {
			s.Data = make(map[string][]byte, len(s.StringData))
		}
		for k, v := range s.StringData {
			s.Data[k] = []byte(v)
		}
	}
	s.StringData = nil
	if s.Type == "" {
		s.Type = api.SecretTypeOpaque
	}
}

func ptrTo[T any](v T) *T { return &v }

func copyLabels(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
