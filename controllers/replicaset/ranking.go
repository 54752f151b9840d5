package replicaset

import (
	"math"
	"sort"
	"strconv"
	"time"

	"kubeloop/api"
)

// PodDeletionCostAnnotation lets a user say which pods of a ReplicaSet should
// go first on scale-down: lower cost goes first. Kubernetes:
// k8s.io/api/core/v1 annotation_key_constants.go.
const PodDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"

// ActivePodsWithRanks sorts pods so the ones cheapest to lose come first.
// Rank[i] is the number of active pods related to Pods[i]'s ReplicaSet that
// share its node: deleting from a crowded node spreads what is left.
// Kubernetes: pkg/controller/controller_utils.go, ActivePodsWithRanks.
type ActivePodsWithRanks struct {
	Pods []*api.Pod
	Rank []int
	// Now is the reference for the logarithmic age buckets; zero compares
	// timestamps exactly.
	Now time.Time
}

func (s ActivePodsWithRanks) Len() int { return len(s.Pods) }

func (s ActivePodsWithRanks) Swap(i, j int) {
	s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	s.Rank[i], s.Rank[j] = s.Rank[j], s.Rank[i]
}

// podPhaseOrdinal: a pod that has not started is cheaper to lose than one
// whose state is unknown, which is cheaper than a running one.
func podPhaseOrdinal(p api.PodPhase) int {
	switch p {
	case api.PodPending:
		return 0
	case api.PodUnknown:
		return 1
	case api.PodRunning:
		return 2
	}
	return 0
}

// Less is true when pod i should be deleted before pod j. The rules are
// Kubernetes', in its order; the first one that tells the pods apart wins.
func (s ActivePodsWithRanks) Less(i, j int) bool {
	a, b := s.Pods[i], s.Pods[j]
	// 1. Unscheduled pods first.
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	// 2. Pending < Unknown < Running.
	if pa, pb := podPhaseOrdinal(a.Status.Phase), podPhaseOrdinal(b.Status.Phase); pa != pb {
		return pa < pb
	}
	// 3. Not ready first.
	readyA, readyB := IsPodReady(a), IsPodReady(b)
	if readyA != readyB {
		return !readyA
	}
	// 4. Lower deletion cost first.
	if ca, cb := deletionCost(a), deletionCost(b); ca != cb {
		return ca < cb
	}
	// 5. More related pods on the same node first.
	if s.Rank[i] != s.Rank[j] {
		return s.Rank[i] > s.Rank[j]
	}
	// 6. Ready for less time first (in logarithmic buckets, so pods ready
	// for about as long count as tied and the tie goes on to later rules).
	if readyA && readyB {
		ta, tb := podReadyTime(a), podReadyTime(b)
		if !ta.Equal(tb) {
			if d, ok := s.compareAge(ta, tb); ok {
				if d != 0 {
					return d < 0
				}
				return a.UID < b.UID
			}
			return afterOrZero(ta, tb)
		}
	}
	// 7. More container restarts first.
	if ra, rb := maxContainerRestarts(a), maxContainerRestarts(b); ra != rb {
		return ra > rb
	}
	// 8. Newer first (logarithmic buckets again, ties broken by UID so the
	// order is total).
	ca, cb := a.CreationTimestamp.Time, b.CreationTimestamp.Time
	if !ca.Equal(cb) {
		if d, ok := s.compareAge(ca, cb); ok {
			if d != 0 {
				return d < 0
			}
			return a.UID < b.UID
		}
		return afterOrZero(ca, cb)
	}
	return false
}

// compareAge compares how long ago t1 and t2 were, in powers-of-two buckets
// of the age: negative when t1 is in a younger bucket. ok is false when a
// time is unknown and the caller must compare exactly. Kubernetes:
// logarithmicRankDiff (feature LogarithmicScaleDown, on by default).
func (s ActivePodsWithRanks) compareAge(t1, t2 time.Time) (diff int64, ok bool) {
	if s.Now.IsZero() || t1.IsZero() || t2.IsZero() {
		return 0, false
	}
	bucket := func(t time.Time) int64 {
		d := s.Now.Sub(t)
		if d <= 0 {
			return -1
		}
		return int64(math.Log2(float64(d)))
	}
	return bucket(t1) - bucket(t2), true
}

// afterOrZero: a zero time sorts first, then the later time.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// deletionCost reads the pod-deletion-cost annotation; absent or invalid
// means 0, as in Kubernetes (which rejects invalid values at admission).
func deletionCost(p *api.Pod) int32 {
	v, ok := p.Annotations[PodDeletionCostAnnotation]
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

func maxContainerRestarts(p *api.Pod) int32 {
	var m int32
	for _, c := range p.Status.ContainerStatuses {
		m = max(m, c.RestartCount)
	}
	return m
}

// getPodsToDelete picks the diff pods of filtered to delete. relatedPods are
// the active pods of every ReplicaSet related to this one; they only feed
// the same-node rank.
// Kubernetes: pkg/controller/replicaset/replica_set.go, getPodsToDelete and
// getPodsRankedByRelatedPodsOnSameNode.
func getPodsToDelete(filtered, relatedPods []*api.Pod, diff int, now time.Time) []*api.Pod {
	if diff >= len(filtered) {
		return filtered
	}
	ranked := rankPodsBySameNode(filtered, relatedPods, now)
	sort.Sort(ranked)
	return ranked.Pods[:diff]
}

// rankPodsBySameNode ranks each pod by how many active related pods run on
// its node. It sorts a copy, so the caller's slice keeps its order.
func rankPodsBySameNode(pods, relatedPods []*api.Pod, now time.Time) ActivePodsWithRanks {
	onNode := map[string]int{}
	for _, p := range relatedPods {
		if IsPodActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	out := ActivePodsWithRanks{Pods: append([]*api.Pod(nil), pods...), Rank: make([]int, len(pods)), Now: now}
	for i, p := range out.Pods {
		out.Rank[i] = onNode[p.Spec.NodeName]
	}
	return out
}
