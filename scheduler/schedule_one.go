package scheduler

import (
	"context"
	"errors"
	"fmt"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/scheduler/framework"
)

// ErrNoNodesAvailable is the failure when the cluster has no node at all.
var ErrNoNodesAvailable = errors.New("no nodes available to schedule pods")

// PodReasonSchedulerError is the PodScheduled=False reason when scheduling
// failed for another cause than "no node fits" (a plugin or API error).
const PodReasonSchedulerError = "SchedulerError"

// scheduleResult is the outcome of one scheduling cycle.
type scheduleResult struct {
	host           string
	score          int64
	evaluatedNodes int
	feasibleNodes  int
}

// scheduleOne takes one pod from the queue and tries to place it: the
// scheduling cycle (snapshot, filter, score, select, assume) runs here,
// serially; the binding cycle runs in its own goroutine, so the next pod's
// cycle need not wait for the API. It reports false once the queue is
// closed. Kubernetes: pkg/scheduler/schedule_one.go, ScheduleOne.
func (s *Scheduler) scheduleOne(ctx context.Context) bool {
	pInfo, err := s.queue.Pop()
	if err != nil {
		return false
	}
	pod := pInfo.Pod
	if pod.DeletionTimestamp != nil || s.cache.IsAssumedPod(pod) {
		s.queue.Done(pInfo)
		return true
	}
	start := s.clock.Now()
	defer func() { s.attemptDuration.Observe(s.clock.Since(start).Seconds()) }()

	s.cache.UpdateSnapshot(s.snapshot)
	result, err := s.schedulePod(ctx, pInfo.PodInfo)
	if err != nil {
		s.handleSchedulingFailure(ctx, pInfo, err)
		return true
	}
	s.traceScheduled(pod, result)

	// Assume: from now on the cache counts the pod on its node, so the
	// next cycle sees the resources taken although the API does not yet.
	assumed := pod.DeepCopy()
	assumed.Spec.NodeName = result.host
	if err := s.cache.AssumePod(assumed); err != nil {
		s.handleSchedulingFailure(ctx, pInfo, fmt.Errorf("assume pod: %w", err))
		return true
	}
	s.inFlight.Add(1)
	go func() {
		defer s.inFlight.Done()
		s.bindingCycle(ctx, pInfo, assumed, result)
	}()
	return true
}

// schedulePod filters and scores the nodes of the snapshot and picks one.
// Kubernetes: schedule_one.go, schedulePod.
func (s *Scheduler) schedulePod(ctx context.Context, pod *framework.PodInfo) (scheduleResult, error) {
	nodes := s.snapshot.NodeInfos()
	if len(nodes) == 0 {
		return scheduleResult{}, ErrNoNodesAvailable
	}
	feasible, diagnosis, err := s.findNodesThatFitPod(ctx, pod, nodes)
	if err != nil {
		return scheduleResult{}, err
	}
	if len(feasible) == 0 {
		return scheduleResult{}, &framework.FitError{Pod: pod.Pod, NumAllNodes: len(nodes), Diagnosis: diagnosis}
	}
	evaluated := len(feasible) + len(diagnosis.NodeToStatus)
	// One node fits: scoring cannot change the answer.
	if len(feasible) == 1 {
		return scheduleResult{host: feasible[0].Node().Name, evaluatedNodes: evaluated, feasibleNodes: 1}, nil
	}
	scores, err := s.prioritizeNodes(ctx, pod, feasible)
	if err != nil {
		return scheduleResult{}, err
	}
	host, score := s.selectHost(scores)
	return scheduleResult{host: host, score: score, evaluatedNodes: evaluated, feasibleNodes: len(feasible)}, nil
}

