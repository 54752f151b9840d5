// Skip on a first reading: the trace hooks (docs/trace.md), counted apart
// like the metrics. While the trace is off each returns at its first line.

package store

import (
	"context"
	"strconv"

	"kubeloop/api"
	"kubeloop/trace"
)

// traceWriting tells the trace which arrow the write of obj about to go to
// etcd is (the apiserver put it in ctx), for watch events that arrive
// before the answer does.
func (s *Store) traceWriting(ctx context.Context, obj api.Object) {
	if trace.On() {
		m := obj.GetObjectMeta()
		trace.WriteStarting(m.Namespace+"/"+m.Name, trace.CommitStep(trace.StepFrom(ctx)))
	}
}

// traceCommitted reports a successful etcd transaction ("etcd committed")
// and remembers the revision's arrow, so that the watch events carrying it
// are numbered by their cause.
func (s *Store) traceCommitted(ctx context.Context, verb string, obj api.Object, rev int64) {
	if !trace.On() {
		return
	}
	rv := strconv.FormatInt(rev, 10)
	e := trace.ObjectEvent(trace.CommitStep(trace.StepFrom(ctx)), trace.EtcdCommitted, "etcd", s.info.Resource, obj, verb+" at revision "+rv)
	trace.RecordWrite(rv, e.Key, e.Step)
	trace.Emit(e)
}
