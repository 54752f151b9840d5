package deployment

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func intOrStr(s string) *api.IntOrString {
	v := api.FromString(s)
	return &v
}

func intVal(n int32) *api.IntOrString {
	v := api.FromInt32(n)
	return &v
}

func TestResolveFencepostsRoundsSurgeUpAndUnavailableDown(t *testing.T) {
	cases := []struct {
		name                   string
		surge, unavailable     *api.IntOrString
		desired                int32
		wantSurge, wantUnavail int32
	}{
		{"defaults of 10", intOrStr("25%"), intOrStr("25%"), 10, 3, 2},
		{"defaults of 50", intOrStr("25%"), intOrStr("25%"), 50, 13, 12},
		{"defaults of 1", intOrStr("25%"), intOrStr("25%"), 1, 1, 0},
		{"numbers", intVal(2), intVal(1), 5, 2, 1},
		{"1% of 10 both ways is 0 and 0: unavailable becomes 1", intOrStr("1%"), intOrStr("1%"), 10, 1, 0},
		{"0% surge, 1% unavailable of 2", intOrStr("0%"), intOrStr("1%"), 2, 0, 1},
		{"zero replicas", intOrStr("25%"), intOrStr("25%"), 0, 0, 1},
		{"nil fields are 0", nil, nil, 4, 0, 1},
		{"100% surge", intOrStr("100%"), intVal(0), 7, 7, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, u, err := resolveFenceposts(c.surge, c.unavailable, c.desired)
			require.NoError(t, err)
			assert.Equal(t, c.wantSurge, s, "surge")
			assert.Equal(t, c.wantUnavail, u, "unavailable")
		})
	}
}

func TestScaledValueRejectsStringsThatAreNotPercentages(t *testing.T) {
	_, err := getScaledValueFromIntOrPercent(intOrStr("3"), 10, true)
	require.EqualError(t, err, "invalid value for IntOrString: invalid type: string is not a percentage")
	_, err = getScaledValueFromIntOrPercent(intOrStr("x%"), 10, true)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `invalid value "x%"`)
}

func rollingDeployment(replicas int32, surge, unavailable *api.IntOrString) *api.Deployment {
	return &api.Deployment{Spec: api.DeploymentSpec{
		Replicas: &replicas,
		Strategy: api.DeploymentStrategy{Type: RollingUpdateDeploymentStrategyType,
			RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: surge, MaxUnavailable: unavailable}},
	}}
}

func TestMaxUnavailableNeverExceedsReplicasAndRecreateHasNoFenceposts(t *testing.T) {
	d := rollingDeployment(3, intVal(0), intVal(5))
	assert.Equal(t, int32(3), maxUnavailable(d))
	assert.Equal(t, int32(0), minAvailable(d))

	d = rollingDeployment(0, intVal(1), intVal(1))
	assert.Equal(t, int32(0), maxUnavailable(d), "nothing to make unavailable")

	r := int32(4)
	recreate := &api.Deployment{Spec: api.DeploymentSpec{Replicas: &r, Strategy: api.DeploymentStrategy{Type: RecreateDeploymentStrategyType}}}
	assert.Zero(t, maxSurge(recreate))
	assert.Zero(t, maxUnavailable(recreate))
	assert.Zero(t, minAvailable(recreate))
}

func replicaSetOf(name string, replicas int32, created int64) *api.ReplicaSet {
	return &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, UID: "uid-" + name, CreationTimestamp: api.Time{Time: timeAt(created)}},
		Spec:       api.ReplicaSetSpec{Replicas: &replicas},
	}
}

func TestNewRSNewReplicasStaysWithinSurgeCountingLivePods(t *testing.T) {
	d := rollingDeployment(10, intVal(2), intVal(0))
	old := replicaSetOf("old", 10, 1)
	newRS := replicaSetOf("new", 0, 2)
	all := []*api.ReplicaSet{old, newRS}

	n, err := newRSNewReplicas(d, all, newRS, rolloutView{})
	require.NoError(t, err)
	assert.Equal(t, int32(2), n, "10 old + 2 surge")

	// The old ReplicaSet was shrunk to 8 but its 10 pods still run: no
	// room yet (Kubernetes would grow the new one to 4 here).
	*old.Spec.Replicas = 8
	*newRS.Spec.Replicas = 2
	view := rolloutView{pods: map[string]podCounts{old.UID: {active: 10, available: 10}}}
	n, err = newRSNewReplicas(d, all, newRS, view)
	require.NoError(t, err)
	assert.Equal(t, int32(2), n)

	view.pods[old.UID] = podCounts{active: 8, available: 8}
	n, err = newRSNewReplicas(d, all, newRS, view)
	require.NoError(t, err)
	assert.Equal(t, int32(4), n, "once the old pods are gone")
}

func TestAvailableCountTrustsTheCautiousSource(t *testing.T) {
	rs := replicaSetOf("web", 8, 1)
	rs.Status.AvailableReplicas = 10
	v := rolloutView{pods: map[string]podCounts{rs.UID: {active: 10, available: 10}}}
	assert.Equal(t, int32(8), v.availableCount(rs), "two of the ten are about to be deleted")

	rs.Status.AvailableReplicas = 6
	assert.Equal(t, int32(4), v.availableCount(rs), "a stale-low status wins, less the surplus")

	v.pods[rs.UID] = podCounts{active: 8, available: 5}
	rs.Status.AvailableReplicas = 8
	assert.Equal(t, int32(5), v.availableCount(rs), "the cache knows of fewer available pods")
	assert.Equal(t, int32(8), v.surgeCount(rs))
}

func TestLaggingWhenThePodCacheIsMoreCautiousThanTheReplicaSet(t *testing.T) {
	rs := replicaSetOf("web", 8, 1)
	rs.Status.AvailableReplicas = 8
	v := rolloutView{pods: map[string]podCounts{rs.UID: {active: 8, available: 8}}}
	assert.False(t, v.lagging([]*api.ReplicaSet{rs, nil}), "they agree")
	v.pods[rs.UID] = podCounts{active: 10, available: 8}
	assert.True(t, v.lagging([]*api.ReplicaSet{rs}), "two pods to be deleted still run")
	v.pods[rs.UID] = podCounts{active: 8, available: 7}
	assert.True(t, v.lagging([]*api.ReplicaSet{rs}), "the cache has not seen a pod become available")
	v.pods[rs.UID] = podCounts{active: 8, available: 9}
	assert.False(t, v.lagging([]*api.ReplicaSet{rs}), "a status that trails the cache is updated by the ReplicaSet controller")
}
