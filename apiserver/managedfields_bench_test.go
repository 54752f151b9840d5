package apiserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"kubeloop/api"
	"kubeloop/apiserver"
	"kubeloop/apiserver/apiservertest"
	"kubeloop/internal/benchtest"
)

// BenchmarkCreateUpdateManagedFields measures what managedFields tracking
// costs a write: each iteration creates a pod (three containers with
// ports, env and mounts) and replaces it with a new image and label, over
// HTTP with JSON at concurrency 16, once against the package's apiserver
// (tracking, as always in Kubernetes) and once against a second apiserver
// on the same etcd with Config.DisableManagedFields. Both sides first
// write a few pods untimed (connections, caches), then take turns in
// benchtest.Interleave's rounds, their order reversed every other round,
// so that neither goes first every time and a machine busy with something
// else slows both alike. It reports both rates, tracked/untracked (wall
// clock) and tracked/untracked-cpu (the inverse ratio of CPU time per pod,
// steadier on a busy machine); the target is ≥ 0.9.
func BenchmarkCreateUpdateManagedFields(b *testing.B) {
	// One untracked server for every call of the measured function (the
	// testing package calls it more than once, b.N = 1 first), stopped
	// when done: a server left running would go on decoding every pod
	// written after it in its watch cache.
	untracked := startUntracked(b)
	b.Run("kubeloop", func(b *testing.B) { benchmarkCreateUpdateManagedFields(b, untracked) })
}

func benchmarkCreateUpdateManagedFields(b *testing.B, untracked *apiservertest.Server) {
	const concurrency = 16
	writers := []*podWriter{newPodWriter(b, srv, true), newPodWriter(b, untracked, false)}
	arms := make([]*benchtest.Arm, len(writers))
	for i, w := range writers {
		runConcurrent(b, concurrency, 2*concurrency, w.createAndUpdate) // warm up, untimed
		arms[i] = &benchtest.Arm{Op: w.createAndUpdate}
	}
	gcBefore := gcCycles()
	benchtest.Interleave(b, concurrency, arms...)
	// The collector charges its work to whichever side runs while it
	// marks: with few collections, or rounds shorter than one, the ratio
	// is partly where they fell (make bench runs 10,000 pods a side for
	// that reason, Makefile).
	b.ReportMetric(float64(gcCycles()-gcBefore), "gc-cycles")
	tracked, plain := float64(arms[0].N)/arms[0].Elapsed.Seconds(), float64(arms[1].N)/arms[1].Elapsed.Seconds()
	b.ReportMetric(tracked, "tracked-pods/s")
	b.ReportMetric(plain, "untracked-pods/s")
	b.ReportMetric(tracked/plain, "tracked/untracked")
	// On a machine shared with other work the wall-clock rates swing;
	// the process's CPU time per pod (clients, servers and the embedded
	// etcd alike) is the steadier measure of what tracking costs.
	perPod := func(a *benchtest.Arm) float64 { return a.CPU.Seconds() / float64(a.N) }
	b.ReportMetric(perPod(arms[1])/perPod(arms[0]), "tracked/untracked-cpu")
	// What tracking adds to every stored (and watched) object: Kubernetes
	// stores managedFields too, so this cost is real there as well.
	b.ReportMetric(float64(writers[0].storedBytes()), "tracked-etcd-bytes/pod")
	b.ReportMetric(float64(writers[1].storedBytes()), "untracked-etcd-bytes/pod")
}

// BenchmarkManagedFieldsOneSide is BenchmarkCreateUpdateManagedFields
// one side at a time, both servers running: for profiles of each side
// (-cpuprofile, -memprofile, compared with pprof -diff_base) and the CPU
// time per pod of each (cpu-us/pod), which a neighbour's burst moves less
// than the interleaved ratio.
func BenchmarkManagedFieldsOneSide(b *testing.B) {
	untracked := startUntracked(b)
	for _, side := range []struct {
		name    string
		server  *apiservertest.Server
		tracked bool
	}{{"tracked", srv, true}, {"untracked", untracked, false}} {
		b.Run(side.name, func(b *testing.B) {
			const concurrency = 16
			w := newPodWriter(b, side.server, side.tracked)
			runConcurrent(b, concurrency, 2*concurrency, w.createAndUpdate) // warm up, untimed
			b.ResetTimer()
			cpu := benchtest.ProcessCPU(b)
			runConcurrent(b, concurrency, b.N, w.createAndUpdate)
			b.ReportMetric(float64((benchtest.ProcessCPU(b)-cpu).Microseconds())/float64(b.N), "cpu-us/pod")
		})
	}
}

