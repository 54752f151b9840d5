package filters

// Skip on a first reading: this file is a speed-up. Without it every
// request's goroutine grows its stack where it first runs out, which is
// what Kubernetes' apiserver does too.
//
// What it saves: net/http starts a goroutine per HTTP/2 stream, and a new
// goroutine's stack starts small (the runtime's estimate from the average
// goroutine, most of which here are idle watchers). A create needs tens
// of KiB: the filters, the handler, then encoding/json's recursive
// decoder. The stack ran out deep inside the JSON decode, two or three
// times per request, and each time the runtime copied a stack of forty
// frames, looking up every frame's stack map: runtime.newstack was 7.5 %
// of the CPU of BenchmarkCreateConfigMaps (apiserver/bench_test.go, both
// sides). Growing it once, at the top of the filter chain where only a
// few frames are live, costs one copy of a shallow stack and the zeroing
// of the frame that forces it: in that benchmark's profile the handlers'
// CPU fell by about 12 µs per create, of which growStack spends 3.
// BenchmarkGrownStack (growstack_test.go) does a create's decode and
// encode on a fresh goroutine per request, as net/http does, with and
// without it: 19.5 against 25.5 µs of CPU per request.
//
// Long-running requests (IsLongRunning: watches, exec, logs) are left
// alone: their goroutines live for minutes, mostly waiting on a channel,
// and thousands of them would each hold a grown stack until a garbage
// collection shrinks it.

import (
	"net/http"

	"kubeloop/apiserver/endpoints/request"
)

// requestStack is the stack a request's goroutine is grown to: enough for a
// create or update of a typical object with managedFields.
const requestStack = 32 << 10

// WithGrownStack grows the goroutine's stack before next runs, for a
// request that is not long-running. It runs inside WithRequestInfo.
func WithGrownStack(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if info, ok := request.RequestInfoFrom(r.Context()); !ok || !IsLongRunning(info) {
			growStack()
		}
		next.ServeHTTP(w, r)
	})
}

// growStack has a frame of about requestStack bytes; entering it makes the
// runtime grow the stack to hold it (one copy), and the stack stays grown
// when it returns, until a garbage collection finds it mostly unused.
//
//go:noinline
func growStack() {
	var frame [requestStack - 4<<10]byte
	keepFrame(&frame)
}

// keepFrame is given the frame so that the compiler keeps it; the frame
// does not escape, so it stays on the stack.
//
//go:noinline
func keepFrame(*[requestStack - 4<<10]byte) {}
