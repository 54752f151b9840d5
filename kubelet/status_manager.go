package kubelet

import (
	"context"
	"fmt"
	"strconv"

	"kubeloop/api"
	"kubeloop/client"
)

// setPodStatus writes status through pods/status, but only when it differs
// from what the API (or this worker's last write) already says: a steady
// node writes nothing. Kubernetes: pkg/kubelet/status/status_manager.go,
// SetPodStatus and syncPod, which patches instead of replacing.
//
// The write starts from whichever copy of the pod is newer: the informer's,
// or the one the worker's previous write got back. A worker syncs again
// right after its first write (the Pending one), usually before its
// informer has delivered that write; starting from the informer's copy
// would then cost a 409 Conflict, a GET and a second PUT per pod.
// Kubernetes' status manager avoids the conflict differently: it patches
// with only a UID precondition.
func (kl *Kubelet) setPodStatus(ctx context.Context, pod *api.Pod, w *podWorker, status api.PodStatus) error {
	// Once the informer has delivered the last write (every write's own
	// event wakes the worker), its copy is as new: the written one is let
	// go, or every worker would hold a second pod until its pod changed.
	if w.written != nil && newerPod(pod, w.written) == pod {
		w.written = nil
	}
	if statusEqual(pod.Status, status) {
		// The informer's copy already says it: remember that copy (it is
		// read-only, and equal as compared here) instead of a second one,
		// which every worker would hold as long as its pod runs.
		w.lastStatus = &pod.Status
		return nil
	}
	if w.lastStatus != nil && statusEqual(*w.lastStatus, status) {
		return nil
	}
	pods := kl.pods.Namespace(pod.Namespace)
	cur := newerPod(pod, w.written)
	err := client.RetryOnConflict(client.DefaultRetry, func() error {
		next := cur.DeepCopy()
		next.Status = status
		written, err := pods.UpdateStatus(ctx, next, client.UpdateOptions{})
		if err == nil {
			// Kept only to send the next status from; its managedFields
			// are never sent back (a status write keeps the server's), so
			// they are dropped, as from the informer's copies.
			written.ManagedFields = nil
			w.written = written
			kl.traceStatusWritten(written)
		}
		if !api.IsConflict(err) {
			return err
		}
		latest, gerr := pods.Get(ctx, pod.Name, client.GetOptions{})
		if gerr != nil {
			return gerr
		}
		if latest.UID != pod.UID {
			return api.NewNotFound(api.GroupResource{Resource: "pods"}, pod.Name)
		}
		if statusEqual(latest.Status, status) {
			return nil
		}
		cur = latest
		return err
	})
	if api.IsNotFound(err) {
		return nil // deleted meanwhile: nothing to report on
	}
	if err != nil {
		return fmt.Errorf("update status: %w", err)
	}
	w.lastStatus = &status
	kl.log.Info("pod status", "pod", podKey(pod), "phase", status.Phase, "ready", isPodReady(status))
	return nil
}

// newerPod is the copy with the higher resourceVersion. Clients are not
// supposed to order resourceVersions, but both copies come from the same
// apiserver, whose versions are etcd revisions; a missing or unparsable one
// loses.
func newerPod(informer, written *api.Pod) *api.Pod {
	if written == nil || written.UID != informer.UID {
		return informer
	}
	a, errA := strconv.ParseUint(informer.ResourceVersion, 10, 64)
	b, errB := strconv.ParseUint(written.ResourceVersion, 10, 64)
	if errB == nil && (errA != nil || b > a) {
		return written
	}
	return informer
}

// statusEqual compares statuses as they are on the wire, where nil and
// empty are the same and times have whole seconds.
func statusEqual(a, b api.PodStatus) bool { return api.SemanticEqual(a, b) }

func isPodReady(s api.PodStatus) bool {
	for _, c := range s.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}
