package full

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster"
	"kubeloop/controllers/rootcacertpublisher"
)

// One cluster without nodes, for the tests that need only the control
// plane; they run in order, as the ServiceAccount one stops the
// controller manager for a while.
func TestFullCluster(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := Start(ctx, cluster.Options{}, Options{})
	require.NoError(t, err)
	defer c.Stop()
	t.Run("reconciles ReplicaSets", func(t *testing.T) { testReconcilesReplicaSets(t, c) })
	t.Run("admits a pod only with its ServiceAccount", func(t *testing.T) { testServiceAccountAdmission(t, c) })
}

func testReconcilesReplicaSets(t *testing.T, c *cluster.Cluster) {
	ctx := testCtx(t)
	require.NoError(t, c.WaitForDefaultServiceAccount(ctx, "default"))
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
	_, err := client.For[*api.ReplicaSet](c.Client).Namespace("default").Create(ctx, rs, client.CreateOptions{})
	require.NoError(t, err)
	pods := client.For[*api.Pod](c.Client).Namespace("default")
	require.Eventually(t, func() bool {
		l, err := pods.List(ctx, client.ListOptions{LabelSelector: "app=web"})
		return err == nil && len(l.Items) == 3
	}, 30*time.Second, 50*time.Millisecond)
}

// ServiceAccount admission is on in a full cluster, as in Kubernetes: with
// the controller manager stopped a fresh namespace has no default account
// and its pods are refused (403, nothing stored); once the serviceaccount
// controller has made the account, a pod runs as it, with its token
// volume. An account nobody made is refused throughout.
func testServiceAccountAdmission(t *testing.T, c *cluster.Cluster) {
	ctx := testCtx(t)
	require.NoError(t, c.StopComponent(ControllerManagerName))
	ns := fmt.Sprintf("sa-admission-%d", time.Now().UnixNano()%1000000)
	_, err := client.For[*api.Namespace](c.Client).Create(ctx, &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}, client.CreateOptions{})
	require.NoError(t, err)
	pods := client.For[*api.Pod](c.Client).Namespace(ns)
	pod := func(name, account string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Spec: api.PodSpec{ServiceAccountName: account,
			InitContainers: []api.Container{{Name: "init", Image: "busybox"}},
			Containers:     []api.Container{{Name: "web", Image: "nginx"}, {Name: "sidecar", Image: "envoy"}}}}
	}
	refused := func(name, account string) {
		t.Helper()
		_, err := pods.Create(ctx, pod(name, account), client.CreateOptions{})
		var status *api.StatusError
		require.ErrorAs(t, err, &status)
		assert.EqualValues(t, 403, status.ErrStatus.Code)
		assert.Equal(t, api.StatusReasonForbidden, status.ErrStatus.Reason)
		assert.Equal(t, fmt.Sprintf(`pods %q is forbidden: error looking up service account %s/%s: serviceaccount %q not found`, name, ns, account, account),
			status.ErrStatus.Message)
		_, err = pods.Get(ctx, name, client.GetOptions{})
		require.True(t, api.IsNotFound(err), "a refused pod is not stored: %v", err)
	}
	refused("p", "default")
	refused("r", "robot")

	cm, err := ControllerManager(nil)
	require.NoError(t, err)
	c.StartComponent(cm)
	require.NoError(t, c.WaitForDefaultServiceAccount(ctx, ns))
	_, err = pods.Create(ctx, pod("p", ""), client.CreateOptions{})
	require.NoError(t, err)
	stored, err := pods.Get(ctx, "p", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "default", stored.Spec.ServiceAccountName)
	require.Len(t, stored.Spec.Volumes, 1)
	vol := stored.Spec.Volumes[0]
	assert.Regexp(t, regexp.MustCompile(`^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$`), vol.Name)
	require.NotNil(t, vol.Projected, "the token volume survives the round trip through the apiserver and etcd")
	require.Len(t, vol.Projected.Sources, 3)
	assert.EqualValues(t, 3607, *vol.Projected.Sources[0].ServiceAccountToken.ExpirationSeconds)
	assert.Equal(t, rootcacertpublisher.RootCACertConfigMapName, vol.Projected.Sources[1].ConfigMap.Name,
		"the CA comes from the ConfigMap the publisher keeps")
	assert.Equal(t, "metadata.namespace", vol.Projected.Sources[2].DownwardAPI.Items[0].FieldRef.FieldPath)
	for _, ctr := range append(stored.Spec.InitContainers, stored.Spec.Containers...) {
		assert.Equal(t, []api.VolumeMount{{Name: vol.Name, ReadOnly: true, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}},
			ctr.VolumeMounts, "container %s", ctr.Name)
	}
	refused("r", "robot")

	// An applier owns only its configuration: applying the same pod again
	// leaves the plugin's volume alone (pod volumes cannot change).
	apply := func() *api.Pod {
		t.Helper()
		out, err := c.Client.DoRawContentType(ctx, "PATCH", "/api/v1/namespaces/"+ns+"/pods/applied", "application/apply-patch+yaml",
			url.Values{"fieldManager": {"me"}}, []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"applied"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`))
		require.NoError(t, err)
		p := &api.Pod{}
		require.NoError(t, json.Unmarshal(out, p))
		return p
	}
	first := apply()
	require.Len(t, first.Spec.Volumes, 1)
	assert.Equal(t, first.Spec.Volumes, apply().Spec.Volumes)
}

func TestUnknownControllerIsAnError(t *testing.T) {
	_, err := ControllerManager([]string{"*", "-nope"})
	require.ErrorContains(t, err, `unknown controller "nope"`)
}
