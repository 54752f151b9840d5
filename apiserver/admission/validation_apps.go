package admission

import (
	"kubeloop/api"
)

// validateReplicaSet is ValidateReplicaSet (pkg/apis/apps/validation).
func validateReplicaSet(rs *api.ReplicaSet, namespaced bool) errorList {
	errs := validateObjectMeta(&rs.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	return append(errs, validateReplicaSetSpec(&rs.Spec, newPath("spec"))...)
}

// validateReplicaSetUpdate adds apps/v1's rule that the selector is fixed
// for life: changing it would orphan the pods the old one selected.
func validateReplicaSetUpdate(rs, old *api.ReplicaSet) errorList {
	errs := validateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, newPath("metadata"))
	errs = append(errs, validateReplicaSetSpec(&rs.Spec, newPath("spec"))...)
	if !semanticallyEqual(rs.Spec.Selector, old.Spec.Selector) {
		errs = append(errs, invalid(newPath("spec", "selector"), api.FormatLabelSelector(rs.Spec.Selector), fieldImmutableErrorMsg))
	}
	return errs
}

// validateReplicaSetSpec: a ReplicaSet must select its own pods, or the
// controller would create pods it cannot see and create more forever.
// apps/v1 therefore requires a non-empty selector that matches the template
// labels (extensions/v1beta1 defaulted it from them instead).
func validateReplicaSetSpec(spec *api.ReplicaSetSpec, p fieldPath) errorList {
	var errs errorList
	if spec.Replicas != nil {
		errs = append(errs, validateNonnegative(*spec.Replicas, p.Child("replicas"))...)
	}
	errs = append(errs, validateNonnegative(spec.MinReadySeconds, p.Child("minReadySeconds"))...)
	sp := p.Child("selector")
	if spec.Selector == nil {
		errs = append(errs, required(sp, ""))
	} else {
		errs = append(errs, validateLabelSelector(spec.Selector, sp)...)
		if len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
			// Kubernetes' message names deployments even for ReplicaSets.
			errs = append(errs, invalid(sp, api.FormatLabelSelector(spec.Selector), "empty selector is invalid for deployment"))
		}
	}
	selector, err := api.LabelSelectorAsSelector(spec.Selector)
	if err != nil {
		errs = append(errs, invalid(sp, api.FormatLabelSelector(spec.Selector), "invalid label selector"))
		selector = nil
	}
	return append(errs, validatePodTemplateForReplicaSet(&spec.Template, selector, p.Child("template"))...)
}

// validatePodTemplateForReplicaSet is ValidatePodTemplateSpecForReplicaSet:
// the template must be a valid pod that the selector matches, and a pod a
// controller keeps alive must restart (Always) and must not expire.
func validatePodTemplateForReplicaSet(t *api.PodTemplateSpec, selector api.Selector, p fieldPath) errorList {
	var errs errorList
	if selector != nil && !selector.Empty() && !selector.Matches(t.Labels) {
		errs = append(errs, invalid(p.Child("metadata", "labels"), t.Labels, "`selector` does not match template `labels`"))
	}
	errs = append(errs, validateLabels(t.Labels, p.Child("metadata", "labels"))...)
	errs = append(errs, validateAnnotations(t.Annotations, p.Child("metadata", "annotations"))...)
	errs = append(errs, validatePodSpec(&t.Spec, p.Child("spec"))...)
	if t.Spec.RestartPolicy != "" && t.Spec.RestartPolicy != api.RestartPolicyAlways {
		errs = append(errs, notSupported(p.Child("spec", "restartPolicy"), t.Spec.RestartPolicy,
			[]api.RestartPolicy{api.RestartPolicyAlways}))
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, forbidden(p.Child("spec", "activeDeadlineSeconds"), "activeDeadlineSeconds in ReplicaSet is not Supported"))
	}
	return errs
}

// validateLabelSelector is ValidateLabelSelector (meta/v1 validation).
func validateLabelSelector(s *api.LabelSelector, p fieldPath) errorList {
	errs := validateLabels(s.MatchLabels, p.Child("matchLabels"))
	for i, e := range s.MatchExpressions {
		ep := p.Child("matchExpressions").Index(i)
		switch e.Operator {
		case api.LabelSelectorOpIn, api.LabelSelectorOpNotIn:
			if len(e.Values) == 0 {
				errs = append(errs, required(ep.Child("values"), "must be specified when `operator` is 'In' or 'NotIn'"))
			}
		case api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist:
			if len(e.Values) > 0 {
				errs = append(errs, forbidden(ep.Child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
			}
		default:
			errs = append(errs, invalid(ep.Child("operator"), e.Operator, "not a valid selector operator"))
		}
		for _, msg := range api.IsQualifiedName(e.Key) {
			errs = append(errs, invalid(ep.Child("key"), e.Key, msg))
		}
		for _, v := range e.Values {
			for _, msg := range api.IsValidLabelValue(v) {
				errs = append(errs, invalid(ep.Child("values"), v, msg))
			}
		}
	}
	return errs
}

// validateScale is ValidateScale: the scale subresource is how kubectl scale
// and autoscalers write replicas, so it needs the same floor as the spec.
func validateScale(s *api.Scale, namespaced bool) errorList {
	errs := validateObjectMeta(&s.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	return append(errs, validateScaleSpec(s)...)
}

func validateScaleSpec(s *api.Scale) errorList {
	return validateNonnegative(s.Spec.Replicas, newPath("spec", "replicas"))
}
