package api

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// BenchmarkPodDeepCopy copies the realistic Pod of testdata/pod.yaml (two
// containers, resources, affinity, tolerations, owner references, container
// statuses): the copy every informer-cache reader makes before a change.
func BenchmarkPodDeepCopy(b *testing.B) {
	raw, err := os.ReadFile("testdata/pod.yaml")
	require.NoError(b, err)
	pod := &Pod{}
	require.NoError(b, yaml.Unmarshal(raw, pod))
	require.Len(b, pod.Spec.Containers, 2)
	b.ReportAllocs()
	for b.Loop() {
		if pod.DeepCopy() == pod {
			b.Fatal("DeepCopy returned the original")
		}
	}
}
