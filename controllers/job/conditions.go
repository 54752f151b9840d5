package job

import (
	"time"

	"kubeloop/api"
)

// Messages of the conditions the controller writes (Kubernetes:
// job_controller.go, newFailureCondition and newSuccessCondition callers).
const (
	messageCompletionsReached   = "Reached expected number of succeeded pods"
	messageBackoffLimitExceeded = "Job has reached the specified backoff limit"
	messageDeadlineExceeded     = "Job was active longer than specified deadline"
)

// Reasons and messages of the Suspended condition.
const (
	reasonJobSuspended = "JobSuspended"
	reasonJobResumed   = "JobResumed"
	messageSuspended   = "Job suspended"
	messageResumed     = "Job resumed"
)

// IsJobFinished reports whether the Job has its terminal condition,
// Complete or Failed, with status True. The TTL-after-finished controller
// uses it too. Kubernetes: pkg/controller/job/util/utils.go, IsJobFinished.
func IsJobFinished(j *api.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == api.JobComplete || c.Type == api.JobFailed) && c.Status == api.ConditionTrue {
			return true
		}
	}
	return false
}

// findConditionByType returns the condition of type t in list, or nil.
func findConditionByType(list []api.JobCondition, t api.JobConditionType) *api.JobCondition {
	for i := range list {
		if list[i].Type == t {
			return &list[i]
		}
	}
	return nil
}

func newCondition(t api.JobConditionType, status api.ConditionStatus, reason, message string, now time.Time) *api.JobCondition {
	return &api.JobCondition{
		Type: t, Status: status, Reason: reason, Message: message,
		LastProbeTime: api.NewTime(now), LastTransitionTime: api.NewTime(now),
	}
}

// ensureJobConditionStatus sets the condition of type t to status, reason
// and message, replacing it (with fresh times) when any of them differ. A
// condition that does not exist is not added as False: going from nothing
// to False says nothing. It reports whether list changed.
func ensureJobConditionStatus(list []api.JobCondition, t api.JobConditionType, status api.ConditionStatus, reason, message string, now time.Time) ([]api.JobCondition, bool) {
	if c := findConditionByType(list, t); c != nil {
		if c.Status != status || c.Reason != reason || c.Message != message {
			*c = *newCondition(t, status, reason, message, now)
			return list, true
		}
		return list, false
	}
	if status != api.ConditionFalse {
		return append(list, *newCondition(t, status, reason, message, now)), true
	}
	return list, false
}

// successCriteriaMet returns the Job's SuccessCriteriaMet=True condition:
// the Job is known to succeed and waits only for its pods to be counted.
func successCriteriaMet(j *api.Job) *api.JobCondition {
	if c := findConditionByType(j.Status.Conditions, api.JobSuccessCriteriaMet); c != nil && c.Status == api.ConditionTrue {
		return c
	}
	return nil
}

func isSuccessCriteriaMet(c *api.JobCondition) bool {
	return c != nil && c.Type == api.JobSuccessCriteriaMet
}

// newFailureCondition is the interim FailureTarget condition: since
// Kubernetes 1.31 the terminal Failed condition is written only once every
// pod of the Job has stopped and been counted (JobManagedBy and
// JobPodReplacementPolicy, both on by default in 1.37).
func (jm *Controller) newFailureCondition(reason, message string) *api.JobCondition {
	return newCondition(api.JobFailureTarget, api.ConditionTrue, reason, message, jm.clock.Now())
}

// newSuccessCondition is the interim SuccessCriteriaMet condition; Complete
// follows with the same reason and message once the pods are counted.
func (jm *Controller) newSuccessCondition() *api.JobCondition {
	return newCondition(api.JobSuccessCriteriaMet, api.ConditionTrue, api.JobReasonCompletionsReached, messageCompletionsReached, jm.clock.Now())
}
