package strategicpatch

import (
	"encoding/json"
	"fmt"
	"testing"

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

// That the merge of a list by its keys is not quadratic is a speed claim:
// BenchmarkApplyManyContainers reports ns/container at 100, 1000 and 4000
// containers, about constant when the work is linear (the scanning merge
// this replaced grew about 58× for 8× the containers). It is measured
// there, not timed in a test.
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
