package deployment_test

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/cluster/clustertest"
	"kubeloop/controllers/deployment"
)

const (
	waitFor = 60 * time.Second
	tick    = 25 * time.Millisecond
)

func int32p(n int32) *int32 { return &n }

// newDeployment is a Deployment of app=<name> with every field the
// apiserver would default set explicitly: RollingUpdate 25%/25%, ten old
// ReplicaSets kept, a 600 s progress deadline.
func newDeployment(ns, name string, replicas int32, image string) *api.Deployment {
	labels := map[string]string{"app": name}
	surge, unavailable := api.FromString("25%"), api.FromString("25%")
	return &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns},
		Spec: api.DeploymentSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{
				ObjectMeta: api.ObjectMeta{Labels: labels},
				Spec:       api.PodSpec{Containers: []api.Container{{Name: "web", Image: image}}},
			},
			Strategy: api.DeploymentStrategy{
				Type:          deployment.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable},
			},
			RevisionHistoryLimit:    int32p(10),
			ProgressDeadlineSeconds: int32p(600),
		},
	}
}

func deployments(cl *client.Client, ns string) *client.Resource[*api.Deployment] {
	return client.For[*api.Deployment](cl).Namespace(ns)
}

func createDeployment(t *testing.T, d *api.Deployment) *api.Deployment {
	t.Helper()
	out, err := deployments(testCluster.Client, d.Namespace).Create(clustertest.Context(t), d, client.CreateOptions{})
	require.NoError(t, err)
	return out
}

// tryGetDeployment is for Eventually conditions, which must not fail the
// test from their own goroutine.
func tryGetDeployment(ns, name string) (*api.Deployment, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return deployments(testCluster.Client, ns).Get(ctx, name, client.GetOptions{})
}

func getDeployment(t *testing.T, ns, name string) *api.Deployment {
	t.Helper()
	d, err := deployments(testCluster.Client, ns).Get(clustertest.Context(t), name, client.GetOptions{})
	require.NoError(t, err)
	return d
}

// updateDeployment applies mutate to a fresh copy until the write does
// not conflict (the controller writes the status concurrently).
func updateDeployment(t *testing.T, ns, name string, mutate func(d *api.Deployment)) *api.Deployment {
	t.Helper()
	var out *api.Deployment
	require.NoError(t, client.RetryOnConflict(client.DefaultRetry, func() error {
		d, err := deployments(testCluster.Client, ns).Get(clustertest.Context(t), name, client.GetOptions{})
		if err != nil {
			return err
		}
		mutate(d)
		out, err = deployments(testCluster.Client, ns).Update(clustertest.Context(t), d, client.UpdateOptions{})
		return err
	}))
	return out
}

func setImage(t *testing.T, ns, name, image string) *api.Deployment {
	t.Helper()
	return updateDeployment(t, ns, name, func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = image })
}

// listReplicaSets reads the namespace's ReplicaSets from the API, oldest
// first.
func listReplicaSets(t *testing.T, ns string) []*api.ReplicaSet {
	t.Helper()
	l, err := client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns).List(clustertest.Context(t), client.ListOptions{})
	require.NoError(t, err)
	sort.Slice(l.Items, func(i, j int) bool {
		return l.Items[i].CreationTimestamp.Before(l.Items[j].CreationTimestamp.Time) ||
			(l.Items[i].CreationTimestamp.Equal(l.Items[j].CreationTimestamp.Time) && l.Items[i].Name < l.Items[j].Name)
	})
	return l.Items
}

func listPods(t *testing.T, ns, selector string) []*api.Pod {
	t.Helper()
	l, err := client.For[*api.Pod](testCluster.Client).Namespace(ns).List(clustertest.Context(t), client.ListOptions{LabelSelector: selector})
	require.NoError(t, err)
	return l.Items
}

// newReplicaSetOf is the ReplicaSet whose template is the Deployment's
// current one, or nil.
func newReplicaSetOf(t *testing.T, d *api.Deployment) *api.ReplicaSet {
	t.Helper()
	for _, rs := range listReplicaSets(t, d.Namespace) {
		if rs.Spec.Template.Spec.Containers[0].Image == d.Spec.Template.Spec.Containers[0].Image &&
			sameAnnotations(rs.Spec.Template.Annotations, d.Spec.Template.Annotations) {
			return rs
		}
	}
	return nil
}

