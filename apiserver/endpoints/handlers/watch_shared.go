package handlers

// Skip on a first reading: this file is a speed-up. serveWatch is complete
// without it (every event object is then encoded by its own watch).
//
// What it saves: a change to one object goes to every watcher of its
// resource — hundreds of informers in a real cluster. The watch cache hands
// all of them the same event object, so its encoding can be made once and
// shared instead of made once per watcher: N watchers cost one json.Marshal
// per event, not N. TestWatchersOfOneResourceGetTheSameBytes checks the
// bytes are identical; the watch fan-out benchmark
// (watchcache/bench_test.go, BenchmarkFanout1000Watchers) and the
// apiserver's create benchmark (apiserver/bench_test.go) measure it.
// Kubernetes does the same with cachingObject
// (staging/src/k8s.io/apiserver/pkg/storage/cacher/caching_object.go).

import (
	"kubeloop/api"
	"kubeloop/apiserver/serializer"
)

// objectEncoder is implemented by watches whose event objects are shared
// by many watchers (the watch cache's): each object is encoded once for
// all of them.
type objectEncoder interface {
	EncodeObject(obj api.Object, enc func(api.Object) ([]byte, error)) ([]byte, error)
}

// sharedEncoder is the watch's shared encoder, if it has one. The cache
// keys its memo by the object alone, so only one media type may use it:
// JSON. (A second streamed media type needs the memo keyed by media type.)
func sharedEncoder(watcher api.Watcher, si serializer.SerializerInfo) objectEncoder {
	if si.MediaType != serializer.ContentTypeJSON {
		return nil
	}
	shared, _ := watcher.(objectEncoder)
	return shared
}