// findNodesThatFitPod runs the filters on the nodes, starting where the
// previous cycle stopped, until it has found numFeasibleNodesToFind nodes
// that fit (feasible_nodes.go) or has checked them all. Kubernetes checks
// nodes in parallel; we check them one after another. A filter error
// aborts the attempt.
func (s *Scheduler) findNodesThatFitPod(ctx context.Context, pod *framework.PodInfo, nodes []*framework.NodeInfo) ([]*framework.NodeInfo, framework.Diagnosis, error) {
	diagnosis := framework.Diagnosis{NodeToStatus: map[string]*framework.Status{}, UnschedulablePlugins: map[string]bool{}}
	want := int(numFeasibleNodesToFind(s.percentageOfNodesToScore, int32(len(nodes))))
	feasible := make([]*framework.NodeInfo, 0, want)
	start := s.nextStartNodeIndex % len(nodes)
	checked := 0
	for ; checked < len(nodes) && len(feasible) < want; checked++ {
		n := nodes[(start+checked)%len(nodes)]
		st := s.fwk.RunFilterPlugins(ctx, pod, n)
		switch st.Code() {
		case framework.Success:
			feasible = append(feasible, n)
		case framework.Unschedulable:
			diagnosis.NodeToStatus[n.Node().Name] = st
			diagnosis.UnschedulablePlugins[st.Plugin()] = true
		default:
			return nil, diagnosis, fmt.Errorf("running filter plugin %q on node %q: %w", st.Plugin(), n.Node().Name, st.AsError())
		}
	}
	s.nextStartNodeIndex = (start + checked) % len(nodes)
	return feasible, diagnosis, nil
}

// prioritizeNodes runs the score plugins (normalized and weighted) and
// returns each feasible node's total. Kubernetes: prioritizeNodes.
func (s *Scheduler) prioritizeNodes(ctx context.Context, pod *framework.PodInfo, nodes []*framework.NodeInfo) (framework.NodeScoreList, error) {
	if !s.fwk.HasScorePlugins() {
		scores := make(framework.NodeScoreList, len(nodes))
		for i, n := range nodes {
			scores[i] = framework.NodeScore{Name: n.Node().Name, Score: 1}
		}
		return scores, nil
	}
	scores, st := s.fwk.RunScorePlugins(ctx, pod, nodes)
	if !st.IsSuccess() {
		return nil, st.AsError()
	}
	return scores, nil
}

// selectHost returns the best-scored node; ties are broken uniformly at
// random in one pass by reservoir sampling: the k-th node seen with the
// top score replaces the pick with probability 1/k. Kubernetes:
// selectHost.
func (s *Scheduler) selectHost(scores framework.NodeScoreList) (string, int64) {
	best := scores[0]
	ties := 1
	for _, ns := range scores[1:] {
		switch {
		case ns.Score > best.Score:
			best, ties = ns, 1
		case ns.Score == best.Score:
			ties++
			if s.rand.IntN(ties) == 0 {
				best = ns
			}
		}
	}
	return best.Name, best.Score
}

// bindingCycle writes the binding. On failure the assumption is undone and
// the pod goes back to the queue with backoff. Kubernetes: bindingCycle,
// bind, handleBindingCycleError.
func (s *Scheduler) bindingCycle(ctx context.Context, pInfo *QueuedPodInfo, assumed *api.Pod, result scheduleResult) {
	binding := &api.Binding{
		ObjectMeta: api.ObjectMeta{Namespace: assumed.Namespace, Name: assumed.Name, UID: assumed.UID},
		Target:     api.ObjectReference{Kind: "Node", Name: result.host},
	}
	s.bindSlots <- struct{}{}
	err := s.bind(ctx, binding)
	<-s.bindSlots
	if err != nil {
		if ferr := s.cache.ForgetPod(assumed); ferr != nil {
			s.log.Error("cache: forget pod", "pod", podKey(assumed), "err", ferr)
		}
		if ctx.Err() != nil {
			return // shutting down: the next scheduler will pick the pod up
		}
		// The resources the pod held in the cache are free again.
		s.queue.MoveAllToActiveOrBackoffQueue()
		s.handleSchedulingFailure(ctx, pInfo, fmt.Errorf("binding rejected: %w", err))
		return
	}
	s.traceBound(assumed, result)
	s.log.Info("bound", "pod", podKey(assumed), "node", result.host, "score", result.score,
		"feasible", result.feasibleNodes, "nodes", result.evaluatedNodes)
	s.recorder.Eventf(assumed, api.EventTypeNormal, "Scheduled", "Successfully assigned %s/%s to %s",
		assumed.Namespace, assumed.Name, result.host)
	s.queue.Done(pInfo)
}

