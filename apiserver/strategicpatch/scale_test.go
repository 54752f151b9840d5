package strategicpatch

import (
	"encoding/json"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// manyContainers is a pod with n containers and the patch kubectl apply
// sends to change every image, drop every tenth container and add one:
// $setElementOrder, a merge element per kept container, a delete directive
// per dropped one.
func manyContainers(n int) (pod, patch []byte) {
	var containers, order, changes []any
	for i := range n {
		name := fmt.Sprintf("c%d", i)
		containers = append(containers, map[string]any{
			"name": name, "image": "busybox:1",
			"env":   []any{map[string]any{"name": "A", "value": "1"}},
			"ports": []any{map[string]any{"containerPort": 8000 + i}},
		})
		if i%10 == 0 {
			changes = append(changes, map[string]any{"$patch": "delete", "name": name})
			continue
		}
		order = append(order, map[string]any{"name": name})
		changes = append(changes, map[string]any{"name": name, "image": "busybox:2"})
	}
	order = append(order, map[string]any{"name": "added"})
	changes = append(changes, map[string]any{"name": "added", "image": "redis"})
	pod, _ = json.Marshal(map[string]any{"spec": map[string]any{"containers": containers}})
	patch, _ = json.Marshal(map[string]any{"spec": map[string]any{
		"$setElementOrder/containers": order, "containers": changes}})
	return pod, patch
}

func TestApplyManyContainersKeepsOrderAndContents(t *testing.T) {
	pod, patch := manyContainers(50)
	out, err := Apply(pod, patch, ForKind("", "Pod"))
	require.NoError(t, err)
	var got struct {
		Spec struct {
			Containers []struct {
				Name, Image string
				Env         []any
			}
		}
	}
	require.NoError(t, json.Unmarshal(out, &got))
	cs := got.Spec.Containers
	require.Len(t, cs, 50-5+1)
	require.Equal(t, "c1", cs[0].Name)
	require.Equal(t, "c49", cs[len(cs)-2].Name)
	require.Equal(t, "added", cs[len(cs)-1].Name)
	for _, c := range cs[:len(cs)-1] {
		require.Equal(t, "busybox:2", c.Image, c.Name)
		require.Len(t, c.Env, 1, c.Name)
	}
}

// TestApplyIsNotQuadratic compares, inside one run, a patch of n containers
// with one of 8n: linear work takes about 8 times as long, n log n work
// about 11 times, quadratic work 64 times (the scanning merge this replaced
// took 58 times). Each size is timed several times after a collection and
// the fastest run counts, so that a busy machine does not decide the result.
func TestApplyIsNotQuadratic(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	const n = 250
	fastest := func(size int) time.Duration {
		pod, patch := manyContainers(size)
		best := time.Duration(1 << 62)
		for range 5 {
			runtime.GC()
			start := time.Now()
			_, err := Apply(pod, patch, ForKind("", "Pod"))
			require.NoError(t, err)
			best = min(best, time.Since(start))
		}
		return best
	}
	small, large := fastest(n), fastest(8*n)
	ratio := float64(large) / float64(small)
	t.Logf("%d containers: %v, %d containers: %v (×%.1f)", n, small, 8*n, large, ratio)
	// Linear is 8×, the old scanning merge measured 58×; 40 leaves room
	// for a loaded machine (28 failed once at a load average of 15).
	require.Less(t, ratio, 40.0, "8× the containers took %.1f× as long: the merge is quadratic again", ratio)
}

func BenchmarkApplyManyContainers(b *testing.B) {
	for _, n := range []int{100, 1000, 4000} {
		pod, patch := manyContainers(n)
		b.Run(fmt.Sprintf("containers=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Apply(pod, patch, ForKind("", "Pod")); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/container")
		})
	}
}
