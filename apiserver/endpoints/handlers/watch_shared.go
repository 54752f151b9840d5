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

import "kubeloop/api"

// objectEncoder is implemented by watches whose event objects are shared
// by many watchers (the watch cache's): each object is encoded once for
// all of them.
type objectEncoder interface {
	EncodeObject(obj api.Object, mediaType string, enc func(api.Object) ([]byte, error)) ([]byte, error)
}

// sharedEncoder is the watch's shared encoder, if it has one. The cache
// keys its memo by object and media type, so JSON and protobuf watchers of
// one resource each share their own encoding.
func sharedEncoder(watcher api.Watcher) objectEncoder {
	shared, _ := watcher.(objectEncoder)
	return shared
}
