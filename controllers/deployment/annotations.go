package deployment

import (
	"log/slog"
	"strconv"
	"strings"

	"kubeloop/api"
)

// The annotations the controller keeps on ReplicaSets (and, for revision,
// on the Deployment). Kubernetes: pkg/controller/deployment/util/deployment_util.go.
const (
	// RevisionAnnotation numbers the rollouts: each new (or re-used, on
	// rollback) ReplicaSet gets the highest revision so far plus one, and
	// the Deployment carries its current ReplicaSet's.
	RevisionAnnotation = "deployment.kubernetes.io/revision"
	// RevisionHistoryAnnotation lists, comma-separated, the earlier
	// revisions a ReplicaSet served (it gains one on every rollback to it).
	RevisionHistoryAnnotation = "deployment.kubernetes.io/revision-history"
	// DesiredReplicasAnnotation is the Deployment's spec.replicas when the
	// ReplicaSet was last scaled: a Deployment whose replicas differ from
	// it is being scaled, not rolled out.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation is spec.replicas + maxSurge at that time, the
	// denominator of proportional scaling.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"

	// lastAppliedConfigAnnotation is kubectl apply's; it describes the
	// Deployment, not the ReplicaSet, so it is not copied.
	lastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"
	// deprecatedRollbackTo is the extensions/v1beta1 rollback request.
	deprecatedRollbackTo = "deprecated.deployment.rollback.to"

	// maxRevHistoryLengthInChars caps revision-history (about 100 entries).
	maxRevHistoryLengthInChars = 2000
)

// skipCopyAnnotation names the Deployment annotations that are not copied
// to its ReplicaSets: the controller's own, and kubectl apply's.
func skipCopyAnnotation(key string) bool {
	switch key {
	case lastAppliedConfigAnnotation, RevisionAnnotation, RevisionHistoryAnnotation,
		DesiredReplicasAnnotation, MaxReplicasAnnotation, deprecatedRollbackTo:
		return true
	}
	return false
}

// revision parses an object's revision annotation; absent is 0.
// Kubernetes: util.Revision.
func revision(m *api.ObjectMeta) (int64, error) {
	v, ok := m.Annotations[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	return strconv.ParseInt(v, 10, 64)
}

// maxRevision is the highest revision among rss; unparsable ones are
// skipped. Kubernetes: util.MaxRevision.
func maxRevision(log *slog.Logger, rss []*api.ReplicaSet) int64 {
	var top int64
	for _, rs := range rss {
		v, err := revision(&rs.ObjectMeta)
		if err != nil {
			log.Debug("skipping a replica set with an unparsable revision", "replicaSet", rs.Namespace+"/"+rs.Name, "err", err)
			continue
		}
		top = max(top, v)
	}
	return top
}

// copyDeploymentAnnotationsToReplicaSet copies the Deployment's annotations
// that a ReplicaSet should carry (a change-cause, for instance, which
// kubectl rollout history prints); it reports whether rs changed.
func copyDeploymentAnnotationsToReplicaSet(d *api.Deployment, rs *api.ReplicaSet) bool {
	changed := false
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	for k, v := range d.Annotations {
		// The Deployment's revision is copied from its ReplicaSet, never
		// the other way: the ReplicaSet's is the reliable one.
		if skipCopyAnnotation(k) || rs.Annotations[k] == v {
			continue
		}
		rs.Annotations[k] = v
		changed = true
	}
	return changed
}

// setNewReplicaSetAnnotations brings the new ReplicaSet's annotations up to
// date: the Deployment's copyable ones, the revision (raised to newRevision
// if lower: a rollback re-uses an old ReplicaSet, which then takes the next
// revision and remembers its previous one in revision-history) and, for a
// ReplicaSet about to be created, the replicas annotations. It reports
// whether anything changed.
// Kubernetes: util.SetNewReplicaSetAnnotations.
func setNewReplicaSetAnnotations(log *slog.Logger, d *api.Deployment, rs *api.ReplicaSet, newRevision string, exists bool, revHistoryLimitInChars int) bool {
	changed := copyDeploymentAnnotationsToReplicaSet(d, rs)
	oldRevision, had := rs.Annotations[RevisionAnnotation]
	oldRev, err := strconv.ParseInt(oldRevision, 10, 64)
	if err != nil {
		if oldRevision != "" {
			log.Warn("replica set revision is not a number", "replicaSet", rs.Namespace+"/"+rs.Name, "revision", oldRevision)
			return false
		}
		oldRev = 0
	}
	newRev, err := strconv.ParseInt(newRevision, 10, 64)
	if err != nil {
		log.Warn("new revision is not a number", "revision", newRevision)
		return false
	}
	if oldRev < newRev {
		rs.Annotations[RevisionAnnotation] = newRevision
		changed = true
		log.Debug("updating replica set revision", "replicaSet", rs.Namespace+"/"+rs.Name, "revision", newRevision)
	}
	if had && oldRev < newRev {
		appendRevisionHistory(log, rs, oldRevision, revHistoryLimitInChars)
	}
	if !exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d)+maxSurge(d)) {
		changed = true
	}
	return changed
}

// appendRevisionHistory adds old to revision-history, dropping the oldest
// entries while the list would be longer than limit characters.
func appendRevisionHistory(log *slog.Logger, rs *api.ReplicaSet, old string, limit int) {
	history := rs.Annotations[RevisionHistoryAnnotation]
	if history == "" {
		rs.Annotations[RevisionHistoryAnnotation] = old
		return
	}
	entries := strings.Split(history, ",")
	total := len(history) + len(old) + 1
	start := 0
	for total > limit && start < len(entries) {
		total -= len(entries[start]) + 1
		start++
	}
	if total > limit {
		log.Warn("not appending revision: revision-history is at its length limit", "replicaSet", rs.Namespace+"/"+rs.Name, "limit", limit)
		return
	}
	rs.Annotations[RevisionHistoryAnnotation] = strings.Join(append(entries[start:], old), ",")
}

// replicasAnnotationsNeedUpdate reports whether rs's desired-replicas or
// max-replicas differ from these values.
func replicasAnnotationsNeedUpdate(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	return rs.Annotations[DesiredReplicasAnnotation] != strconv.Itoa(int(desired)) ||
		rs.Annotations[MaxReplicasAnnotation] != strconv.Itoa(int(maxReplicas))
}

// setReplicasAnnotations writes desired-replicas and max-replicas; it
// reports whether they changed.
func setReplicasAnnotations(rs *api.ReplicaSet, desired, maxReplicas int32) bool {
	if !replicasAnnotationsNeedUpdate(rs, desired, maxReplicas) {
		return false
	}
	if rs.Annotations == nil {
		rs.Annotations = map[string]string{}
	}
	rs.Annotations[DesiredReplicasAnnotation] = strconv.Itoa(int(desired))
	rs.Annotations[MaxReplicasAnnotation] = strconv.Itoa(int(maxReplicas))
	return true
}

// intAnnotation reads a numeric annotation of rs.
func intAnnotation(log *slog.Logger, rs *api.ReplicaSet, key string) (int32, bool) {
	v, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		log.Debug("cannot convert annotation", "replicaSet", rs.Namespace+"/"+rs.Name, "annotation", key, "value", v)
		return 0, false
	}
	return int32(n), true
}

// setDeploymentRevision puts revision on the Deployment; it reports a change.
func setDeploymentRevision(d *api.Deployment, revision string) bool {
	if d.Annotations[RevisionAnnotation] == revision {
		return false
	}
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	d.Annotations[RevisionAnnotation] = revision
	return true
}
