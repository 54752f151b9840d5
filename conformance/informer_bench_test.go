package conformance

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"kubeloop/api"
	"kubeloop/client"
	"kubeloop/informer"
	klinformers "kubeloop/informers"
)

// BenchmarkInformerInitialSync10kPods measures one informer's initial sync
// of 10,000 pods from the same kubeloop apiserver: kubeloop's informer
// against client-go's SharedInformerFactory (WatchList on, its default).
// The apiserver runs no controllers or nodes, so nothing else touches the
// pods.
func BenchmarkInformerInitialSync10kPods(b *testing.B) {
	const pods = 10000
	own := startOwnAPIServer(b)
	cs, err := kubernetes.NewForConfig(restConfig(own.url()))
	require.NoError(b, err)
	ctx := context.Background()
	ns := fmt.Sprintf("bench-%d", nsSeq.Add(1))
	_, err = cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	require.NoError(b, err)
	createPods(b, cs, ns, pods)

	b.Run("kubeloop", func(b *testing.B) {
		c, err := client.NewForConfig(&client.Config{Host: own.url()})
		require.NoError(b, err)
		info, ok := api.ForType[*api.Pod](api.Builtin())
		require.True(b, ok)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			ctx, cancel := context.WithCancel(context.Background())
			f := klinformers.NewClientInformerFactory(c, 0, nil)
			inf := f.InformerFor(info)
			f.Start(ctx)
			syncCtx, done := context.WithTimeout(ctx, 2*time.Minute)
			if !informer.WaitForCacheSync(syncCtx, inf.HasSynced) {
				b.Fatal("kubeloop informer did not sync")
			}
			done()
			b.StopTimer()
			if n := len(inf.GetIndexer().List()); n < pods {
				b.Fatalf("synced %d pods, want %d", n, pods)
			}
			cancel()
			f.Shutdown()
			b.StartTimer()
		}
		b.ReportMetric(float64(pods), "pods/sync")
	})
	b.Run("client-go", func(b *testing.B) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			stop := make(chan struct{})
			f := informers.NewSharedInformerFactory(cs, 0)
			inf := f.Core().V1().Pods().Informer()
			f.Start(stop)
			syncCtx, done := context.WithTimeout(context.Background(), 2*time.Minute)
			if !cache.WaitForCacheSync(syncCtx.Done(), inf.HasSynced) {
				b.Fatal("client-go informer did not sync")
			}
			done()
			b.StopTimer()
			if n := len(inf.GetStore().List()); n < pods {
				b.Fatalf("synced %d pods, want %d", n, pods)
			}
			close(stop)
			f.Shutdown()
			b.StartTimer()
		}
		b.ReportMetric(float64(pods), "pods/sync")
	})
}

// createPods creates n small pods with 16 writers.
func createPods(b *testing.B, cs kubernetes.Interface, ns string, n int) {
	b.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += 16 {
				_, err := cs.CoreV1().Pods(ns).Create(context.Background(), &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p-%05d", i), Labels: map[string]string{"app": "bench"}},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}, SchedulerName: "none"},
				}, metav1.CreateOptions{})
				if err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(b, err)
	}
}
