package cmd

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
)

// The steps of the spine, numbered as in the sequence diagram of the
// deep-dive (section 1, "scale to 5"):
//
//	1 K->>A    the write          6 A-->>S   new pending pod
//	2 A->>E    stored (rv++)      7 S->>A    binding
//	3 A-->>RS  the watch event    8 A-->>KL  bound pod on a node
//	4 RS->>A   sync (status)      9 KL->>KL  containers started
//	5 RS->>A   pods created      10 KL->>A   pod status
const (
	stepWrite, stepStore, stepWatch, stepSync, stepCreate   = 1, 2, 3, 4, 5
	stepPending, stepBind, stepBound, stepStart, stepStatus = 6, 7, 8, 9, 10
)

func newWatchSpineCommand(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "watch-spine TYPE NAME",
		Short: "Print, as they happen, the steps of the control loop for one object",
		Long: "watch-spine watches the object, its pods and the events about them, and prints each\n" +
			"observed step numbered like the spine's sequence diagram, with its resourceVersion.\n" +
			"It prints only what it sees; it runs until interrupted.",
		RunE: func(c *cobra.Command, args []string) error {
			cli, t, err := f.resolveOne(args, "watch-spine")
			if err == nil && t.info.Kind != "ReplicaSet" && t.info.Kind != "Pod" {
				err = usageErrorf("watch-spine takes one replicaset or pod")
			}
			if err != nil {
				return err
			}
			s := &spine{out: f.streams.Out, kind: t.info.Kind, name: t.name,
				pods: map[string]*api.Pod{}, pendingEvents: map[string][]*api.Event{}}
			return s.run(c.Context(), cli, t.d, f.namespace)
		},
	}
}

// spine is the state of one watch-spine: what it has seen so far, so that
// each new observation can be told apart from the last (a binding is
// nodeName going from "" to a node, a status change is a new phase).
type spine struct {
	out        io.Writer
	kind, name string
	target     api.Object // last seen version of the watched object, nil before it exists
	// pods are the target's pods (or the target pod), by UID.
	pods map[string]*api.Pod
	// pendingEvents are events about a UID not yet known to be one of our
	// pods: the event watch and the pod watch are separate streams, so an
	// event can arrive before the pod it is about.
	pendingEvents map[string][]*api.Event
}

func (s *spine) print(step int, rv, arrow, format string, args ...any) {
	fmt.Fprintf(s.out, "%2d  rv=%-6s %-8s %s\n", step, rv, arrow, fmt.Sprintf(format, args...))
}

// run watches the target, the pods and the events of its namespace, all
// from one resourceVersion: kubeloop's resourceVersion is the etcd revision,
// one clock for every resource, so the three watches start at the same instant.
func (s *spine) run(ctx context.Context, cli *client.Client, d *client.DynamicResource, ns string) error {
	items, rv, err := d.ListAll(ctx, client.ListOptions{FieldSelector: nameSelector(s.name)})
	if err != nil {
		return err
	}
	format := "waiting for %s/%s to be created (resourceVersion %s)\n"
	if len(items) == 1 {
		s.target, format = items[0], "watching %s/%s from resourceVersion %s\n"
	}
	fmt.Fprintf(s.out, format, strings.ToLower(s.kind), s.name, rv)
	watches := make([]api.Watcher, 3)
	for i, r := range []*client.DynamicResource{d, client.For[*api.Pod](cli).Namespace(ns).Dynamic(), client.For[*api.Event](cli).Namespace(ns).Dynamic()} {
		opts := client.ListOptions{ResourceVersion: rv}
		if i == 0 {
			opts.FieldSelector = nameSelector(s.name)
		}
		if watches[i], err = r.Watch(ctx, opts); err != nil {
			return err
		}
		defer watches[i].Stop()
	}
	if pod, ok := s.target.(*api.Pod); ok {
		s.pods[pod.UID] = pod
	}
	for {
		var ev api.WatchEvent
		var ok bool
		select {
		case <-ctx.Done():
			return nil
		case ev, ok = <-watches[0].ResultChan():
			if ok && ev.Type != api.Error && ev.Type != api.Bookmark {
				s.onTarget(ev)
			}
		case ev, ok = <-watches[1].ResultChan():
			if pod, isPod := ev.Object.(*api.Pod); ok && isPod && ev.Type != api.Bookmark {
				s.onPod(ev.Type, pod)
			}
		case ev, ok = <-watches[2].ResultChan():
			if e, isEvent := ev.Object.(*api.Event); ok && isEvent && ev.Type == api.Added {
				s.onEvent(e)
			}
		}
		if !ok {
			return fmt.Errorf("a watch ended; start watch-spine again")
		}
		if ev.Type == api.Error {
			return fmt.Errorf("watch error: %v", ev.Object)
		}
	}
}

