package job

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
)

func TestOrderedIntervalsRenderAsKubernetesDoes(t *testing.T) {
	for _, tc := range []struct {
		indexes []int
		want    string
	}{
		{nil, ""},
		{[]int{0}, "0"},
		{[]int{1, 2}, "1,2"}, // a range of two is two numbers
		{[]int{1, 3, 4, 5}, "1,3-5"},
		{[]int{0, 1, 2, 4, 6, 7}, "0-2,4,6,7"},
	} {
		got := orderedIntervals(nil).withOrderedIndexes(tc.indexes)
		require.Equal(t, tc.want, got.String(), "%v", tc.indexes)
		require.Equal(t, len(tc.indexes), got.total())
		for _, ix := range tc.indexes {
			require.True(t, got.has(ix))
		}
		require.False(t, got.has(100))
		require.Equal(t, got, parseIndexesFromString(got.String(), 100), "round trip of %q", got.String())
	}
}

func TestMergeJoinsTouchingAndOverlappingIntervals(t *testing.T) {
	a := orderedIntervals{{0, 2}, {7, 9}}
	b := orderedIntervals{{3, 4}, {6, 6}, {8, 12}}
	require.Equal(t, orderedIntervals{{0, 4}, {6, 12}}, a.merge(b))
	require.Equal(t, "0-4,6-12", a.merge(b).String())
	require.False(t, a.merge(b).has(5))
}

func TestParseIndexesDropsWhatCompletionsNoLongerCovers(t *testing.T) {
	require.Equal(t, "1,3,4", parseIndexesFromString("1,3-7,9", 5).String())
	require.Equal(t, "0-2", parseIndexesFromString("0,x,1-2", 5).String(), "a corrupt part is skipped")
	require.Empty(t, parseIndexesFromString("", 5))
}

func indexedPod(ix int, phase api.PodPhase) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{
			Name: "p" + strconv.Itoa(ix), UID: "u" + strconv.Itoa(ix),
			Annotations: map[string]string{api.JobCompletionIndexAnnotation: strconv.Itoa(ix)},
			Finalizers:  []string{api.JobTrackingFinalizer},
		},
		Status: api.PodStatus{Phase: phase},
	}
}

func TestFirstPendingIndexesSkipsSucceededAndActive(t *testing.T) {
	indexed := api.IndexedCompletion
	completions := int32(6)
	job := &api.Job{Spec: api.JobSpec{CompletionMode: &indexed, Completions: &completions}}
	active := []*api.Pod{indexedPod(1, api.PodRunning), indexedPod(4, api.PodPending)}
	ctx := &syncJobCtx{job: job, activePods: active, succeededIndexes: orderedIntervals{{0, 0}, {2, 2}}}
	require.Equal(t, []int{3, 5}, firstPendingIndexes(ctx, 5, 6))
	require.Equal(t, []int{3}, firstPendingIndexes(ctx, 1, 6))
	require.Nil(t, firstPendingIndexes(ctx, 0, 6))
}

func TestCalculateSucceededIndexesCountsOnlyUncountedPods(t *testing.T) {
	indexed := api.IndexedCompletion
	completions := int32(5)
	job := &api.Job{Spec: api.JobSpec{CompletionMode: &indexed, Completions: &completions},
		Status: api.JobStatus{CompletedIndexes: "0"}}
	counted := indexedPod(3, api.PodSucceeded)
	counted.Finalizers = nil // already counted: its index must be in the status
	beyond := indexedPod(7, api.PodSucceeded)
	pods := []*api.Pod{indexedPod(1, api.PodSucceeded), indexedPod(2, api.PodFailed), counted, beyond, indexedPod(1, api.PodSucceeded)}
	prev, now := calculateSucceededIndexes(job, pods)
	require.Equal(t, "0", prev.String())
	require.Equal(t, "0,1", now.String())
}

func TestDuplicatedIndexesAreRemovedKeepingTheMostAdvancedPod(t *testing.T) {
	running := indexedPod(0, api.PodRunning)
	running.Spec.NodeName = "n1"
	pending := indexedPod(0, api.PodPending)
	noIndex := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "x"}}
	outOfRange := indexedPod(9, api.PodRunning)
	single := indexedPod(1, api.PodRunning)
	rm, left := appendDuplicatedIndexPodsForRemoval(nil, nil, []*api.Pod{running, single, noIndex, pending, outOfRange}, 3)
	require.ElementsMatch(t, []*api.Pod{pending, noIndex, outOfRange}, rm)
	require.ElementsMatch(t, []*api.Pod{running, single}, left)
}

func TestIndexedPodNamesAndHostnames(t *testing.T) {
	require.Equal(t, "work-3-", podGenerateNameWithIndex("work", 3))
	long := "a123456789b123456789c123456789d123456789e123456789f123456789"
	got := podGenerateNameWithIndex(long, 12)
	require.Len(t, got, maxGeneratedNameLength)
	require.Equal(t, "-12-", got[len(got)-4:])

	tmpl := &api.PodTemplateSpec{Spec: api.PodSpec{Containers: []api.Container{{Name: "c"}}}}
	addCompletionIndexEnvVariables(tmpl)
	addCompletionIndexEnvVariables(tmpl) // only once
	setCompletionIndex(tmpl, "work", 3)
	require.Equal(t, "3", tmpl.Annotations[api.JobCompletionIndexAnnotation])
	require.Equal(t, "3", tmpl.Labels[api.JobCompletionIndexAnnotation])
	require.Equal(t, "work-3", tmpl.Spec.Hostname)
	require.Len(t, tmpl.Spec.Containers[0].Env, 1)
	env := tmpl.Spec.Containers[0].Env[0]
	require.Equal(t, "JOB_COMPLETION_INDEX", env.Name)
	require.Equal(t, "metadata.labels['batch.kubernetes.io/job-completion-index']", env.ValueFrom.FieldRef.FieldPath)
}
