package conformance

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"kubeloop/store"
)

// seen records what an informer's handler was told.
type seen struct {
	mu                    sync.Mutex
	adds, updates, delets map[string]int
}

func newSeen() *seen {
	return &seen{adds: map[string]int{}, updates: map[string]int{}, delets: map[string]int{}}
}

func name(obj any) string {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	return obj.(*corev1.ConfigMap).Name
}

func (s *seen) handler() cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { s.mu.Lock(); s.adds[name(o)]++; s.mu.Unlock() },
		UpdateFunc: func(_, o any) { s.mu.Lock(); s.updates[name(o)]++; s.mu.Unlock() },
		DeleteFunc: func(o any) { s.mu.Lock(); s.delets[name(o)]++; s.mu.Unlock() },
	}
}

func (s *seen) count(m func(*seen) map[string]int, key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return m(s)[key]
}

func storeNames(inf cache.SharedIndexInformer) []string {
	var out []string
	for _, o := range inf.GetStore().List() {
		// The shared cluster's root-CA publisher writes kube-root-ca.crt into
		// every new namespace, this test's too; only the test's own count.
		if name := o.(*corev1.ConfigMap).Name; name != "kube-root-ca.crt" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// TestClientGoInformerSyncsWatchesAndRelistsAfterCompaction runs client-go's
// SharedInformerFactory with WatchList on (the v0.37 default: one watch with
// sendInitialEvents) and off (LIST then WATCH), and breaks its watch across
// an etcd compaction so that resuming is a 410 and it must re-list.
func TestClientGoInformerSyncsWatchesAndRelistsAfterCompaction(t *testing.T) {
	for _, watchList := range []bool{true, false} {
		t.Run(fmt.Sprintf("WatchListClient=%v", watchList), func(t *testing.T) {
			clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, watchList)
			own := startOwnAPIServer(t)
			cs, err := kubernetes.NewForConfig(restConfig(own.url()))
			require.NoError(t, err)
			ctx := context.Background()
			ns := fmt.Sprintf("informer-%v-%d", watchList, nsSeq.Add(1))
			_, err = cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
			require.NoError(t, err)
			cms := cs.CoreV1().ConfigMaps(ns)
			create := func(c kubernetes.Interface, n string) {
				_, err := c.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: n}}, metav1.CreateOptions{})
				require.NoError(t, err)
			}
			for _, n := range []string{"cm1", "cm2", "cm3"} {
				create(cs, n)
			}

			factory := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace(ns))
			inf := factory.Core().V1().ConfigMaps().Informer()
			s := newSeen()
			_, err = inf.AddEventHandler(s.handler())
			require.NoError(t, err)
			stop := make(chan struct{})
			defer func() { close(stop); factory.Shutdown() }()
			factory.Start(stop)
			syncCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			require.True(t, cache.WaitForCacheSync(syncCtx.Done(), inf.HasSynced), "informer never synced")
			assert.Equal(t, []string{"cm1", "cm2", "cm3"}, storeNames(inf))
			lists, initial, _ := own.log.counts()
			if watchList {
				assert.Equal(t, 1, initial, "synced by one watch with sendInitialEvents")
				assert.Equal(t, 0, lists, "no LIST with WatchList on")
			} else {
				assert.Equal(t, 0, initial, "no sendInitialEvents with WatchList off")
				assert.GreaterOrEqual(t, lists, 1)
			}

			// Live events.
			create(cs, "cm4")
			cm1, err := cms.Get(ctx, "cm1", metav1.GetOptions{})
			require.NoError(t, err)
			cm1.Data = map[string]string{"v": "1"}
			_, err = cms.Update(ctx, cm1, metav1.UpdateOptions{})
			require.NoError(t, err)
			require.NoError(t, cms.Delete(ctx, "cm2", metav1.DeleteOptions{}))
			require.Eventually(t, func() bool {
				return s.count(func(s *seen) map[string]int { return s.adds }, "cm4") == 1 &&
					s.count(func(s *seen) map[string]int { return s.updates }, "cm1") >= 1 &&
					s.count(func(s *seen) map[string]int { return s.delets }, "cm2") == 1
			}, 30*time.Second, 20*time.Millisecond, "add, update and delete seen")

			// While the apiserver is down, another one changes the namespace
			// and etcd is compacted: the informer's resourceVersion is gone,
			// so resuming its watch is a 410 and it must re-list.
			syncs := func() int { l, i, _ := own.log.counts(); return l + i }
			before := syncs()
			own.stop()
			other := startOwnAPIServer(t)
			ocs, err := kubernetes.NewForConfig(restConfig(other.url()))
			require.NoError(t, err)
			create(ocs, "cm5")
			require.NoError(t, ocs.CoreV1().ConfigMaps(ns).Delete(ctx, "cm3", metav1.DeleteOptions{}))
			other.stop()
			// Any read returns the current revision in its header.
			resp, err := etcd.Client().Get(ctx, "/conformance/revision-probe")
			require.NoError(t, err)
			require.NoError(t, store.Compact(ctx, etcd.Client(), resp.Header.Revision))
			own.start()

			require.Eventually(t, func() bool {
				return fmt.Sprint(storeNames(inf)) == fmt.Sprint([]string{"cm1", "cm4", "cm5"})
			}, 60*time.Second, 50*time.Millisecond, "the informer re-lists to the current state")
			assert.Greater(t, syncs(), before, "recovered by re-listing")
			assert.Equal(t, 1, s.count(func(s *seen) map[string]int { return s.delets }, "cm3"))
			assert.Equal(t, 1, s.count(func(s *seen) map[string]int { return s.adds }, "cm5"))
		})
	}
}
