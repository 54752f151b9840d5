package scheduler

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

// Reading path, step 8 (docs/reading-path.md): one pod's scheduling pass.
// Of three nodes, one is too small for the pod (the NodeResourcesFit filter
// drops it) and one already runs a pod (the scorer prefers the emptier
// node): the pod is bound to the remaining node through pods/binding, and
// PodScheduled turns True. Break in Scheduler.scheduleOne, then
// findNodesThatFitPod, prioritizeNodes and bindingCycle
// (scheduler/schedule_one.go).
func TestReadingPathStep8ScheduleOneFiltersScoresBinds(t *testing.T) {
	e := newEnv(t, Options{})
	e.createNode("small", "1", "1Gi")
	e.createNode("busy", "4", "8Gi")
	e.createNode("free", "4", "8Gi")
	e.start()
	e.createPod("first", "2", "2Gi", func(p *api.Pod) { p.Spec.NodeName = e.nodeName("busy") })

	e.createPod("web", "2", "2Gi")
	assert.Equal(t, e.nodeName("free"), e.waitBound("web"),
		"small is filtered out (too little cpu), busy scores lower than free")
	c, ok := podScheduledCondition(e.getPod("web"))
	require.True(t, ok)
	assert.Equal(t, api.ConditionTrue, c.Status)
}