func sameAnnotations(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func condition(d *api.Deployment, t api.DeploymentConditionType) *api.DeploymentCondition {
	for i := range d.Status.Conditions {
		if d.Status.Conditions[i].Type == t {
			return &d.Status.Conditions[i]
		}
	}
	return nil
}

// complete is what `kubectl rollout status` waits for: the status is of
// the current generation, every replica is updated and available and no
// old one is left.
func complete(d *api.Deployment) bool {
	want := *d.Spec.Replicas
	s := d.Status
	return s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == want &&
		s.Replicas == want && s.AvailableReplicas == want
}

// waitComplete waits until the rollout is complete and the Progressing
// condition says so, and returns the Deployment.
func waitComplete(t *testing.T, ns, name string) *api.Deployment {
	t.Helper()
	// Eventually polls in its own goroutine, which may still run when it
	// gives up: the last reading is handed over atomically.
	var last atomic.Pointer[api.Deployment]
	ok := assert.Eventually(t, func() bool {
		d, err := tryGetDeployment(ns, name)
		if err != nil {
			return false
		}
		last.Store(d)
		c := condition(d, deployment.DeploymentProgressing)
		return complete(d) && c != nil && c.Reason == deployment.NewRSAvailableReason
	}, waitFor, tick)
	if !ok {
		t.Fatalf("rollout of %s/%s never completed: %s\n%s", ns, name, describe(last.Load()), describeNamespace(t, ns))
	}
	return last.Load()
}

// describe summarises a Deployment for failure messages.
func describe(d *api.Deployment) string {
	if d == nil {
		return "<none>"
	}
	var conds []string
	for _, c := range d.Status.Conditions {
		conds = append(conds, fmt.Sprintf("%s=%s(%s)", c.Type, c.Status, c.Reason))
	}
	return fmt.Sprintf("gen %d observed %d replicas %d updated %d ready %d available %d unavailable %d [%s]",
		d.Generation, d.Status.ObservedGeneration, d.Status.Replicas, d.Status.UpdatedReplicas,
		d.Status.ReadyReplicas, d.Status.AvailableReplicas, d.Status.UnavailableReplicas, strings.Join(conds, " "))
}

// eventMessages lists the messages of the events about the Deployment.
func eventMessages(t *testing.T, ns, name string) []string {
	t.Helper()
	l, err := client.For[*api.Event](testCluster.Client).Namespace(ns).List(clustertest.Context(t),
		client.ListOptions{FieldSelector: "involvedObject.kind=Deployment,involvedObject.name=" + name})
	require.NoError(t, err)
	var out []string
	for _, e := range l.Items {
		out = append(out, e.Reason+": "+e.Message)
	}
	return out
}

func getReplicaSet(t *testing.T, ns, name string) *api.ReplicaSet {
	t.Helper()
	rs, err := client.For[*api.ReplicaSet](testCluster.Client).Namespace(ns).Get(clustertest.Context(t), name, client.GetOptions{})
	require.NoError(t, err)
	return rs
}

func getControllerRef(refs []api.OwnerReference) *api.OwnerReference {
	for i := range refs {
		if refs[i].Controller != nil && *refs[i].Controller {
			return &refs[i]
		}
	}
	return nil
}

func assertEventPrefix(t *testing.T, msgs []string, prefix string) {
	t.Helper()
	for _, m := range msgs {
		if strings.HasPrefix(m, prefix) {
			return
		}
	}
	assert.Fail(t, "no event starts with "+prefix, "events: %q", msgs)
}

// assertStatusComplete checks every status field of a Deployment whose
// rollout to newRS is complete.
func assertStatusComplete(t *testing.T, d *api.Deployment, newRS string) {
	t.Helper()
	n := *d.Spec.Replicas
	s := d.Status
	assert.Equal(t, d.Generation, s.ObservedGeneration, "observedGeneration")
	assert.Equal(t, []int32{n, n, n, n, 0}, []int32{s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas, s.UnavailableReplicas},
		"replicas, updated, ready, available, unavailable")
	// The old ReplicaSet's last pods may still be terminating when the
	// rollout completes (Kubernetes counts them apart, in
	// terminatingReplicas, and a complete rollout does not wait for them);
	// the count falls to 0 once their kubelets confirm the deletions.
	if assert.NotNil(t, s.TerminatingReplicas) {
		assert.Eventually(t, func() bool {
			now, err := tryGetDeployment(d.Namespace, d.Name)
			return err == nil && now.Status.TerminatingReplicas != nil && *now.Status.TerminatingReplicas == 0
		}, waitFor, tick, "terminatingReplicas falls to 0 (it was %d when the rollout completed)", *s.TerminatingReplicas)
	}
	avail := condition(d, deployment.DeploymentAvailable)
	if assert.NotNil(t, avail) {
		assert.Equal(t, api.ConditionTrue, avail.Status)
		assert.Equal(t, "MinimumReplicasAvailable", avail.Reason)
		assert.Equal(t, "Deployment has minimum availability.", avail.Message)
	}
	prog := condition(d, deployment.DeploymentProgressing)
	if assert.NotNil(t, prog) {
		assert.Equal(t, api.ConditionTrue, prog.Status)
		assert.Equal(t, "NewReplicaSetAvailable", prog.Reason)
		assert.Equal(t, fmt.Sprintf("ReplicaSet %q has successfully progressed.", newRS), prog.Message)
	}
}

// describeNamespace summarises the ReplicaSets and pods of ns for failure
// messages.
func describeNamespace(t *testing.T, ns string) string {
	var b strings.Builder
	for _, rs := range listReplicaSets(t, ns) {
		fmt.Fprintf(&b, "rs %s: spec %d, status replicas %d ready %d available %d observed %d/%d, annotations %v\n",
			rs.Name, *rs.Spec.Replicas, rs.Status.Replicas, rs.Status.ReadyReplicas, rs.Status.AvailableReplicas,
			rs.Status.ObservedGeneration, rs.Generation, rs.Annotations)
	}
	counts := map[string]int{}
	for _, p := range listPods(t, ns, "") {
		ready := "not-ready"
		for _, c := range p.Status.Conditions {
			if c.Type == api.PodReady && c.Status == api.ConditionTrue {
				ready = "ready"
			}
		}
		state := string(p.Status.Phase) + "/" + ready
		if p.Spec.NodeName == "" {
			state += "/unscheduled" // the scheduler's part, not a kubelet's
		}
		if p.DeletionTimestamp != nil {
			state += "/terminating"
		}
		counts[p.Labels[deployment.DefaultDeploymentUniqueLabelKey]+" "+state]++
	}
	fmt.Fprintf(&b, "pods: %v", counts)
	return b.String()
}
