package full

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
)

func TestFullClusterReconcilesReplicaSets(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := Start(ctx, cluster.Options{}, Options{})
	require.NoError(t, err)
	defer c.Stop()

	replicas := int32(3)
	rs := &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.ReplicaSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}
	_, err = client.For[*api.ReplicaSet](c.Client).Namespace("default").Create(ctx, rs, client.CreateOptions{})
	require.NoError(t, err)
	pods := client.For[*api.Pod](c.Client).Namespace("default")
	require.Eventually(t, func() bool {
		l, err := pods.List(ctx, client.ListOptions{LabelSelector: "app=web"})
		return err == nil && len(l.Items) == 3
	}, 30*time.Second, 50*time.Millisecond)
}

func TestUnknownControllerIsAnError(t *testing.T) {
	_, err := ControllerManager([]string{"*", "-nope"})
	require.ErrorContains(t, err, `unknown controller "nope"`)
}
