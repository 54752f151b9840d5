package job

import (
	"sort"
	"strconv"
	"strings"

	"kubeloop/api"
	"kubeloop/controllers/replicaset"
)

// completionIndexEnvName is the variable through which an Indexed Job's
// container learns its index.
const completionIndexEnvName = "JOB_COMPLETION_INDEX"

// unknownCompletionIndex is the index of a pod without a valid one.
const unknownCompletionIndex = -1

func isIndexedJob(j *api.Job) bool {
	return j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == api.IndexedCompletion
}

// interval is the indexes First..Last, both included.
type interval struct{ First, Last int }

// orderedIntervals is a set of indexes as sorted, disjoint, non-adjacent
// intervals: the form status.completedIndexes is written in ("1,3-5").
type orderedIntervals []interval

// withOrderedIndexes returns oi plus the indexes of sorted.
func (oi orderedIntervals) withOrderedIndexes(sorted []int) orderedIntervals {
	add := make(orderedIntervals, len(sorted))
	for i, ix := range sorted {
		add[i] = interval{ix, ix}
	}
	return oi.merge(add)
}

// merge returns the union of two ordered interval lists, joining intervals
// that overlap or touch.
func (oi orderedIntervals) merge(other orderedIntervals) orderedIntervals {
	var out orderedIntervals
	push := func(iv interval) {
		if n := len(out); n > 0 && iv.First <= out[n-1].Last+1 {
			out[n-1].Last = max(out[n-1].Last, iv.Last)
			return
		}
		out = append(out, iv)
	}
	i, j := 0, 0
	for i < len(oi) || j < len(other) {
		if j == len(other) || (i < len(oi) && oi[i].First < other[j].First) {
			push(oi[i])
			i++
		} else {
			push(other[j])
			j++
		}
	}
	return out
}

// total is how many indexes the intervals hold.
func (oi orderedIntervals) total() int {
	n := 0
	for _, iv := range oi {
		n += iv.Last - iv.First + 1
	}
	return n
}

// has reports whether ix is in the set.
func (oi orderedIntervals) has(ix int) bool {
	k := sort.Search(len(oi), func(i int) bool { return oi[i].Last >= ix })
	return k < len(oi) && oi[k].First <= ix
}

// String renders the set as Kubernetes does: a range of two is written as
// two numbers ("1,2"), a longer one with a dash ("3-5").
func (oi orderedIntervals) String() string {
	var b strings.Builder
	for _, iv := range oi {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(iv.First))
		switch {
		case iv.Last == iv.First+1:
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(iv.Last))
		case iv.Last > iv.First:
			b.WriteByte('-')
			b.WriteString(strconv.Itoa(iv.Last))
		}
	}
	return b.String()
}

// parseIndexesFromString reads status.completedIndexes back, dropping
// indexes at or above completions (the Job may have been scaled down) and
// skipping parts that do not parse.
func parseIndexesFromString(s string, completions int) orderedIntervals {
	if s == "" {
		return nil
	}
	var out orderedIntervals
	for _, part := range strings.Split(s, ",") {
		first, last, isRange := strings.Cut(part, "-")
		var iv interval
		var err error
		if iv.First, err = strconv.Atoi(first); err != nil {
			continue
		}
		if iv.First >= completions {
			break
		}
		iv.Last = iv.First
		if isRange {
			if iv.Last, err = strconv.Atoi(last); err != nil {
				continue
			}
			iv.Last = min(iv.Last, completions-1)
		}
		if n := len(out); n > 0 && out[n-1].Last == iv.First-1 {
			out[n-1].Last = iv.Last
			continue
		}
		out = append(out, iv)
	}
	return out
}

// calculateSucceededIndexes returns the indexes already in the status and
// those plus the indexes of succeeded pods not yet counted (still holding
// the tracking finalizer).
func calculateSucceededIndexes(j *api.Job, pods []*api.Pod) (prev, now orderedIntervals) {
	completions := int(*j.Spec.Completions)
	prev = parseIndexesFromString(j.Status.CompletedIndexes, completions)
	seen := map[int]bool{}
	var fresh []int
	for _, p := range pods {
		ix := getCompletionIndex(p.Annotations)
		if p.Status.Phase == api.PodSucceeded && ix != unknownCompletionIndex && ix < completions && hasJobTrackingFinalizer(p) && !seen[ix] {
			seen[ix] = true
			fresh = append(fresh, ix)
		}
	}
	sort.Ints(fresh)
	return prev, prev.withOrderedIndexes(fresh)
}

