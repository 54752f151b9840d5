package job

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
)

func TestJobRunsCompletionsAtParallelismAndReplacesFailedPods(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	flaky.failNext(ns, 2) // the first two pods fail; their replacements succeed
	podHist := watchHistory[*api.Pod](t, ns)
	jobHist := watchHistory[*api.Job](t, ns)
	createJob(t, newJob(ns, "work", "sleep 0.3", 5, 2))

	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "work"), api.JobComplete) }, waitFor, tick)
	j := getJob(t, ns, "work")
	s := j.Status
	require.Equal(t, int32(5), s.Succeeded)
	require.Equal(t, int32(2), s.Failed)
	require.Equal(t, int32(0), s.Active)
	require.Equal(t, ptr(int32(0)), s.Ready)
	require.Equal(t, ptr(int32(0)), s.Terminating)
	require.NotNil(t, s.UncountedTerminatedPods)
	require.Empty(t, s.UncountedTerminatedPods.Succeeded)
	require.Empty(t, s.UncountedTerminatedPods.Failed)
	require.NotNil(t, s.StartTime)
	require.NotNil(t, s.CompletionTime)
	require.False(t, s.CompletionTime.Before(s.StartTime.Time))

	// SuccessCriteriaMet first, then Complete, with the same reason.
	require.Equal(t, []api.JobConditionType{api.JobSuccessCriteriaMet, api.JobComplete}, conditionTypes(j))
	for _, c := range j.Status.Conditions {
		require.Equal(t, api.ConditionTrue, c.Status)
		require.Equal(t, api.JobReasonCompletionsReached, c.Reason)
		require.Equal(t, "Reached expected number of succeeded pods", c.Message)
	}
	// Kubernetes dates completionTime when it prepares Complete, and the
	// condition when it writes it: the same second, unless the write is slow.
	require.False(t, s.CompletionTime.After(jobCondition(j, api.JobComplete).LastTransitionTime.Time))
	require.False(t, s.CompletionTime.Before(jobCondition(j, api.JobSuccessCriteriaMet).LastTransitionTime.Time))
	require.True(t, jobHist.any(func(j *api.Job) bool {
		return isTrue(j, api.JobSuccessCriteriaMet) && !isTrue(j, api.JobComplete)
	}), "SuccessCriteriaMet is written on its own before Complete")

	require.LessOrEqual(t, maxActivePods(podHist), 2, "never more pods at once than parallelism")
	all := listPods(t, ns)
	require.Len(t, all, 7, "five successes and two failures, no extra pod")
	var succeeded, failed int
	for _, p := range all {
		require.NotContains(t, p.Finalizers, api.JobTrackingFinalizer, "every counted pod let go of its finalizer")
		require.True(t, strings.HasPrefix(p.Name, "work-"), p.Name)
		ref := api.GetControllerOf(&p.ObjectMeta)
		require.NotNil(t, ref)
		require.Equal(t, j.UID, ref.UID)
		require.Equal(t, "Job", ref.Kind)
		require.True(t, *ref.BlockOwnerDeletion)
		switch p.Status.Phase {
		case api.PodSucceeded:
			succeeded++
		case api.PodFailed:
			failed++
		}
	}
	require.Equal(t, 5, succeeded)
	require.Equal(t, 2, failed)
	require.True(t, podHist.any(func(p *api.Pod) bool {
		return p.Status.Phase == api.PodFailed && len(p.Finalizers) > 0
	}), "a failed pod is kept by its finalizer until counted")

	require.Eventually(t, func() bool {
		ev := events(t, ns, "work")
		return len(ev[SuccessfulCreateReason]) == 7 && len(ev["Completed"]) == 1
	}, waitFor, tick)
	ev := events(t, ns, "work")
	require.True(t, strings.HasPrefix(ev[SuccessfulCreateReason][0], "Normal Created pod: work-"), ev[SuccessfulCreateReason][0])
	require.Equal(t, []string{"Normal Job completed"}, ev["Completed"])
}

