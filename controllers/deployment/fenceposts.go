package deployment

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"kubeloop/api"
)

// replicasOf is spec.replicas; the apiserver defaults it to 1, so nil only
// happens for objects built by hand.
func replicasOf(d *api.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// rsReplicas is a ReplicaSet's spec.replicas (nil as 1, like replicasOf).
func rsReplicas(rs *api.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

func isRollingUpdate(d *api.Deployment) bool {
	return d.Spec.Strategy.Type == RollingUpdateDeploymentStrategyType
}

// hasProgressDeadline: progressDeadlineSeconds is set and not MaxInt32,
// which Kubernetes reads as "never time out".
func hasProgressDeadline(d *api.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != math.MaxInt32
}

// hasRevisionHistoryLimit: revisionHistoryLimit is set and not MaxInt32
// ("keep every old ReplicaSet").
func hasRevisionHistoryLimit(d *api.Deployment) bool {
	return d.Spec.RevisionHistoryLimit != nil && *d.Spec.RevisionHistoryLimit != math.MaxInt32
}

// getScaledValueFromIntOrPercent resolves "3" or "25%" against total; a
// percentage is rounded up or down as asked.
// Kubernetes: apimachinery/pkg/util/intstr, GetScaledValueFromIntOrPercent
// (which computes in float64; integers give the same results here).
func getScaledValueFromIntOrPercent(v *api.IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	if v.Type == api.Int {
		return int(v.IntVal), nil
	}
	s, isPercent := strings.CutSuffix(v.StrVal, "%")
	if !isPercent {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid type: string is not a percentage")
	}
	pct, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: invalid value %q: %v", v.StrVal, err)
	}
	scaled := pct * total
	if roundUp {
		return ceilDiv(scaled, 100), nil
	}
	return floorDiv(scaled, 100), nil
}

func ceilDiv(a, b int) int { return -floorDiv(-a, b) }
func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// resolveFenceposts turns maxSurge and maxUnavailable into numbers of pods
// for desired replicas: surge rounds up, unavailability rounds down, and
// if both come out 0 (validation forbids writing 0 and 0, but "1%" of 10
// is 0) unavailability becomes 1, on the theory that surge pods might not
// fit in the quota.
// Kubernetes: util.ResolveFenceposts.
func resolveFenceposts(maxSurge, maxUnavailable *api.IntOrString, desired int32) (int32, int32, error) {
	zero := api.FromInt32(0)
	if maxSurge == nil {
		maxSurge = &zero
	}
	if maxUnavailable == nil {
		maxUnavailable = &zero
	}
	surge, err := getScaledValueFromIntOrPercent(maxSurge, int(desired), true)
	if err != nil {
		return 0, 0, err
	}
	unavailable, err := getScaledValueFromIntOrPercent(maxUnavailable, int(desired), false)
	if err != nil {
		return 0, 0, err
	}
	if surge == 0 && unavailable == 0 {
		unavailable = 1
	}
	return int32(surge), int32(unavailable), nil
}

// rollingParams returns the strategy's maxSurge and maxUnavailable fields
// (nil when the strategy has no rollingUpdate block).
func rollingParams(d *api.Deployment) (surge, unavailable *api.IntOrString) {
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		return ru.MaxSurge, ru.MaxUnavailable
	}
	return nil, nil
}

// maxSurge is how many pods above spec.replicas a rolling update may run;
// 0 for Recreate. Kubernetes: util.MaxSurge.
func maxSurge(d *api.Deployment) int32 {
	if !isRollingUpdate(d) {
		return 0
	}
	s, u := rollingParams(d)
	// Validation rejects values that do not resolve.
	surge, _, _ := resolveFenceposts(s, u, replicasOf(d))
	return surge
}

// maxUnavailable is how many of spec.replicas may be unavailable during a
// rolling update, never more than spec.replicas; 0 for Recreate.
// Kubernetes: util.MaxUnavailable.
func maxUnavailable(d *api.Deployment) int32 {
	if !isRollingUpdate(d) || replicasOf(d) == 0 {
		return 0
	}
	s, u := rollingParams(d)
	_, unavailable, _ := resolveFenceposts(s, u, replicasOf(d))
	return min(unavailable, replicasOf(d))
}

// minAvailable is the floor of available pods a rolling update keeps.
func minAvailable(d *api.Deployment) int32 {
	if !isRollingUpdate(d) {
		return 0
	}
	return replicasOf(d) - maxUnavailable(d)
}
