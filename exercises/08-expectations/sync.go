package expectations

import (
	"context"
	"fmt"
	"sort"

	"kubeloop/api"
	"kubeloop/client"
)

// syncReplicaSet is the reconcile: read the ReplicaSet and its pods from
// the cache and, if the expectations allow, create or delete the
// difference. Kubernetes: pkg/controller/replicaset/replica_set.go,
// syncReplicaSet.
func (rsc *Controller) syncReplicaSet(ctx context.Context, key string) error {
	ns, name, err := api.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	rs, err := rsc.rsLister.Namespace(ns).Get(name)
	if api.IsNotFound(err) {
		rsc.expectations.DeleteExpectations(key)
		return nil
	}
	if err != nil {
		return err
	}
	// Ask the expectations before listing the pods: an observation that
	// lands in between then costs one skipped sync (its handler enqueues
	// the key again), never an action on a cache older than the answer.
	if !rsc.expectations.SatisfiedExpectations(key) {
		add, del, _ := rsc.expectations.GetExpectations(key)
		rsc.log.Debug("waiting for our own writes to be observed", "key", key, "creations", add, "deletions", del)
		return nil
	}
	return rsc.manageReplicas(ctx, key, rs, rsc.activePodsOf(rs))
}

// activePodsOf lists the cached pods rs created that are not being deleted.
func (rsc *Controller) activePodsOf(rs *api.ReplicaSet) []*api.Pod {
	var out []*api.Pod
	for _, p := range rsc.podLister.Namespace(rs.Namespace).List(nil) {
		if p.DeletionTimestamp != nil {
			continue
		}
		for _, ref := range p.OwnerReferences {
			if ref.UID == rs.UID && ref.Controller != nil && *ref.Controller {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// manageReplicas sets the expectations, then creates or deletes the
// difference. A write that fails will never be observed, so it is
// observed here by hand. Kubernetes: replica_set.go, manageReplicas.
func (rsc *Controller) manageReplicas(ctx context.Context, key string, rs *api.ReplicaSet, pods []*api.Pod) error {
	want := 1
	if rs.Spec.Replicas != nil {
		want = int(*rs.Spec.Replicas)
	}
	podClient := client.For[*api.Pod](rsc.client).Namespace(rs.Namespace)
	switch diff := len(pods) - want; {
	case diff < 0:
		n := -diff
		// Expect before creating: the watch may report a new pod before
		// Create even returns.
		rsc.expectations.ExpectCreations(key, n)
		rsc.log.Info("too few replicas", "key", key, "want", want, "have", len(pods), "creating", n)
		for i := range n {
			if _, err := podClient.Create(ctx, podFromTemplate(rs), client.CreateOptions{}); err != nil {
				for range n - i {
					rsc.expectations.CreationObserved(key)
				}
				return fmt.Errorf("create pod for %s: %w", key, err)
			}
		}
	case diff > 0:
		// The newest go first (Kubernetes ranks them by much more).
		sort.Slice(pods, func(i, j int) bool { return pods[i].Name > pods[j].Name })
		victims := pods[:diff]
		var podKeys []string
		for _, p := range victims {
			podKeys = append(podKeys, p.Namespace+"/"+p.Name)
		}
		rsc.expectations.ExpectDeletions(key, podKeys)
		rsc.log.Info("too many replicas", "key", key, "want", want, "have", len(pods), "deleting", diff)
		for _, p := range victims {
			if err := podClient.Delete(ctx, p.Name, api.DeleteOptions{}); err != nil {
				rsc.expectations.DeletionObserved(key, p.Namespace+"/"+p.Name)
				if !api.IsNotFound(err) {
					return fmt.Errorf("delete pod %s/%s: %w", p.Namespace, p.Name, err)
				}
			}
		}
	}
	return nil
}

// podFromTemplate stamps a pod out of the ReplicaSet's template, with a
// controller reference back to it. Kubernetes: controller_utils.go,
// GetPodFromTemplate.
func podFromTemplate(rs *api.ReplicaSet) *api.Pod {
	t := rs.Spec.Template.DeepCopy()
	yes := true
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{
			GenerateName: rs.Name + "-",
			Namespace:    rs.Namespace,
			Labels:       t.Labels,
			OwnerReferences: []api.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID,
				Controller: &yes, BlockOwnerDeletion: &yes,
			}},
		},
		Spec: t.Spec,
	}
}
