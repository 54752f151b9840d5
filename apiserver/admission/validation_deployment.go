package admission

import (
	"regexp"
	"strconv"

	"kubeloop/api"
)

// The Deployment rules: pkg/apis/apps/validation/validation.go
// (ValidateDeployment, ValidateDeploymentSpec, ValidateDeploymentStrategy,
// ValidateRollingUpdateDeployment, ValidateDeploymentUpdate,
// ValidateDeploymentStatus, ValidateDeploymentStatusUpdate), v1.37.2.

func validateDeployment(d *api.Deployment, namespaced bool) errorList {
	errs := validateObjectMeta(&d.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	return append(errs, validateDeploymentSpec(&d.Spec, newPath("spec"))...)
}

// validateDeploymentUpdate: as on create, and the selector is fixed for
// life in apps/v1 — a new one would orphan the pods of every old
// ReplicaSet.
func validateDeploymentUpdate(d, old *api.Deployment) errorList {
	errs := validateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, newPath("metadata"))
	errs = append(errs, validateDeploymentSpec(&d.Spec, newPath("spec"))...)
	if !semanticallyEqual(d.Spec.Selector, old.Spec.Selector) {
		errs = append(errs, invalid(newPath("spec", "selector"), d.Spec.Selector, fieldImmutableErrorMsg))
	}
	return errs
}