func TestJobFailsWhenBackoffLimitIsExceeded(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	jobHist := watchHistory[*api.Job](t, ns)
	j := newJob(ns, "doomed", "sleep 0.2; exit 3", 1, 1)
	j.Spec.BackoffLimit = ptr(int32(2))
	createJob(t, j)

	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "doomed"), api.JobFailed) }, waitFor, tick)
	j = getJob(t, ns, "doomed")
	require.Equal(t, int32(3), j.Status.Failed, "backoffLimit 2: the third failure is one too many")
	require.Zero(t, j.Status.Succeeded)
	require.Zero(t, j.Status.Active)
	require.Nil(t, j.Status.CompletionTime, "only a Job that succeeded has a completion time")
	require.Equal(t, []api.JobConditionType{api.JobFailureTarget, api.JobFailed}, conditionTypes(j))
	for _, c := range j.Status.Conditions {
		require.Equal(t, api.JobReasonBackoffLimitExceeded, c.Reason)
		require.Equal(t, "Job has reached the specified backoff limit", c.Message)
	}
	require.True(t, jobHist.any(func(j *api.Job) bool {
		return isTrue(j, api.JobFailureTarget) && !isTrue(j, api.JobFailed)
	}), "FailureTarget is written before Failed")
	require.False(t, jobHist.any(func(j *api.Job) bool { return isTrue(j, api.JobComplete) }))

	all := listPods(t, ns)
	require.Len(t, all, 3)
	for _, p := range all {
		require.Equal(t, api.PodFailed, p.Status.Phase)
		require.Equal(t, int32(3), p.Status.ContainerStatuses[0].State.Terminated.ExitCode)
		require.Empty(t, p.Finalizers)
	}
	require.Eventually(t, func() bool {
		return len(events(t, ns, "doomed")[api.JobReasonBackoffLimitExceeded]) == 1
	}, waitFor, tick)
	require.Equal(t, []string{"Warning Job has reached the specified backoff limit"}, events(t, ns, "doomed")[api.JobReasonBackoffLimitExceeded])
}

func TestIndexedJobGivesEachPodAnIndexAndCompletesEveryIndex(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	flaky.failNext(ns, 1) // one index fails once and is retried under the same index
	jobHist := watchHistory[*api.Job](t, ns)
	j := newJob(ns, "idx", "sleep 0.2", 4, 2)
	j.Spec.CompletionMode = ptr(api.IndexedCompletion)
	createJob(t, j)

	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "idx"), api.JobComplete) }, waitFor, tick)
	j = getJob(t, ns, "idx")
	require.Equal(t, "0-3", j.Status.CompletedIndexes)
	require.Equal(t, int32(4), j.Status.Succeeded)
	require.Equal(t, int32(1), j.Status.Failed)
	for _, v := range jobHist.snapshot() {
		ci := v.obj.Status.CompletedIndexes
		require.Contains(t, []string{"", "0", "1", "2", "3", "0,1", "0,2", "0,3", "1,2", "1,3", "2,3", "0-2", "0,1,3", "0,2,3", "1-3", "0-3"}, ci,
			"completedIndexes is always rendered as Kubernetes does")
	}

	perIndex := map[string]int{}
	for _, p := range listPods(t, ns) {
		ix := p.Annotations[api.JobCompletionIndexAnnotation]
		require.NotEmpty(t, ix)
		require.Equal(t, ix, p.Labels[api.JobCompletionIndexAnnotation])
		require.Equal(t, "idx-"+ix, p.Spec.Hostname)
		require.True(t, strings.HasPrefix(p.Name, "idx-"+ix+"-"), p.Name)
		env := p.Spec.Containers[0].Env
		require.Len(t, env, 1)
		require.Equal(t, "JOB_COMPLETION_INDEX", env[0].Name)
		if p.Status.Phase == api.PodSucceeded {
			perIndex[ix]++
		}
	}
	require.Equal(t, map[string]int{"0": 1, "1": 1, "2": 1, "3": 1}, perIndex, "every index succeeded exactly once")
}