// firstPendingIndexes returns up to count indexes below completions that
// neither succeeded nor have an active pod (nor, when only failed pods are
// replaced, a terminating one), lowest first.
func firstPendingIndexes(jobCtx *syncJobCtx, count, completions int) []int {
	if count == 0 {
		return nil
	}
	taken := jobCtx.succeededIndexes.withOrderedIndexes(sortedIndexes(jobCtx.activePods))
	if onlyReplaceFailedPods(jobCtx.job) {
		taken = taken.withOrderedIndexes(sortedIndexes(terminatingPods(jobCtx.pods)))
	}
	var out []int
	for ix := 0; ix < completions && len(out) < count; ix++ {
		if !taken.has(ix) {
			out = append(out, ix)
		}
	}
	return out
}

// sortedIndexes is the distinct known indexes of pods, ascending.
func sortedIndexes(pods []*api.Pod) []int {
	seen := map[int]bool{}
	var out []int
	for _, p := range pods {
		if ix := getCompletionIndex(p.Annotations); ix != unknownCompletionIndex && !seen[ix] {
			seen[ix] = true
			out = append(out, ix)
		}
	}
	sort.Ints(out)
	return out
}

// appendDuplicatedIndexPodsForRemoval sorts pods by index and splits them:
// pods without a valid index, with an index at or above completions, and
// all but the most advanced pod of a repeated index go to rm; one pod per
// index stays in left.
func appendDuplicatedIndexPodsForRemoval(rm, left, pods []*api.Pod, completions int) ([]*api.Pod, []*api.Pod) {
	sorted := append([]*api.Pod(nil), pods...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return getCompletionIndex(sorted[i].Annotations) < getCompletionIndex(sorted[j].Annotations)
	})
	for start := 0; start < len(sorted); {
		ix := getCompletionIndex(sorted[start].Annotations)
		end := start + 1
		for end < len(sorted) && getCompletionIndex(sorted[end].Annotations) == ix {
			end++
		}
		group := sorted[start:end]
		start = end
		if ix == unknownCompletionIndex || ix >= completions {
			rm = append(rm, group...)
			continue
		}
		// Keep the pod furthest along (the last in deletion order).
		sort.SliceStable(group, func(i, j int) bool { return activePodLess(group[i], group[j]) })
		rm = append(rm, group[:len(group)-1]...)
		left = append(left, group[len(group)-1])
	}
	return rm, left
}

// getCompletionIndex reads the batch.kubernetes.io/job-completion-index
// annotation; anything but a non-negative integer is unknown.
func getCompletionIndex(annotations map[string]string) int {
	v, ok := annotations[api.JobCompletionIndexAnnotation]
	if !ok {
		return unknownCompletionIndex
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return unknownCompletionIndex
	}
	return i
}

// addCompletionIndexEnvVariables gives every container JOB_COMPLETION_INDEX,
// read from the index label through the downward API.
func addCompletionIndexEnvVariables(t *api.PodTemplateSpec) {
	add := func(c *api.Container) {
		for _, e := range c.Env {
			if e.Name == completionIndexEnvName {
				return
			}
		}
		c.Env = append(c.Env, api.EnvVar{Name: completionIndexEnvName, ValueFrom: &api.EnvVarSource{
			FieldRef: &api.ObjectFieldSelector{FieldPath: "metadata.labels['" + api.JobCompletionIndexAnnotation + "']"},
		}})
	}
	for i := range t.Spec.InitContainers {
		add(&t.Spec.InitContainers[i])
	}
	for i := range t.Spec.Containers {
		add(&t.Spec.Containers[i])
	}
}

// setCompletionIndex stamps index ix on a pod template: the annotation, the
// label of the same name (PodIndexLabel, GA in 1.32) and the hostname
// <job>-<index>.
func setCompletionIndex(t *api.PodTemplateSpec, jobName string, ix int) {
	if t.Annotations == nil {
		t.Annotations = map[string]string{}
	}
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	t.Annotations[api.JobCompletionIndexAnnotation] = strconv.Itoa(ix)
	t.Labels[api.JobCompletionIndexAnnotation] = strconv.Itoa(ix)
	t.Spec.Hostname = jobName + "-" + strconv.Itoa(ix)
}

// maxGeneratedNameLength is how long a generateName prefix may be: the
// apiserver adds five random characters to make a 63-character name.
const maxGeneratedNameLength = 63 - 5

// podGenerateNameWithIndex is "<job>-<index>-", the job name cut short
// when the prefix would be too long.
func podGenerateNameWithIndex(jobName string, ix int) string {
	suffix := "-" + strconv.Itoa(ix) + "-"
	if len(jobName)+len(suffix) > maxGeneratedNameLength {
		jobName = jobName[:maxGeneratedNameLength-len(suffix)]
	}
	return jobName + suffix
}

// terminatingPods are the pods being deleted that have not finished.
// Kubernetes: controller_utils.go, FilterTerminatingPods.
func terminatingPods(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			out = append(out, p)
		}
	}
	return out
}

// countReadyPods counts the ready pods.
func countReadyPods(pods []*api.Pod) int32 {
	var n int32
	for _, p := range pods {
		if replicaset.IsPodReady(p) {
			n++
		}
	}
	return n
}
