package deployment

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"kubeloop/api"
)

func timeAt(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

func TestNewReplicaSetAnnotationsOnCreateCopyAndSize(t *testing.T) {
	d := rollingDeployment(4, intOrStr("25%"), intOrStr("25%"))
	d.Annotations = map[string]string{
		"kubernetes.io/change-cause": "kubectl set image",
		lastAppliedConfigAnnotation:  "{...}",
		RevisionAnnotation:           "7",
		"deployment.kubernetes.io/x": "y",
	}
	rs := &api.ReplicaSet{}
	changed := setNewReplicaSetAnnotations(slog.Default(), d, rs, "3", false, maxRevHistoryLengthInChars)
	assert.True(t, changed)
	assert.Equal(t, map[string]string{
		"kubernetes.io/change-cause": "kubectl set image",
		"deployment.kubernetes.io/x": "y",
		RevisionAnnotation:           "3",
		DesiredReplicasAnnotation:    "4",
		MaxReplicasAnnotation:        "5",
	}, rs.Annotations)
}

func TestRollbackGivesTheOldReplicaSetTheNextRevisionAndRemembersItsOld(t *testing.T) {
	d := rollingDeployment(1, intVal(1), intVal(0))
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{RevisionAnnotation: "1"}}}
	assert.True(t, setNewReplicaSetAnnotations(slog.Default(), d, rs, "3", true, maxRevHistoryLengthInChars))
	assert.Equal(t, "3", rs.Annotations[RevisionAnnotation])
	assert.Equal(t, "1", rs.Annotations[RevisionHistoryAnnotation])
	assert.NotContains(t, rs.Annotations, DesiredReplicasAnnotation, "an existing ReplicaSet is sized by scaleReplicaSet")

	assert.True(t, setNewReplicaSetAnnotations(slog.Default(), d, rs, "5", true, maxRevHistoryLengthInChars))
	assert.Equal(t, "1,3", rs.Annotations[RevisionHistoryAnnotation])

	assert.False(t, setNewReplicaSetAnnotations(slog.Default(), d, rs, "4", true, maxRevHistoryLengthInChars),
		"a revision never goes down")
	assert.Equal(t, "5", rs.Annotations[RevisionAnnotation])
}

func TestRevisionHistoryDropsTheOldestEntriesAtItsLengthLimit(t *testing.T) {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Annotations: map[string]string{RevisionHistoryAnnotation: "10,11,12"}}}
	appendRevisionHistory(slog.Default(), rs, "13", len("11,12,13"))
	assert.Equal(t, "11,12,13", rs.Annotations[RevisionHistoryAnnotation])
	appendRevisionHistory(slog.Default(), rs, strings.Repeat("9", 20), 10)
	assert.Equal(t, "11,12,13", rs.Annotations[RevisionHistoryAnnotation], "an entry that cannot fit is not added")
}

func TestGetProportionSharesByMaxReplicas(t *testing.T) {
	// 10 replicas + 3 surge, rollout in progress: old 8, new 5; scaled
	// to 20 (+5 surge = 25): 12 replicas to add.
	d := rollingDeployment(20, intOrStr("25%"), intOrStr("25%"))
	old := replicaSetOf("old", 8, 1)
	newRS := replicaSetOf("new", 5, 2)
	for _, rs := range []*api.ReplicaSet{old, newRS} {
		rs.Annotations = map[string]string{MaxReplicasAnnotation: "13"}
	}
	toAdd := int32(25 - 13)
	p1 := getProportion(old, d, toAdd, 0)
	p2 := getProportion(newRS, d, toAdd, p1)
	assert.Equal(t, int32(7), p1, "8 × 25/13 = 15.4 → 15")
	assert.Equal(t, int32(5), p2, "5 × 25/13 = 9.6 → 10, but only 5 are left")

	d0 := rollingDeployment(0, intOrStr("25%"), intOrStr("25%"))
	assert.Equal(t, int32(-8), getProportion(old, d0, -13, 0), "scaling to 0 removes everything")
}

func TestReplicaSetOrders(t *testing.T) {
	a, b, c := replicaSetOf("a", 3, 1), replicaSetOf("b", 3, 2), replicaSetOf("c", 5, 3)
	names := func(rss []*api.ReplicaSet) string {
		var s []string
		for _, rs := range rss {
			s = append(s, rs.Name)
		}
		return strings.Join(s, ",")
	}
	up := []*api.ReplicaSet{a, b, c}
	sortBy(replicaSetsBySizeNewer(up))
	assert.Equal(t, "c,b,a", names(up))
	down := []*api.ReplicaSet{a, b, c}
	sortBy(replicaSetsBySizeOlder(down))
	assert.Equal(t, "c,a,b", names(down))

	a.Annotations = map[string]string{RevisionAnnotation: "9"}
	b.Annotations = map[string]string{RevisionAnnotation: "2"}
	byRev := []*api.ReplicaSet{a, b, c}
	sortBy(replicaSetsByRevision(byRev))
	assert.Equal(t, "c,b,a", names(byRev), "no revision is 0")
}
