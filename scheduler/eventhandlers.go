package scheduler

import (
	"reflect"

	"kubeloop/api"
	"kubeloop/informer"
	"kubeloop/informers"
)

// addAllEventHandlers splits the pod stream in two, as Kubernetes does:
// assigned pods feed the cache (they use node resources), pending pods this
// scheduler is responsible for feed the queue. Node events and deletions of
// assigned pods may make room, so they retry the unschedulable pods.
// Kubernetes: pkg/scheduler/eventhandlers.go, addAllEventHandlers.
//
// It returns the registrations' HasSynced: the scheduler must wait until its
// own handlers have seen every initial object, not merely until the
// informers have, or its first cycles would run on an empty node cache.
func (s *Scheduler) addAllEventHandlers(pods informers.TypedInformer[*api.Pod], nodes informers.TypedInformer[*api.Node]) ([]func() bool, error) {
	podReg, err := pods.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { s.addPod(obj) },
		UpdateFunc: s.updatePod,
		DeleteFunc: s.deletePod,
	})
	if err != nil {
		return nil, err
	}
	nodeReg, err := nodes.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any, _ bool) { s.addNode(obj) },
		UpdateFunc: s.updateNode,
		DeleteFunc: s.deleteNode,
	})
	if err != nil {
		return nil, err
	}
	return []func() bool{podReg.HasSynced, nodeReg.HasSynced}, nil
}

func assignedPod(pod *api.Pod) bool { return pod.Spec.NodeName != "" }

// terminated pods no longer hold node resources. Kubernetes keeps them in
// the cache until they are deleted; kubeloop's kubelet does not delete
// finished pods, so we stop counting them as soon as they finish.
func terminated(pod *api.Pod) bool {
	return pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed
}

// responsibleForPod: the pod names this scheduler, or none and we are the
// default one.
func (s *Scheduler) responsibleForPod(pod *api.Pod) bool {
	name := pod.Spec.SchedulerName
	if name == "" {
		name = api.DefaultSchedulerName
	}
	return name == s.schedulerName
}

// pendingForUs is the queue's filter.
func (s *Scheduler) pendingForUs(pod *api.Pod) bool {
	return !assignedPod(pod) && pod.DeletionTimestamp == nil && !terminated(pod) && s.responsibleForPod(pod)
}

func (s *Scheduler) addPod(obj any) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	switch {
	case assignedPod(pod) && !terminated(pod):
		if err := s.cache.AddPod(pod); err != nil {
			s.log.Error("cache: add pod", "pod", podKey(pod), "err", err)
		}
	case s.pendingForUs(pod):
		s.queue.Add(pod)
	}
}

func (s *Scheduler) updatePod(oldObj, newObj any) {
	oldPod, ok1 := oldObj.(*api.Pod)
	newPod, ok2 := newObj.(*api.Pod)
	if !ok1 || !ok2 {
		return
	}
	if !assignedPod(newPod) {
		if s.pendingForUs(newPod) {
			s.queue.Update(oldPod, newPod)
		} else {
			s.queue.Delete(newPod) // being deleted, or handed to another scheduler
		}
		return
	}
	if !assignedPod(oldPod) {
		// Bound: by us (the confirmation of an assumed pod) or by someone else.
		s.queue.Delete(newPod)
	}
	if terminated(newPod) {
		if err := s.cache.RemovePod(newPod); err != nil {
			s.log.Error("cache: remove finished pod", "pod", podKey(newPod), "err", err)
		}
		if !terminated(oldPod) {
			s.queue.MoveAllToActiveOrBackoffQueue()
		}
		return
	}
	if err := s.cache.UpdatePod(oldPod, newPod); err != nil {
		s.log.Error("cache: update pod", "pod", podKey(newPod), "err", err)
	}
}

func (s *Scheduler) deletePod(obj any) {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	if !assignedPod(pod) {
		s.queue.Delete(pod)
		return
	}
	if err := s.cache.RemovePod(pod); err != nil {
		s.log.Error("cache: remove pod", "pod", podKey(pod), "err", err)
	}
	// Its requests are free again.
	s.queue.MoveAllToActiveOrBackoffQueue()
}

func (s *Scheduler) addNode(obj any) {
	node, ok := obj.(*api.Node)
	if !ok {
		return
	}
	s.cache.AddNode(node)
	s.queue.MoveAllToActiveOrBackoffQueue()
}

func (s *Scheduler) updateNode(oldObj, newObj any) {
	oldNode, ok1 := oldObj.(*api.Node)
	newNode, ok2 := newObj.(*api.Node)
	if !ok1 || !ok2 {
		return
	}
	s.cache.UpdateNode(oldNode, newNode)
	if nodeSchedulingPropertiesChanged(oldNode, newNode) {
		s.queue.MoveAllToActiveOrBackoffQueue()
	}
}

func (s *Scheduler) deleteNode(obj any) {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if node, ok := obj.(*api.Node); ok {
		s.cache.RemoveNode(node)
	}
}

// nodeSchedulingPropertiesChanged ignores heartbeats: a kubelet rewrites
// its node status every few seconds, and retrying every unschedulable pod
// on each of those would make the queue spin. Only what a filter reads
// counts. Kubernetes: eventhandlers.go, nodeSchedulingPropertiesChange.
func nodeSchedulingPropertiesChanged(oldNode, newNode *api.Node) bool {
	if oldNode.Spec.Unschedulable != newNode.Spec.Unschedulable {
		return true
	}
	if !reflect.DeepEqual(oldNode.Status.Allocatable, newNode.Status.Allocatable) {
		return true
	}
	if !reflect.DeepEqual(oldNode.Labels, newNode.Labels) {
		return true
	}
	if !reflect.DeepEqual(oldNode.Spec.Taints, newNode.Spec.Taints) {
		return true
	}
	return conditionStatuses(oldNode) != conditionStatuses(newNode)
}

func conditionStatuses(n *api.Node) string {
	var out string
	for _, c := range n.Status.Conditions {
		out += string(c.Type) + "=" + string(c.Status) + ";"
	}
	return out
}