func TestJobPastActiveDeadlineFailsAndStopsItsPods(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	j := newJob(ns, "slow", "sleep 600", 2, 2)
	j.Spec.ActiveDeadlineSeconds = ptr(int64(2))
	createJob(t, j)
	require.Eventually(t, func() bool { return getJob(t, ns, "slow").Status.Active == 2 }, waitFor, tick)

	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "slow"), api.JobFailed) }, waitFor, tick)
	j = getJob(t, ns, "slow")
	require.Equal(t, []api.JobConditionType{api.JobFailureTarget, api.JobFailed}, conditionTypes(j))
	c := jobCondition(j, api.JobFailed)
	require.Equal(t, api.JobReasonDeadlineExceeded, c.Reason)
	require.Equal(t, "Job was active longer than specified deadline", c.Message)
	require.GreaterOrEqual(t, c.LastTransitionTime.Sub(j.Status.StartTime.Time).Seconds(), 2.0)
	require.Zero(t, j.Status.Active)
	require.Equal(t, int32(2), j.Status.Failed, "the pods it stopped count as failed")
	require.Equal(t, ptr(int32(0)), j.Status.Terminating)
	require.Empty(t, listPods(t, ns), "the running pods were deleted")
	require.Eventually(t, func() bool { return len(events(t, ns, "slow")[api.JobReasonDeadlineExceeded]) == 1 }, waitFor, tick)
}

func TestDeletedPodsKeepTheirCount(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	podHist := watchHistory[*api.Pod](t, ns)
	// Delete every pod the moment it succeeds, before the controller (which
	// waits a second to batch pod events) has counted it.
	w, err := pods().Namespace(ns).Watch(clustertest.Context(t), client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	clustertest.Go(t, func(ctx context.Context) {
		defer w.Stop()
		deleted := map[string]bool{}
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.ResultChan():
				if !ok {
					return
				}
				p, isPod := ev.Object.(*api.Pod)
				if !isPod || ev.Type == api.Deleted || p.Status.Phase != api.PodSucceeded || deleted[p.UID] {
					continue
				}
				deleted[p.UID] = true
				zero := int64(0)
				_ = pods().Namespace(ns).Delete(ctx, p.Name, api.DeleteOptions{GracePeriodSeconds: &zero})
			}
		}
	})
	createJob(t, newJob(ns, "keep", "sleep 0.2", 3, 3))

	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "keep"), api.JobComplete) }, waitFor, tick)
	j := getJob(t, ns, "keep")
	require.Equal(t, int32(3), j.Status.Succeeded)
	require.Zero(t, j.Status.Failed)
	require.True(t, podHist.any(func(p *api.Pod) bool {
		return p.DeletionTimestamp != nil && p.Status.Phase == api.PodSucceeded && hasJobTrackingFinalizer(p)
	}), "a deleted pod waited, held by its finalizer, until it was counted")
	require.Eventually(t, func() bool { return len(listPods(t, ns)) == 0 }, waitFor, tick, "once counted, the deleted pods go")
	created := map[string]bool{}
	for _, ev := range podHist.snapshot() {
		created[ev.obj.UID] = true
	}
	require.Len(t, created, 3, "no pod was recreated: every deleted success was counted")
}

func TestSuspendedJobRunsNothingUntilResumed(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	j := newJob(ns, "later", "sleep 0.2", 2, 2)
	j.Spec.Suspend = ptr(true)
	createJob(t, j)
	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "later"), api.JobSuspended) }, waitFor, tick)
	j = getJob(t, ns, "later")
	c := jobCondition(j, api.JobSuspended)
	require.Equal(t, "JobSuspended", c.Reason)
	require.Equal(t, "Job suspended", c.Message)
	require.Nil(t, j.Status.StartTime, "a suspended Job has not started")
	require.Empty(t, listPods(t, ns))

	err := client.RetryOnConflict(client.DefaultRetry, func() error {
		cur := getJob(t, ns, "later")
		cur.Spec.Suspend = ptr(false)
		_, err := jobs().Namespace(ns).Update(clustertest.Context(t), cur, client.UpdateOptions{})
		return err
	})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "later"), api.JobComplete) }, waitFor, tick)
	j = getJob(t, ns, "later")
	c = jobCondition(j, api.JobSuspended)
	require.Equal(t, api.ConditionFalse, c.Status)
	require.Equal(t, "JobResumed", c.Reason)
	require.NotNil(t, j.Status.StartTime)
	require.Eventually(t, func() bool {
		ev := events(t, ns, "later")
		return len(ev["Suspended"]) == 1 && len(ev["Resumed"]) == 1
	}, waitFor, tick)
}