// handleSchedulingFailure puts the pod back in the queue, reports a
// FailedScheduling event and records PodScheduled=False on the pod.
// Kubernetes: handleSchedulingFailure.
func (s *Scheduler) handleSchedulingFailure(ctx context.Context, pInfo *QueuedPodInfo, err error) {
	pod := pInfo.Pod
	reason := PodReasonSchedulerError
	unschedulable := false
	var fitErr *framework.FitError
	switch {
	case errors.As(err, &fitErr):
		reason, unschedulable = api.PodReasonUnschedulable, true
		pInfo.UnschedulablePlugins = fitErr.Diagnosis.UnschedulablePlugins
		s.log.Info("unschedulable", "pod", podKey(pod), "message", err.Error())
	case errors.Is(err, ErrNoNodesAvailable):
		reason, unschedulable = api.PodReasonUnschedulable, true
		s.log.Info("unschedulable", "pod", podKey(pod), "message", err.Error())
	default:
		s.log.Error("scheduling failed", "pod", podKey(pod), "err", err)
	}
	s.queue.AddUnschedulableIfNotPresent(pInfo, unschedulable, pInfo.cycle)

	msg := err.Error()
	s.recorder.Eventf(pod, api.EventTypeWarning, "FailedScheduling", "%s", msg)
	s.inFlight.Add(1)
	go func() {
		defer s.inFlight.Done()
		if err := s.updatePodScheduledCondition(ctx, pod, reason, msg); err != nil && ctx.Err() == nil {
			s.log.Warn("could not record PodScheduled=False", "pod", podKey(pod), "err", err)
		}
	}()
}

// updatePodScheduledCondition writes PodScheduled=False with reason and
// message through pods/status, only if they differ from what the pod has.
// A pod that is gone or was bound meanwhile is left alone.
func (s *Scheduler) updatePodScheduledCondition(ctx context.Context, pod *api.Pod, reason, msg string) error {
	pods := client.For[*api.Pod](s.client).Namespace(pod.Namespace)
	cur, err := s.podLister.Namespace(pod.Namespace).Get(pod.Name)
	first := true
	return client.RetryOnConflict(client.DefaultRetry, func() error {
		if !first {
			// The cache was stale; read the pod from the API.
			cur, err = pods.Get(ctx, pod.Name, client.GetOptions{})
		}
		first = false
		if api.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if cur.UID != pod.UID || assignedPod(cur) {
			return nil
		}
		updated := cur.DeepCopy()
		if !setPodScheduledFalse(updated, reason, msg, api.Now()) {
			return nil
		}
		_, err = pods.UpdateStatus(ctx, updated, client.UpdateOptions{})
		return err
	})
}

// setPodScheduledFalse sets the condition and reports whether anything
// changed. The transition time moves only when the status does, as
// Kubernetes' UpdatePodCondition does.
func setPodScheduledFalse(pod *api.Pod, reason, msg string, now api.Time) bool {
	want := api.PodCondition{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: reason, Message: msg, LastTransitionTime: now}
	for i := range pod.Status.Conditions {
		c := &pod.Status.Conditions[i]
		if c.Type != api.PodScheduled {
			continue
		}
		if c.Status == want.Status && c.Reason == want.Reason && c.Message == want.Message {
			return false
		}
		if c.Status == want.Status {
			want.LastTransitionTime = c.LastTransitionTime
		}
		want.LastProbeTime = c.LastProbeTime
		*c = want
		return true
	}
	pod.Status.Conditions = append(pod.Status.Conditions, want)
	return true
}
