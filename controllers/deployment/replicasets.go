package deployment

import (
	"log/slog"
	"math"
	"sort"

	"kubeloop/api"
)

// equalIgnoreHash compares two pod templates, ignoring the pod-template-hash
// label: the Deployment's template never has it, its ReplicaSets' always do,
// and a hash computed by another version of the code may differ.
// Kubernetes: util.EqualIgnoreHash.
func equalIgnoreHash(a, b *api.PodTemplateSpec) bool {
	a, b = a.DeepCopy(), b.DeepCopy()
	delete(a.Labels, DefaultDeploymentUniqueLabelKey)
	delete(b.Labels, DefaultDeploymentUniqueLabelKey)
	return api.SemanticEqual(a, b)
}

// findNewReplicaSet returns the ReplicaSet whose template is the
// Deployment's, or nil. If there are several (it happened after cluster
// upgrades), the oldest wins, deterministically.
// Kubernetes: util.FindNewReplicaSet.
func findNewReplicaSet(d *api.Deployment, rsList []*api.ReplicaSet) *api.ReplicaSet {
	sorted := append([]*api.ReplicaSet(nil), rsList...)
	sort.Sort(replicaSetsByCreationTimestamp(sorted))
	for _, rs := range sorted {
		if equalIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			return rs
		}
	}
	return nil
}

// findOldReplicaSets returns the Deployment's other ReplicaSets: those that
// still want pods, and all of them.
// Kubernetes: util.FindOldReplicaSets.
func findOldReplicaSets(d *api.Deployment, rsList []*api.ReplicaSet) (withPods, all []*api.ReplicaSet) {
	newRS := findNewReplicaSet(d, rsList)
	for _, rs := range rsList {
		if newRS != nil && rs.UID == newRS.UID {
			continue
		}
		all = append(all, rs)
		if rsReplicas(rs) != 0 {
			withPods = append(withPods, rs)
		}
	}
	return withPods, all
}

// filterActiveReplicaSets keeps the ReplicaSets that want pods.
// Kubernetes: controller.FilterActiveReplicaSets.
func filterActiveReplicaSets(rss []*api.ReplicaSet) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range rss {
		if rs != nil && rsReplicas(rs) > 0 {
			out = append(out, rs)
		}
	}
	return out
}

// The sums of one field over a list of ReplicaSets (nil entries skipped:
// the new ReplicaSet may not exist yet).
// Kubernetes: util.GetReplicaCountForReplicaSets and its siblings.

func getReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rsReplicas(rs)
		}
	}
	return n
}

func getActualReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.Replicas
		}
	}
	return n
}

func getReadyReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.ReadyReplicas
		}
	}
	return n
}

func getAvailableReplicaCountForReplicaSets(rss []*api.ReplicaSet) int32 {
	var n int32
	for _, rs := range rss {
		if rs != nil {
			n += rs.Status.AvailableReplicas
		}
	}
	return n
}

// findActiveOrLatest returns the only ReplicaSet that wants pods, or the
// newest if none does; nil if several do (they are scaled proportionally).
// Kubernetes: util.FindActiveOrLatest.
func findActiveOrLatest(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) *api.ReplicaSet {
	if newRS == nil && len(oldRSs) == 0 {
		return nil
	}
	sorted := append([]*api.ReplicaSet(nil), oldRSs...)
	sort.Sort(sort.Reverse(replicaSetsByCreationTimestamp(sorted)))
	active := filterActiveReplicaSets(append(sorted, newRS))
	switch len(active) {
	case 0:
		if newRS != nil {
			return newRS
		}
		return sorted[0]
	case 1:
		return active[0]
	}
	return nil
}

// isSaturated: the new ReplicaSet has, and means to have, all of the
// Deployment's replicas, and all of them are available.
// Kubernetes: util.IsSaturated.
func isSaturated(log *slog.Logger, d *api.Deployment, rs *api.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, ok := intAnnotation(log, rs, DesiredReplicasAnnotation)
	if !ok {
		return false
	}
	want := replicasOf(d)
	return rsReplicas(rs) == want && desired == want && rs.Status.AvailableReplicas == want
}

