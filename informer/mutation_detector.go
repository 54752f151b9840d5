package informer

// Skip on a first reading: a debugging aid, not part of how an informer
// works and not a speed-up. It is off unless KUBELOOP_CACHE_MUTATION_DETECTOR
// is true, and the informer only hands it each stored object; like the
// workqueue's metrics it is counted apart by hack/linebudget.sh.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"sync"
	"time"

	"kubeloop/api"
)

// MutationDetector catches code that changes objects it got from a cache.
// It keeps a private deep copy of every object the informer stores and, on
// CompareObjects, reports the first object whose cached instance no longer
// equals its copy, naming the object and the field. client-go has the same
// tool (tools/cache/mutation_detector.go, KUBE_CACHE_MUTATION_DETECTOR);
// kubeloop turns it on with KUBELOOP_CACHE_MUTATION_DETECTOR=true.
type MutationDetector struct {
	name string
	// Fail is called with the report; it panics unless a test replaces it.
	Fail func(report string)
	// CheckPeriod is how often Run compares (client-go: 10 s).
	CheckPeriod time.Duration

	mu sync.Mutex
	// cached holds the newest stored instance per key; older instances have
	// left the cache, so changing them no longer corrupts it.
	cached map[string]cachedObject
}

type cachedObject struct {
	cached api.Object // the instance handed to handlers and listers
	copy   api.Object // what it looked like when stored
}

// NewMutationDetectorFromEnv returns a detector if the environment asks for
// one, else nil (a nil detector does nothing).
func NewMutationDetectorFromEnv(name string) *MutationDetector {
	if os.Getenv("KUBELOOP_CACHE_MUTATION_DETECTOR") != "true" {
		return nil
	}
	return NewMutationDetector(name)
}

// NewMutationDetector returns a detector that panics on a mutation.
func NewMutationDetector(name string) *MutationDetector {
	return &MutationDetector{name: name, Fail: func(r string) { panic(r) }, CheckPeriod: time.Second, cached: map[string]cachedObject{}}
}

// AddObject remembers obj as it is now.
func (d *MutationDetector) AddObject(obj any) {
	if d == nil {
		return
	}
	o, ok := obj.(api.Object)
	if !ok {
		return
	}
	key, err := api.MetaNamespaceKeyFunc(o)
	if err != nil {
		return
	}
	d.mu.Lock()
	d.cached[key] = cachedObject{cached: o, copy: o.DeepCopyObject()}
	d.mu.Unlock()
}

// Run compares every CheckPeriod until ctx ends.
func (d *MutationDetector) Run(ctx context.Context) {
	if d == nil {
		return
	}
	t := time.NewTicker(d.CheckPeriod)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			d.CompareObjects()
		}
	}
}

// CompareObjects checks every remembered object and calls Fail on the first
// one that changed.
func (d *MutationDetector) CompareObjects() {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	keys := make([]string, 0, len(d.cached))
	for k := range d.cached {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		c := d.cached[key]
		if reflect.DeepEqual(c.cached, c.copy) {
			continue
		}
		d.Fail(fmt.Sprintf("cache %s modified object %q: field %s changed; objects from an informer are shared, DeepCopy before changing them",
			d.name, key, firstDifference(c.copy, c.cached)))
		return
	}
}

// firstDifference names the first JSON field path where a and b differ.
func firstDifference(a, b api.Object) string {
	var am, bm any
	ab, _ := json.Marshal(a)
	bb, _ := json.Marshal(b)
	_ = json.Unmarshal(ab, &am)
	_ = json.Unmarshal(bb, &bm)
	if p := diffPath("", am, bm); p != "" {
		return p
	}
	return "(a field not on the wire)"
}

func diffPath(prefix string, a, b any) string {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			if d := diffPath(p, am[k], bm[k]); d != "" {
				return d
			}
		}
		return ""
	}
	as, aok := a.([]any)
	bs, bok := b.([]any)
	if aok && bok && len(as) == len(bs) {
		for i := range as {
			if d := diffPath(fmt.Sprintf("%s[%d]", prefix, i), as[i], bs[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if reflect.DeepEqual(a, b) {
		return ""
	}
	if prefix == "" {
		return "(root)"
	}
	return prefix
}
