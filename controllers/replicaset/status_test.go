package replicaset

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestCalculateStatusCountsPods(t *testing.T) {
	now := time.Now()
	rs := newReplicaSet("ns", "web", "web", 4)
	rs.Spec.MinReadySeconds = 10
	ready := func(since time.Time) []api.PodCondition {
		return []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(since)}}
	}
	pods := []*api.Pod{
		{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web", "tier": "web"}}},                                                          // fully labeled, not ready
		{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}, Status: api.PodStatus{Conditions: ready(now.Add(-time.Hour))}},          // available
		{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web", "tier": "web", "x": "y"}}, Status: api.PodStatus{Conditions: ready(now)}}, // ready, too recently
	}
	st := calculateStatus(rs, pods, nil, now)
	assert.Equal(t, int32(3), st.Replicas)
	assert.Equal(t, int32(2), st.FullyLabeledReplicas, "extra labels are fine, missing ones are not")
	assert.Equal(t, int32(2), st.ReadyReplicas)
	assert.Equal(t, int32(1), st.AvailableReplicas, "ready for less than minReadySeconds is not available")
}

func TestReplicaFailureConditionFollowsManageErrors(t *testing.T) {
	now := time.Now()
	rs := newReplicaSet("ns", "web", "web", 2)
	st := calculateStatus(rs, nil, errors.New("quota exceeded"), now)
	require.Len(t, st.Conditions, 1)
	c := st.Conditions[0]
	assert.Equal(t, api.ReplicaSetReplicaFailure, c.Type)
	assert.Equal(t, api.ConditionTrue, c.Status)
	assert.Equal(t, "FailedCreate", c.Reason, "too few pods: the create failed")
	assert.Equal(t, "quota exceeded", c.Message)
	assert.Empty(t, rs.Status.Conditions, "the input is not changed")

	rs.Status = st
	again := calculateStatus(rs, nil, errors.New("another error"), now.Add(time.Minute))
	assert.Equal(t, st.Conditions, again.Conditions, "an existing failure condition is kept as it is")

	rs.Status = again
	cleared := calculateStatus(rs, nil, nil, now)
	assert.Empty(t, cleared.Conditions, "a clean manageReplicas removes it")

	rs.Status = api.ReplicaSetStatus{}
	tooMany := calculateStatus(rs, []*api.Pod{{}, {}, {}}, errors.New("boom"), now)
	require.Len(t, tooMany.Conditions, 1)
	assert.Equal(t, "FailedDelete", tooMany.Conditions[0].Reason)
}
