package admission

import (
	"fmt"

	"kubeloop/api"
)

// The Job rules: pkg/apis/batch/validation/validation.go (ValidateJob,
// validateGeneratedSelector, ValidateJobSpec, validateJobSpec,
// ValidateJobSpecUpdate, validatePodTemplateUpdate, validateCompletions),
// v1.37.2, with the options pkg/registry/batch/job/strategy.go
// (validationOptionsForJob) passes.

// Limits of pkg/apis/batch/validation.
const (
	maxParallelismForIndexedJob = 100_000
	maxFailedIndexesLimit       = 100_000
	maxPodFailurePolicyRules    = 20
)

// validateJob checks a Job. requirePrefixedLabels is true on create and on
// updates of Jobs that already have the batch.kubernetes.io/ labels (older
// Jobs may have only the legacy ones).
func validateJob(j *api.Job, namespaced, requirePrefixedLabels bool) errorList {
	errs := validateObjectMeta(&j.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	errs = append(errs, validateGeneratedSelector(j, requirePrefixedLabels)...)
	errs = append(errs, validateJobSpec(&j.Spec, newPath("spec"))...)
	if c := j.Spec.Completions; isIndexed(&j.Spec) && c != nil && *c > 0 {
		// Pods of an Indexed Job are named and host-named NAME-INDEX, so the
		// largest index must still make a DNS label.
		host := fmt.Sprintf("%s-%d", j.Name, *c-1)
		if len(api.IsDNS1123Label(host)) > 0 {
			errs = append(errs, invalid(newPath("metadata", "name"), j.Name,
				"will not able to create pod with invalid DNS label: "+host))
		}
	}
	return errs
}

func isIndexed(spec *api.JobSpec) bool {
	return spec.CompletionMode != nil && *spec.CompletionMode == api.IndexedCompletion
}

// validateGeneratedSelector: unless the Job asked for manualSelector, its
// selector and template labels are the server's (Strategy.PrepareForCreate
// in registry/batch/job) and must still be: a client that set conflicting
// labels, or a selector on another uid, is refused here.
func validateGeneratedSelector(j *api.Job, requirePrefixedLabels bool) errorList {
	if j.Spec.ManualSelector != nil && *j.Spec.ManualSelector || j.Spec.Selector == nil {
		return nil
	}
	var errs errorList
	if j.UID == "" {
		errs = append(errs, required(newPath("metadata", "uid"), ""))
	}
	tp := newPath("spec", "template", "metadata")
	errs = append(errs, validateHasLabel(&j.Spec.Template.ObjectMeta, tp, api.LegacyControllerUidLabel, j.UID)...)
	errs = append(errs, validateHasLabel(&j.Spec.Template.ObjectMeta, tp, api.LegacyJobNameLabel, j.Name)...)
	expected := map[string]string{api.LegacyControllerUidLabel: j.UID, api.LegacyJobNameLabel: j.Name}
	if requirePrefixedLabels {
		errs = append(errs, validateHasLabel(&j.Spec.Template.ObjectMeta, tp, api.ControllerUidLabel, j.UID)...)
		errs = append(errs, validateHasLabel(&j.Spec.Template.ObjectMeta, tp, api.JobNameLabel, j.Name)...)
		expected[api.ControllerUidLabel] = j.UID
		expected[api.JobNameLabel] = j.Name
	}
	if sel, err := api.LabelSelectorAsSelector(j.Spec.Selector); err == nil && !sel.Matches(expected) {
		errs = append(errs, invalid(newPath("spec", "selector"), j.Spec.Selector, "`selector` not auto-generated"))
	}
	return errs
}

// validateHasLabel is ValidateHasLabel (pkg/apis/core/validation).
func validateHasLabel(m *api.ObjectMeta, p fieldPath, key, want string) errorList {
	got, ok := m.Labels[key]
	if !ok {
		return errorList{required(p.Child("labels").Key(key), want)}
	}
	if got != want {
		return errorList{invalid(p.Child("labels").Key(key), m.Labels, fmt.Sprintf("must be '%s'", want))}
	}
	return nil
}

func validateJobSpec(spec *api.JobSpec, p fieldPath) errorList {
	var errs errorList
	for _, f := range []struct {
		name  string
		value *int32
	}{
		{"parallelism", spec.Parallelism}, {"completions", spec.Completions},
		{"backoffLimit", spec.BackoffLimit}, {"ttlSecondsAfterFinished", spec.TTLSecondsAfterFinished},
	} {
		if f.value != nil {
			errs = append(errs, validateNonnegative(*f.value, p.Child(f.name))...)
		}
	}
	if d := spec.ActiveDeadlineSeconds; d != nil {
		errs = append(errs, validateNonnegative(*d, p.Child("activeDeadlineSeconds"))...)
	}
	if b := spec.BackoffLimitPerIndex; b != nil {
		errs = append(errs, validateNonnegative(*b, p.Child("backoffLimitPerIndex"))...)
		if !isIndexed(spec) {
			errs = append(errs, forbidden(p.Child("backoffLimitPerIndex"), "requires indexed completion mode"))
		}
	}
	if m := spec.MaxFailedIndexes; m != nil {
		mp := p.Child("maxFailedIndexes")
		errs = append(errs, validateNonnegative(*m, mp)...)
		if spec.BackoffLimitPerIndex == nil {
			errs = append(errs, required(p.Child("backoffLimitPerIndex"), "when maxFailedIndexes is specified"))
		}
		if spec.Completions != nil && *m > *spec.Completions {
			errs = append(errs, invalid(mp, *m, "must be less than or equal to completions"))
		}
		if *m > maxFailedIndexesLimit {
			errs = append(errs, invalid(mp, *m, fmt.Sprintf("must be less than or equal to %d", maxFailedIndexesLimit)))
		}
	}
	if mode := spec.CompletionMode; mode != nil {
		supported := []api.CompletionMode{api.NonIndexedCompletion, api.IndexedCompletion}
		if *mode != api.NonIndexedCompletion && *mode != api.IndexedCompletion {
			errs = append(errs, notSupported(p.Child("completionMode"), *mode, supported))
		}
		if *mode == api.IndexedCompletion {
			if spec.Completions == nil {
				errs = append(errs, required(p.Child("completions"), "when completion mode is Indexed"))
			}
			if spec.Parallelism != nil && *spec.Parallelism > maxParallelismForIndexedJob {
				errs = append(errs, invalid(p.Child("parallelism"), *spec.Parallelism,
					fmt.Sprintf("must be less than or equal to %d when completion mode is Indexed", maxParallelismForIndexedJob)))
			}
		}
	}
	if spec.PodFailurePolicy != nil {
		errs = append(errs, validatePodFailurePolicy(spec, p.Child("podFailurePolicy"))...)
	}
	errs = append(errs, validatePodReplacementPolicy(spec, p.Child("podReplacementPolicy"))...)
	errs = append(errs, validatePodTemplateSpec(&spec.Template, p.Child("template"))...)

	// The template's restartPolicy is defaulted to Always like any pod's, so
	// Always is treated as "not chosen": a Job's pods must end.
	rp := p.Child("template", "spec", "restartPolicy")
	jobPolicies := []api.RestartPolicy{api.RestartPolicyOnFailure, api.RestartPolicyNever}
	switch policy := spec.Template.Spec.RestartPolicy; {
	case policy == "" || policy == api.RestartPolicyAlways:
		errs = append(errs, required(rp, `valid values: "OnFailure", "Never"`))
	case policy != api.RestartPolicyOnFailure && policy != api.RestartPolicyNever:
		errs = append(errs, notSupported(rp, policy, jobPolicies))
	case spec.PodFailurePolicy != nil && policy != api.RestartPolicyNever:
		errs = append(errs, invalid(rp, policy, `only "Never" is supported when podFailurePolicy is specified`))
	}

	sp := p.Child("selector")
	if spec.Selector == nil {
		errs = append(errs, required(sp, ""))
	} else {
		errs = append(errs, validateLabelSelector(spec.Selector, sp)...)
	}
	if sel, err := api.LabelSelectorAsSelector(spec.Selector); err == nil && spec.Selector != nil && !sel.Matches(spec.Template.Labels) {
		errs = append(errs, invalid(p.Child("template", "metadata", "labels"), spec.Template.Labels, "`selector` does not match template `labels`"))
	}
	return errs
}

// validatePodTemplateSpec is ValidatePodTemplateSpec: a template's
// metadata and a valid pod spec.
func validatePodTemplateSpec(t *api.PodTemplateSpec, p fieldPath) errorList {
	errs := validateLabels(t.Labels, p.Child("metadata", "labels"))
	errs = append(errs, validateAnnotations(t.Annotations, p.Child("metadata", "annotations"))...)
	return append(errs, validatePodSpec(&t.Spec, p.Child("spec"))...)
}

func supportedPodFailurePolicyActions() []api.PodFailurePolicyAction {
	return []api.PodFailurePolicyAction{
		api.PodFailurePolicyActionCount, api.PodFailurePolicyActionFailIndex,
		api.PodFailurePolicyActionFailJob, api.PodFailurePolicyActionIgnore,
	}
}

// validatePodFailurePolicy checks each rule's action and that it matches
// on exactly one of exit codes and pod conditions.
func validatePodFailurePolicy(spec *api.JobSpec, p fieldPath) errorList {
	var errs errorList
	rules := p.Child("rules")
	if n := len(spec.PodFailurePolicy.Rules); n > maxPodFailurePolicyRules {
		errs = append(errs, &fieldError{Type: api.CauseTypeFieldValueTooMany, Field: rules, BadValue: n,
			Detail: fmt.Sprintf("must have at most %d items", maxPodFailurePolicyRules)})
	}
	for i, r := range spec.PodFailurePolicy.Rules {
		rp := rules.Index(i)
		ap := rp.Child("action")
		switch {
		case r.Action == "":
			errs = append(errs, required(ap, `valid values: ["Count" "FailIndex" "FailJob" "Ignore"]`))
		case r.Action == api.PodFailurePolicyActionFailIndex:
			if spec.BackoffLimitPerIndex == nil {
				errs = append(errs, invalid(ap, r.Action, "requires the backoffLimitPerIndex to be set"))
			}
		case !containsAction(r.Action):
			errs = append(errs, notSupported(ap, r.Action, supportedPodFailurePolicyActions()))
		}
		if e := r.OnExitCodes; e != nil {
			ep := rp.Child("onExitCodes")
			if e.Operator != api.PodFailurePolicyOnExitCodesOpIn && e.Operator != api.PodFailurePolicyOnExitCodesOpNotIn {
				errs = append(errs, notSupported(ep.Child("operator"), e.Operator,
					[]api.PodFailurePolicyOnExitCodesOperator{api.PodFailurePolicyOnExitCodesOpIn, api.PodFailurePolicyOnExitCodesOpNotIn}))
			}
			if len(e.Values) == 0 {
				errs = append(errs, required(ep.Child("values"), "at least one value is required"))
			}
		}
		switch {
		case r.OnExitCodes != nil && len(r.OnPodConditions) > 0:
			errs = append(errs, &fieldError{Type: api.CauseTypeFieldValueInvalid, Field: rp, BadValue: omitted{},
				Detail: "specifying both OnExitCodes and OnPodConditions is not supported"})
		case r.OnExitCodes == nil && len(r.OnPodConditions) == 0:
			errs = append(errs, &fieldError{Type: api.CauseTypeFieldValueInvalid, Field: rp, BadValue: omitted{},
				Detail: "specifying one of OnExitCodes and OnPodConditions is required"})
		}
	}
	return errs
}

func containsAction(a api.PodFailurePolicyAction) bool {
	for _, s := range supportedPodFailurePolicyActions() {
		if a == s {
			return true
		}
	}
	return false
}

// validatePodReplacementPolicy: a failure policy needs pods to have fully
// failed before they are judged, so it allows only Failed.
func validatePodReplacementPolicy(spec *api.JobSpec, p fieldPath) errorList {
	rp := spec.PodReplacementPolicy
	if rp == nil {
		return nil
	}
	if spec.PodFailurePolicy != nil {
		if *rp != api.Failed {
			return errorList{notSupported(p, *rp, []api.PodReplacementPolicy{api.Failed})}
		}
		return nil
	}
	if *rp != api.Failed && *rp != api.TerminatingOrFailed {
		return errorList{notSupported(p, *rp, []api.PodReplacementPolicy{api.Failed, api.TerminatingOrFailed})}
	}
	return nil
}

// validateJobUpdate: what the controller has acted on cannot change. The
// selector and template are fixed (the running pods were made from them),
// except that a suspended Job that never started may still be steered to
// other nodes; completions may change only for an Indexed Job, together
// with parallelism (an elastic Indexed Job).
func validateJobUpdate(j, old *api.Job) errorList {
	_, hadName := old.Spec.Template.Labels[api.JobNameLabel]
	_, hadUID := old.Spec.Template.Labels[api.ControllerUidLabel]
	errs := validateObjectMetaUpdate(&j.ObjectMeta, &old.ObjectMeta, newPath("metadata"))
	for _, e := range validateJob(j, true, hadName && hadUID) {
		if !isUnder(e.Field, "metadata") || e.Field == "metadata.uid" {
			errs = append(errs, e)
		}
	}
	spec, oldSpec, p := &j.Spec, &old.Spec, newPath("spec")
	errs = append(errs, validateCompletionsUpdate(spec, oldSpec, p)...)
	immutable := func(name string, v, oldV any) {
		if !semanticallyEqual(v, oldV) {
			errs = append(errs, invalid(p.Child(name), v, fieldImmutableErrorMsg))
		}
	}
	immutable("selector", spec.Selector, oldSpec.Selector)
	oldTemplate := oldSpec.Template
	if old.Spec.Suspend != nil && *old.Spec.Suspend && old.Status.StartTime == nil {
		oldTemplate = schedulingDirectivesFrom(&spec.Template, &oldSpec.Template)
	}
	immutable("template", spec.Template, oldTemplate)
	immutable("completionMode", spec.CompletionMode, oldSpec.CompletionMode)
	immutable("podFailurePolicy", spec.PodFailurePolicy, oldSpec.PodFailurePolicy)
	immutable("backoffLimitPerIndex", spec.BackoffLimitPerIndex, oldSpec.BackoffLimitPerIndex)
	immutable("managedBy", spec.ManagedBy, oldSpec.ManagedBy)
	immutable("successPolicy", spec.SuccessPolicy, oldSpec.SuccessPolicy)
	return errs
}

// schedulingDirectivesFrom is old with the parts of t a suspended, never
// started Job may still change: node affinity, node selector, tolerations,
// scheduling gates, and the template's labels and annotations.
func schedulingDirectivesFrom(t, old *api.PodTemplateSpec) api.PodTemplateSpec {
	out := *old.DeepCopy()
	switch {
	case t.Spec.Affinity == nil && out.Spec.Affinity != nil:
		out.Spec.Affinity.NodeAffinity = nil
		if semanticallyEqual(out.Spec.Affinity, &api.Affinity{}) {
			out.Spec.Affinity = nil
		}
	case t.Spec.Affinity != nil && out.Spec.Affinity == nil:
		out.Spec.Affinity = &api.Affinity{NodeAffinity: t.Spec.Affinity.NodeAffinity}
	case t.Spec.Affinity != nil:
		out.Spec.Affinity.NodeAffinity = t.Spec.Affinity.NodeAffinity
	}
	out.Spec.NodeSelector = t.Spec.NodeSelector
	out.Spec.Tolerations = t.Spec.Tolerations
	out.Spec.SchedulingGates = t.Spec.SchedulingGates
	out.Labels = t.Labels
	out.Annotations = t.Annotations
	return out
}

func validateCompletionsUpdate(spec, old *api.JobSpec, p fieldPath) errorList {
	cp := p.Child("completions")
	if semanticallyEqual(spec.Completions, old.Completions) {
		return nil
	}
	if !isIndexed(spec) {
		return errorList{invalid(cp, spec.Completions, fieldImmutableErrorMsg)}
	}
	// An Indexed Job without completions is already refused by validateJobSpec.
	if spec.Completions != nil && (spec.Parallelism == nil || *spec.Completions != *spec.Parallelism) {
		return errorList{invalid(cp, spec.Completions, "can only be modified in tandem with spec.parallelism")}
	}
	return nil
}

// omitted is a bad value Kubernetes leaves out of the message
// (field.OmitValueType).
type omitted struct{}

// validateJobStatus is ValidateJobStatus: the counters are counts. (The
// transition rules Kubernetes adds for Jobs that another controller manages
// — a finished Job stays finished, completionTime only with Complete, ... —
// are not checked.)
func validateJobStatus(st *api.JobStatus) errorList {
	p := newPath("status")
	var errs errorList
	for _, c := range []struct {
		name  string
		value *int32
	}{
		{"active", &st.Active}, {"succeeded", &st.Succeeded}, {"failed", &st.Failed},
		{"ready", st.Ready}, {"terminating", st.Terminating},
	} {
		if c.value != nil {
			errs = append(errs, validateNonnegative(*c.value, p.Child(c.name))...)
		}
	}
	return errs
}