// getProportion is how many of the replicas still to add (or remove, when
// negative) go to rs, in proportion to its share of the Deployment's size
// when it was last scaled (its max-replicas annotation), never more than
// what is left. Kubernetes: util.GetProportion.
func getProportion(rs *api.ReplicaSet, d *api.Deployment, toAdd, added int32) int32 {
	if rs == nil || rsReplicas(rs) == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	fraction := getReplicaSetFraction(rs, d)
	allowed := toAdd - added
	if toAdd > 0 {
		return min(fraction, allowed)
	}
	return max(fraction, allowed)
}

// getReplicaSetFraction is the change of rs's size that keeps its share of
// the Deployment: rs.replicas × (replicas+maxSurge) / max-replicas, rounded,
// minus its current size. Kubernetes: util.getReplicaSetFraction.
func getReplicaSetFraction(rs *api.ReplicaSet, d *api.Deployment) int32 {
	if replicasOf(d) == 0 {
		return -rsReplicas(rs)
	}
	deploymentReplicas := replicasOf(d) + maxSurge(d)
	annotated, ok := intAnnotation(slog.Default(), rs, MaxReplicasAnnotation)
	if !ok || annotated == 0 {
		// Without the annotation the proportion is only an estimate; the
		// min/max in getProportion still keeps it within bounds.
		annotated = d.Status.Replicas
	}
	if annotated == 0 {
		return 0
	}
	size := float64(rsReplicas(rs)) * float64(deploymentReplicas) / float64(annotated)
	return int32(math.Round(size)) - rsReplicas(rs)
}

// replicaSetsByCreationTimestamp sorts oldest first, then by name.
// Kubernetes: controller.ReplicaSetsByCreationTimestamp.
type replicaSetsByCreationTimestamp []*api.ReplicaSet

func (o replicaSetsByCreationTimestamp) Len() int      { return len(o) }
func (o replicaSetsByCreationTimestamp) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o replicaSetsByCreationTimestamp) Less(i, j int) bool {
	a, b := o[i].CreationTimestamp.Time, o[j].CreationTimestamp.Time
	if a.Equal(b) {
		return o[i].Name < o[j].Name
	}
	return a.Before(b)
}

// replicaSetsBySizeOlder sorts larger first; of equal size, older first
// (scale-down order). Kubernetes: controller.ReplicaSetsBySizeOlder.
type replicaSetsBySizeOlder []*api.ReplicaSet

func (o replicaSetsBySizeOlder) Len() int      { return len(o) }
func (o replicaSetsBySizeOlder) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o replicaSetsBySizeOlder) Less(i, j int) bool {
	if rsReplicas(o[i]) == rsReplicas(o[j]) {
		return replicaSetsByCreationTimestamp(o).Less(i, j)
	}
	return rsReplicas(o[i]) > rsReplicas(o[j])
}

// replicaSetsBySizeNewer sorts larger first; of equal size, newer first
// (scale-up order). Kubernetes: controller.ReplicaSetsBySizeNewer.
type replicaSetsBySizeNewer []*api.ReplicaSet

func (o replicaSetsBySizeNewer) Len() int      { return len(o) }
func (o replicaSetsBySizeNewer) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o replicaSetsBySizeNewer) Less(i, j int) bool {
	if rsReplicas(o[i]) == rsReplicas(o[j]) {
		return replicaSetsByCreationTimestamp(o).Less(j, i)
	}
	return rsReplicas(o[i]) > rsReplicas(o[j])
}

// replicaSetsByRevision sorts by revision, lowest first; ties by age.
// Kubernetes: util.ReplicaSetsByRevision.
type replicaSetsByRevision []*api.ReplicaSet

func (o replicaSetsByRevision) Len() int      { return len(o) }
func (o replicaSetsByRevision) Swap(i, j int) { o[i], o[j] = o[j], o[i] }
func (o replicaSetsByRevision) Less(i, j int) bool {
	ri, _ := revision(&o[i].ObjectMeta)
	rj, _ := revision(&o[j].ObjectMeta)
	if ri == rj {
		return replicaSetsByCreationTimestamp(o).Less(i, j)
	}
	return ri < rj
}