// validateDeploymentSpec: the selector and template rules are a
// ReplicaSet's (every ReplicaSet the controller makes inherits them), plus
// the rollout's own bounds.
func validateDeploymentSpec(spec *api.DeploymentSpec, p fieldPath) errorList {
	var errs errorList
	if spec.Replicas != nil {
		errs = append(errs, validateNonnegative(*spec.Replicas, p.Child("replicas"))...)
	}
	sp := p.Child("selector")
	if spec.Selector == nil {
		errs = append(errs, required(sp, ""))
	} else {
		errs = append(errs, validateLabelSelector(spec.Selector, sp)...)
		if len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
			errs = append(errs, invalid(sp, spec.Selector, "empty selector is invalid for deployment"))
		}
	}
	if selector, err := api.LabelSelectorAsSelector(spec.Selector); err != nil {
		errs = append(errs, invalid(sp, spec.Selector, "invalid label selector"))
	} else {
		errs = append(errs, validatePodTemplateForReplicaSet(&spec.Template, selector, p.Child("template"))...)
	}
	errs = append(errs, validateDeploymentStrategy(&spec.Strategy, p.Child("strategy"))...)
	errs = append(errs, validateNonnegative(spec.MinReadySeconds, p.Child("minReadySeconds"))...)
	if l := spec.RevisionHistoryLimit; l != nil {
		// Zero is allowed: keep no old ReplicaSets, and give up rollbacks.
		errs = append(errs, validateNonnegative(*l, p.Child("revisionHistoryLimit"))...)
	}
	if d := spec.ProgressDeadlineSeconds; d != nil {
		dp := p.Child("progressDeadlineSeconds")
		if *d <= 0 {
			errs = append(errs, invalid(dp, *d, "must be greater than zero"))
		}
		// A pod needs minReadySeconds to count as available, so a shorter
		// deadline would fail every rollout.
		if *d <= spec.MinReadySeconds {
			errs = append(errs, invalid(dp, *d, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

func supportedDeploymentStrategies() []api.DeploymentStrategyType {
	return []api.DeploymentStrategyType{api.RecreateDeploymentStrategyType, api.RollingUpdateDeploymentStrategyType}
}

func validateDeploymentStrategy(s *api.DeploymentStrategy, p fieldPath) errorList {
	switch s.Type {
	case api.RecreateDeploymentStrategyType:
		if s.RollingUpdate != nil {
			return errorList{forbidden(p.Child("rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'")}
		}
	case api.RollingUpdateDeploymentStrategyType:
		if s.RollingUpdate == nil {
			return errorList{required(p.Child("rollingUpdate"), "this should be defaulted and never be nil")}
		}
		return validateRollingUpdateDeployment(s.RollingUpdate, p.Child("rollingUpdate"))
	default:
		// Kubernetes reports the whole strategy at spec.strategy.
		return errorList{notSupported(p, s, supportedDeploymentStrategies())}
	}
	return nil
}

// validateRollingUpdateDeployment: both bounds are counts or percentages,
// and not both zero, or the controller could neither add a pod nor remove
// one and the rollout would never move.
func validateRollingUpdateDeployment(r *api.RollingUpdateDeployment, p fieldPath) errorList {
	var unavailable, surge api.IntOrString
	if r.MaxUnavailable != nil {
		unavailable = *r.MaxUnavailable
	}
	if r.MaxSurge != nil {
		surge = *r.MaxSurge
	}
	up, sp := p.Child("maxUnavailable"), p.Child("maxSurge")
	errs := validatePositiveIntOrPercent(unavailable, up)
	errs = append(errs, validatePositiveIntOrPercent(surge, sp)...)
	if intOrPercentValue(unavailable) == 0 && intOrPercentValue(surge) == 0 {
		errs = append(errs, invalid(up, unavailable, "may not be 0 when `maxSurge` is 0"))
	}
	if v, ok := percentValue(unavailable); ok && v > 100 {
		errs = append(errs, invalid(up, unavailable, "must not be greater than 100%"))
	}
	return errs
}

var percentRegexp = regexp.MustCompile(`^[0-9]+%$`)

// percentMsg is apimachinery's IsValidPercent message.
const percentMsg = "a valid percent string must be a numeric string followed by an ending '%' " +
	"(e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

func validatePositiveIntOrPercent(v api.IntOrString, p fieldPath) errorList {
	switch v.Type {
	case api.String:
		if !percentRegexp.MatchString(v.StrVal) {
			return errorList{invalid(p, v, percentMsg)}
		}
	case api.Int:
		return validateNonnegative(v.IntVal, p)
	default:
		return errorList{invalid(p, v, "must be an integer or percentage (e.g '5%%')")}
	}
	return nil
}

// percentValue is the number of a valid percentage ("25%" → 25).
func percentValue(v api.IntOrString) (int, bool) {
	if v.Type != api.String || !percentRegexp.MatchString(v.StrVal) {
		return 0, false
	}
	n, err := strconv.Atoi(v.StrVal[:len(v.StrVal)-1])
	return n, err == nil
}

// intOrPercentValue is the number in v, percent or not; a string that is
// no percentage counts as 0, as intstr's IntValue does.
func intOrPercentValue(v api.IntOrString) int {
	if n, ok := percentValue(v); ok {
		return n
	}
	if v.Type == api.String {
		n, _ := strconv.Atoi(v.StrVal)
		return n
	}
	return int(v.IntVal)
}

// validateDeploymentStatusUpdate: the counts are a consistent picture
// (nothing counted twice: an available pod is ready, a ready pod exists),
// and collisionCount only grows, because it salts the name of the next
// ReplicaSet and going back would reuse a name that collided.
func validateDeploymentStatusUpdate(st, old *api.DeploymentStatus) errorList {
	p := newPath("status")
	errs := validateNonnegative(st.ObservedGeneration, p.Child("observedGeneration"))
	for _, c := range []struct {
		name  string
		value int32
	}{
		{"replicas", st.Replicas}, {"updatedReplicas", st.UpdatedReplicas}, {"readyReplicas", st.ReadyReplicas},
		{"availableReplicas", st.AvailableReplicas}, {"unavailableReplicas", st.UnavailableReplicas},
	} {
		errs = append(errs, validateNonnegative(c.value, p.Child(c.name))...)
	}
	if st.TerminatingReplicas != nil {
		errs = append(errs, validateNonnegative(*st.TerminatingReplicas, p.Child("terminatingReplicas"))...)
	}
	if st.CollisionCount != nil {
		errs = append(errs, validateNonnegative(*st.CollisionCount, p.Child("collisionCount"))...)
	}
	const msg = "cannot be greater than status.replicas"
	if st.UpdatedReplicas > st.Replicas {
		errs = append(errs, invalid(p.Child("updatedReplicas"), st.UpdatedReplicas, msg))
	}
	if st.ReadyReplicas > st.Replicas {
		errs = append(errs, invalid(p.Child("readyReplicas"), st.ReadyReplicas, msg))
	}
	if st.AvailableReplicas > st.Replicas {
		errs = append(errs, invalid(p.Child("availableReplicas"), st.AvailableReplicas, msg))
	}
	if st.AvailableReplicas > st.ReadyReplicas {
		errs = append(errs, invalid(p.Child("availableReplicas"), st.AvailableReplicas, "cannot be greater than readyReplicas"))
	}
	if st.CollisionCount != nil && old.CollisionCount != nil && *st.CollisionCount < *old.CollisionCount {
		errs = append(errs, invalid(p.Child("collisionCount"), *st.CollisionCount, "cannot be decreased"))
	}
	return errs
}