func TestOnFailureRestartsCountTowardsTheBackoffLimit(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	j := newJob(ns, "crashloop", "exit 1", 1, 1)
	j.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure
	j.Spec.BackoffLimit = ptr(int32(2))
	createJob(t, j)

	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "crashloop"), api.JobFailed) }, waitFor, tick)
	j = getJob(t, ns, "crashloop")
	require.Equal(t, api.JobReasonBackoffLimitExceeded, jobCondition(j, api.JobFailed).Reason)
	require.Equal(t, int32(1), j.Status.Failed, "one pod, restarted in place by the kubelet, stopped and counted as failed")
	require.Eventually(t, func() bool { return len(listPods(t, ns)) == 0 }, waitFor, tick, "the crash-looping pod was deleted")
}

func TestWorkQueueJobCompletesAfterTheFirstSuccess(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	j := newJob(ns, "queue", "sleep 0.3", 0, 3)
	j.Spec.Completions = nil // a work queue: any success means the work is done
	createJob(t, j)
	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "queue"), api.JobComplete) }, waitFor, tick)
	j = getJob(t, ns, "queue")
	require.Equal(t, int32(3), j.Status.Succeeded, "the pods running when the first succeeded were let finish")
	require.Len(t, listPods(t, ns), 3, "no pod was started after the first success")
}

func TestDeletedJobReleasesItsPods(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	createJob(t, newJob(ns, "gone", "sleep 600", 2, 2))
	require.Eventually(t, func() bool { return getJob(t, ns, "gone").Status.Active == 2 }, waitFor, tick)
	policy := api.DeletePropagationBackground
	require.NoError(t, jobs().Namespace(ns).Delete(clustertest.Context(t), "gone", api.DeleteOptions{PropagationPolicy: &policy}))
	// The garbage collector deletes the pods; they carry the tracking
	// finalizer, which only the Job controller removes once the Job is gone.
	require.Eventually(t, func() bool { return len(listPods(t, ns)) == 0 }, waitFor, tick)
}

func TestRestartedControllerCountsEveryPodOnce(t *testing.T) {
	ns := clustertest.Namespace(t, testCluster)
	podHist := watchHistory[*api.Pod](t, ns)
	j := newJob(ns, "restart", "sleep 0.3", 6, 2)
	j.Labels = map[string]string{isolatedLabel: "true"}
	j.Spec.Template.Labels = map[string]string{isolatedLabel: "true"}
	createJob(t, j)

	// Run a controller until two more pods have succeeded, stop it, and
	// run a new one, three times: whatever a stopped one had half done
	// (pods listed as uncounted, finalizers not yet removed, creations not
	// yet observed) the next must finish without counting or creating
	// anything twice.
	for round := 0; round < 3 && !isTrue(getJob(t, ns, "restart"), api.JobComplete); round++ {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = runControllerFor(ctx, testCluster, isolatedLabel) }()
		want := int32(2 * (round + 1))
		require.Eventually(t, func() bool {
			s := getJob(t, ns, "restart").Status
			counting := s.Succeeded
			if s.UncountedTerminatedPods != nil {
				counting += int32(len(s.UncountedTerminatedPods.Succeeded))
			}
			return counting >= want || isTrue(getJob(t, ns, "restart"), api.JobComplete)
		}, waitFor, tick)
		cancel()
		<-done
	}
	clustertest.Go(t, func(ctx context.Context) { _ = runControllerFor(ctx, testCluster, isolatedLabel) })
	require.Eventually(t, func() bool { return isTrue(getJob(t, ns, "restart"), api.JobComplete) }, waitFor, tick)
	j = getJob(t, ns, "restart")
	require.Equal(t, int32(6), j.Status.Succeeded)
	require.Zero(t, j.Status.Failed)
	created := map[string]bool{}
	for _, ev := range podHist.snapshot() {
		created[ev.obj.UID] = true
	}
	require.Len(t, created, 6, "no pod was created twice")
	require.LessOrEqual(t, maxActivePods(podHist), 2)
}