// gcCycles is how many garbage collections the process has completed.
func gcCycles() uint64 {
	sample := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// startUntracked starts a second apiserver on the package's etcd with
// Config.DisableManagedFields, closed when b ends.
func startUntracked(b *testing.B) *apiservertest.Server {
	untracked, err := apiservertest.Start(srv.Etcd, apiserver.Config{DisableManagedFields: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(untracked.API.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := untracked.API.WaitReady(ctx); err != nil {
		b.Fatal(err)
	}
	return untracked
}

// storedBytes is the size of the value etcd holds for the last pod written.
func (w *podWriter) storedBytes() int {
	w.mu.Lock()
	key := "/registry/core/pods/" + w.ns + "/" + w.last
	w.mu.Unlock()
	resp, err := srv.Etcd.Client().Get(context.Background(), key)
	if err != nil || len(resp.Kvs) != 1 {
		w.b.Fatalf("read %s from etcd: %v", key, err)
	}
	return len(resp.Kvs[0].Value)
}

// podWriter creates and replaces pods in a namespace of its own.
type podWriter struct {
	b       *testing.B
	base    string
	tracked bool
	client  *http.Client
	next    func() int
	ns      string
	mu      sync.Mutex
	last    string // the name of a pod written
}

func newPodWriter(b *testing.B, s *apiservertest.Server, tracked bool) *podWriter {
	tr := s.HTTPClient().Transport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 64, 64
	w := &podWriter{b: b, base: s.URL, tracked: tracked, client: &http.Client{Transport: tr}}
	ns := fmt.Sprintf("mf-bench-%d", benchSeq.Add(1))
	if code, _ := w.do("POST", "/api/v1/namespaces", []byte(`{"metadata":{"name":"`+ns+`"}}`)); code != http.StatusCreated {
		b.Fatalf("create namespace: %d", code)
	}
	w.base += "/api/v1/namespaces/" + ns + "/pods"
	w.ns = ns
	seq := benchSeq.Add(1000000)
	w.next = func() int { return int(benchSeq.Add(1) + seq) }
	return w
}

func (w *podWriter) do(method, path string, body []byte) (int, []byte) {
	req, err := http.NewRequest(method, w.base+path, bytes.NewReader(body))
	if err != nil {
		w.b.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.client.Do(req)
	if err != nil {
		w.b.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

func (w *podWriter) createAndUpdate(int) error {
	name := fmt.Sprintf("p-%d", w.next())
	pod := benchPod(name, "app:1")
	body, _ := json.Marshal(pod)
	code, out := w.do("POST", "", body)
	if code != http.StatusCreated {
		return fmt.Errorf("create: %d %s", code, out)
	}
	pod = benchPod(name, "app:2")
	pod.Labels["version"] = "2"
	body, _ = json.Marshal(pod)
	code, out = w.do("PUT", "/"+name, body)
	if code != http.StatusOK {
		return fmt.Errorf("update: %d %s", code, out)
	}
	// The two servers must differ in exactly what is measured.
	var stored api.Pod
	if err := json.Unmarshal(out, &stored); err != nil {
		return err
	}
	if got := len(stored.ManagedFields) > 0; got != w.tracked {
		return fmt.Errorf("managedFields tracked=%v on a server with tracking=%v", got, w.tracked)
	}
	w.mu.Lock()
	w.last = name
	w.mu.Unlock()
	return nil
}

func benchPod(name, image string) *api.Pod {
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"app": "bench"}}}
	for i := range 3 {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: fmt.Sprintf("c%d", i), Image: image,
			Ports:        []api.ContainerPort{{Name: "http", ContainerPort: int32(8080 + i)}},
			Env:          []api.EnvVar{{Name: "A", Value: "1"}, {Name: "B", Value: "2"}},
			VolumeMounts: []api.VolumeMount{{Name: "data", MountPath: fmt.Sprintf("/data/%d", i)}}})
	}
	p.Spec.Volumes = []api.Volume{{Name: "data"}}
	return p
}