// onTarget reports writes to the watched object: a spec change is steps
// 1-3 (the write, its revision, the watch event every informer receives), a
// status change is the controller's sync (4) or, for a pod, the kubelet's (10).
func (s *spine) onTarget(ev api.WatchEvent) {
	m := ev.Object.GetObjectMeta()
	rv, what := m.ResourceVersion, strings.ToLower(s.kind)+"/"+s.name
	prev := s.target
	s.target = ev.Object
	switch {
	case ev.Type == api.Deleted:
		s.print(stepWatch, rv, "A-->>RS", "watch DELETED %s", what)
		return
	case prev == nil || prev.GetObjectMeta().Generation != m.Generation:
		replicas := ""
		if rs, ok := ev.Object.(*api.ReplicaSet); ok {
			replicas = fmt.Sprintf(" spec.replicas=%d", *rs.Spec.Replicas) // defaulted by the apiserver
		}
		s.print(stepWrite, rv, "K->>A", "write %s%s (generation %d)", what, replicas, m.Generation)
		s.print(stepStore, rv, "A->>E", "stored in etcd at resourceVersion %s", rv)
		s.print(stepWatch, rv, "A-->>RS", "watch %s %s: a hint to re-read, not an instruction", ev.Type, what)
	}
	if rs, ok := ev.Object.(*api.ReplicaSet); ok && rs.Status.ObservedGeneration > 0 {
		st, old := rs.Status, &api.ReplicaSetStatus{}
		if prevRS, ok := prev.(*api.ReplicaSet); ok {
			old = &prevRS.Status
		}
		if old.Replicas != st.Replicas || old.ReadyReplicas != st.ReadyReplicas || old.ObservedGeneration != st.ObservedGeneration {
			s.print(stepSync, rv, "RS->>A", "status replicas=%d ready=%d observedGeneration=%d", st.Replicas, st.ReadyReplicas, st.ObservedGeneration)
		}
	}
	// A pod target's binding and status are reported by onPod, from the pod
	// watch, which sees the same writes.
	s.flushEvents(m.UID)
}

// onPod reports the life of one of our pods: created and pending (6), bound
// (7, 8), its status (10), deleted.
func (s *spine) onPod(typ api.EventType, pod *api.Pod) {
	if !s.ours(pod) {
		return
	}
	rv, what := pod.ResourceVersion, "pod/"+pod.Name
	prev, known := s.pods[pod.UID]
	s.pods[pod.UID] = pod
	switch {
	case typ == api.Deleted:
		s.print(stepWatch, rv, "A-->>RS", "watch DELETED %s", what)
		delete(s.pods, pod.UID)
		return
	case !known && pod.Spec.NodeName == "":
		s.print(stepPending, rv, "A-->>S", "watch ADDED %s: pending, no node yet", what)
	}
	if (prev == nil || prev.Spec.NodeName == "") && pod.Spec.NodeName != "" {
		s.print(stepBind, rv, "S->>A", "%s bound to node %s", what, pod.Spec.NodeName)
		s.print(stepBound, rv, "A-->>KL", "watch MODIFIED %s, now on node %s's list", what, pod.Spec.NodeName)
	}
	if prev != nil && prev.DeletionTimestamp == nil && pod.DeletionTimestamp != nil {
		s.print(stepWatch, rv, "A-->>KL", "%s is terminating", what)
	}
	// A new pod's Pending phase is the apiserver's default, not a report:
	// only changes after creation are the kubelet's.
	if prev != nil && (podPhase(prev) != podPhase(pod) || readyCount(prev) != readyCount(pod)) {
		s.print(stepStatus, rv, "KL->>A", "%s status %s, ready %d/%d", what, podPhase(pod), readyCount(pod), len(pod.Spec.Containers))
	}
	s.flushEvents(pod.UID)
}

// ours: the target pod itself, or a pod the target ReplicaSet controls.
func (s *spine) ours(pod *api.Pod) bool {
	if s.kind == "Pod" {
		return pod.Name == s.name
	}
	if s.target == nil {
		return false
	}
	return slices.ContainsFunc(pod.OwnerReferences, func(ref api.OwnerReference) bool { return ref.UID == s.target.GetObjectMeta().UID })
}

func readyCount(p *api.Pod) (n int) {
	for _, cs := range p.Status.ContainerStatuses {
		if cs.Ready {
			n++
		}
	}
	return n
}

// onEvent reports an Event about the target or one of its pods, at the step
// of the component that recorded it.
func (s *spine) onEvent(e *api.Event) {
	uid := e.InvolvedObject.UID
	if s.target == nil || uid != s.target.GetObjectMeta().UID {
		if _, ok := s.pods[uid]; !ok {
			if len(s.pendingEvents) > 1000 {
				clear(s.pendingEvents) // events about pods that never became ours
			}
			s.pendingEvents[uid] = append(s.pendingEvents[uid], e)
			return
		}
	}
	from := cmp.Or(e.Source.Component, e.ReportingController)
	step, arrow := stepSync, "RS->>A"
	switch {
	case strings.Contains(from, "scheduler"):
		step, arrow = stepBind, "S->>A"
	case strings.Contains(from, "kubelet"):
		step, arrow = stepStart, "KL->>KL"
	case e.Reason == "SuccessfulCreate" || e.Reason == "SuccessfulDelete":
		step = stepCreate
	}
	s.print(step, e.ResourceVersion, arrow, "event %s %s/%s: %s", e.Reason,
		strings.ToLower(e.InvolvedObject.Kind), e.InvolvedObject.Name, strings.TrimSpace(e.Message))
}

func (s *spine) flushEvents(uid string) {
	events := s.pendingEvents[uid]
	delete(s.pendingEvents, uid)
	for _, e := range events {
		s.onEvent(e)
	}
}
