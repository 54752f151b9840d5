package conformance

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
)

func podSpec() corev1.PodSpec {
	return corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}
}

func TestClientGoTypedCRUDForEveryKind(t *testing.T) {
	ctx := context.Background()
	cs := clientset(t)
	ns := newNamespace(t)

	// ConfigMaps: create, get, list, update, patch, delete.
	cms := cs.CoreV1().ConfigMaps(ns)
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}, Data: map[string]string{"a": "1"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.NotEmpty(t, cm.UID)
	cm.Data["b"] = "2"
	cm, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	cm, err = cms.Patch(ctx, "cm", types.StrategicMergePatchType, []byte(`{"data":{"c":"3"}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"a": "1", "b": "2", "c": "3"}, cm.Data)
	list, err := cms.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	// As on any cluster, the root-CA publisher puts kube-root-ca.crt in
	// every namespace (perhaps not yet); nothing else but ours may be there.
	var names []string
	for _, item := range list.Items {
		if item.Name != "kube-root-ca.crt" {
			names = append(names, item.Name)
		}
	}
	assert.Equal(t, []string{"cm"}, names)
	assert.NotEmpty(t, list.ResourceVersion)
	require.NoError(t, cms.Delete(ctx, "cm", metav1.DeleteOptions{}))
	_, err = cms.Get(ctx, "cm", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)

	// Pods, with their status subresource and binding.
	pods := cs.CoreV1().Pods(ns)
	pod, err := pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: map[string]string{"app": "p"}},
		Spec: corev1.PodSpec{Containers: podSpec().Containers, SchedulerName: "nobody"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	pod.Status.Message = "from client-go"
	pod, err = pods.UpdateStatus(ctx, pod, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "from client-go", pod.Status.Message)
	require.NoError(t, pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Target: corev1.ObjectReference{Kind: "Node", Name: "node-1"}}, metav1.CreateOptions{}))
	pod, err = pods.Get(ctx, "p", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "node-1", pod.Spec.NodeName)
	byNode, err := pods.List(ctx, metav1.ListOptions{FieldSelector: "spec.nodeName=node-1", LabelSelector: "app=p"})
	require.NoError(t, err)
	assert.Len(t, byNode.Items, 1)
	require.NoError(t, pods.Delete(ctx, "p", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}))

	// ReplicaSets and their scale subresource.
	rss := cs.AppsV1().ReplicaSets(ns)
	_, err = rss.Create(ctx, &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs"}, Spec: appsv1.ReplicaSetSpec{
		Replicas: ptr.To[int32](0), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "rs"}},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "rs"}}, Spec: podSpec()},
	}}, metav1.CreateOptions{})
	require.NoError(t, err)
	scale, err := rss.GetScale(ctx, "rs", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(0), scale.Spec.Replicas)
	assert.Equal(t, "app=rs", scale.Status.Selector)
	_, err = rss.UpdateScale(ctx, "rs", &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: ns}, Spec: autoscalingv1.ScaleSpec{Replicas: 0}}, metav1.UpdateOptions{})
	require.NoError(t, err)
	rs, err := rss.Get(ctx, "rs", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int64(1), rs.Generation)
	require.NoError(t, rss.Delete(ctx, "rs", metav1.DeleteOptions{}))

	// Events, found by the involvedObject field selectors describe uses.
	evs := cs.CoreV1().Events(ns)
	_, err = evs.Create(ctx, &corev1.Event{ObjectMeta: metav1.ObjectMeta{Name: "e"},
		InvolvedObject: corev1.ObjectReference{Kind: "Pod", Name: "p", Namespace: ns, UID: pod.UID},
		Reason:         "Tested", Message: "m", Type: corev1.EventTypeNormal}, metav1.CreateOptions{})
	require.NoError(t, err)
	found, err := evs.List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=p,involvedObject.namespace=" + ns + ",involvedObject.uid=" + string(pod.UID) + ",involvedObject.kind=Pod,reason=Tested"})
	require.NoError(t, err)
	require.Len(t, found.Items, 1)
	assert.Equal(t, "Tested", found.Items[0].Reason)

	// Leases.
	leases := cs.CoordinationV1().Leases(ns)
	l, err := leases.Create(ctx, &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "l"}, Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("me"), LeaseDurationSeconds: ptr.To[int32](10), RenewTime: ptr.To(metav1.NowMicro())}}, metav1.CreateOptions{})
	require.NoError(t, err)
	l.Spec.HolderIdentity = ptr.To("you")
	l, err = leases.Update(ctx, l, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "you", *l.Spec.HolderIdentity)
	require.NoError(t, leases.Delete(ctx, "l", metav1.DeleteOptions{}))

	// Nodes and namespaces are cluster-scoped.
	nodeName := ns + "-node"
	node, err := cs.CoreV1().Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: nodeName}}, metav1.CreateOptions{})
	require.NoError(t, err)
	node.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, LastHeartbeatTime: metav1.Now(), LastTransitionTime: metav1.Now()}}
	_, err = cs.CoreV1().Nodes().UpdateStatus(ctx, node, metav1.UpdateOptions{})
	require.NoError(t, err)
	require.NoError(t, cs.CoreV1().Nodes().Delete(ctx, nodeName, metav1.DeleteOptions{}))
	nsObj, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.NamespaceActive, nsObj.Status.Phase)
}

func TestClientGoErrorsAreRecognised(t *testing.T) {
	ctx := context.Background()
	cs := clientset(t)
	ns := newNamespace(t)
	cms := cs.CoreV1().ConfigMaps(ns)
	_, err := cms.Get(ctx, "nope", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
	cm, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}, metav1.CreateOptions{})
	assert.True(t, apierrors.IsAlreadyExists(err), "%v", err)
	cm.Data = map[string]string{"v": "1"}
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	require.NoError(t, err)
	cm.Data = map[string]string{"v": "2"}
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{}) // cm still has the old resourceVersion
	assert.True(t, apierrors.IsConflict(err), "%v", err)
	_, err = cs.AppsV1().ReplicaSets(ns).Create(ctx, &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "bad"}, Spec: appsv1.ReplicaSetSpec{
		Replicas: ptr.To[int32](-1), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"a": "b"}}, Spec: podSpec()},
	}}, metav1.CreateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Contains(t, err.Error(), "spec.replicas")
}

func TestClientGoRetryOnConflictConverges(t *testing.T) {
	ctx := context.Background()
	cs := clientset(t)
	ns := newNamespace(t)
	cms := cs.CoreV1().ConfigMaps(ns)
	_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "counter"}, Data: map[string]string{"n": "0"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	const workers, each = 4, 5
	// retry.DefaultRetry gives up after 5 attempts, which 3 rivals can
	// defeat on a busy machine: every attempt of a worker can lose to a
	// rival's write. A worker loses at most once per rival write, so
	// workers*each attempts always suffice, and any lost update still shows.
	backoff := retry.DefaultRetry
	backoff.Steps = workers * each
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				errs <- retry.RetryOnConflict(backoff, func() error {
					cm, err := cms.Get(ctx, "counter", metav1.GetOptions{})
					if err != nil {
						return err
					}
					n, _ := strconv.Atoi(cm.Data["n"])
					cm.Data["n"] = strconv.Itoa(n + 1)
					_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
					return err
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	cm, err := cms.Get(ctx, "counter", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(workers*each), cm.Data["n"], "no increment lost")
}

func TestClientGoLeaderElectionHandsOver(t *testing.T) {
	ns := newNamespace(t)
	type candidate struct {
		cancel  context.CancelFunc
		leading chan struct{}
		done    chan struct{}
	}
	start := func(id string) *candidate {
		cs, err := kubernetes.NewForConfig(adminConfig(t))
		require.NoError(t, err)
		lock := &resourcelock.LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Name: "conformance-leader", Namespace: ns},
			Client:     cs.CoordinationV1(),
			LockConfig: resourcelock.ResourceLockConfig{Identity: id},
		}
		ctx, cancel := context.WithCancel(context.Background())
		c := &candidate{cancel: cancel, leading: make(chan struct{}), done: make(chan struct{})}
		le, err := leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
			Lock: lock, LeaseDuration: 3 * time.Second, RenewDeadline: 2 * time.Second, RetryPeriod: 200 * time.Millisecond,
			ReleaseOnCancel: true, Name: id,
			Callbacks: leaderelection.LeaderCallbacks{
				OnStartedLeading: func(context.Context) { close(c.leading) },
				OnStoppedLeading: func() {},
			},
		})
		require.NoError(t, err)
		go func() { defer close(c.done); le.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-c.done })
		return c
	}
	a := start("a")
	select {
	case <-a.leading:
	case <-time.After(30 * time.Second):
		t.Fatal("the first candidate never led")
	}
	b := start("b")
	cs := clientset(t)
	lease, err := cs.CoordinationV1().Leases(ns).Get(context.Background(), "conformance-leader", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "a", *lease.Spec.HolderIdentity)
	select {
	case <-b.leading:
		t.Fatal("b leads while a holds the lease")
	default:
	}
	a.cancel()
	select {
	case <-b.leading:
	case <-time.After(30 * time.Second):
		t.Fatal("the second candidate did not take over")
	}
	lease, err = cs.CoordinationV1().Leases(ns).Get(context.Background(), "conformance-leader", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "b", *lease.Spec.HolderIdentity)
}
