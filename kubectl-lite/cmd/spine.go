package cmd

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"kubeloop/api"
	"kubeloop/client"
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
				seen: map[string]api.Object{}, early: map[string][]*api.Event{}}
			return s.run(c.Context(), cli, t.d, f.namespace)
		},
	}
}

// spine is what one watch-spine has seen, so that each new version of an
// object can be told apart from the last (a binding is nodeName going from
// "" to a node).
type spine struct {
	out        io.Writer
	kind, name string
	targetUID  string                // "" until the target exists
	seen       map[string]api.Object // the last version of the target and of each of its pods, by UID
	// early are events about a UID not yet seen: the event watch and the
	// object watches are separate streams, so an event can come first.
	early map[string][]*api.Event
}

// print writes one step, numbered and drawn as its arrow in the sequence
// diagram of the deep-dive (section 1, "scale to 5"):
//
//	1 K->>A    the write          6 A-->>S   new pending pod
//	2 A->>E    stored (rv++)      7 S->>A    binding
//	3 A-->>RS  the watch event    8 A-->>KL  bound pod on a node
//	4 RS->>A   sync (status)      9 KL->>KL  containers started
//	5 RS->>A   pods created      10 KL->>A   pod status
func (s *spine) print(step int, rv, arrow, format string, args ...any) {
	fmt.Fprintf(s.out, "%2d  rv=%-6s %-8s %s\n", step, rv, arrow, fmt.Sprintf(format, args...))
}

// run watches the target, the pods and the events of its namespace, all
// from one resourceVersion: kubeloop's resourceVersion is the etcd revision,
// one clock for every resource, so the three watches start at the same instant.
func (s *spine) run(ctx context.Context, cli *client.Client, d *client.DynamicResource, ns string) error {
	items, rv, err := d.ListAll(ctx, client.ListOptions{FieldSelector: "metadata.name=" + s.name})
	if err != nil {
		return err
	}
	format := "waiting for %s/%s to be created (resourceVersion %s)\n"
	if len(items) == 1 {
		m := items[0].GetObjectMeta()
		s.targetUID, s.seen[m.UID] = m.UID, items[0]
		format = "watching %s/%s from resourceVersion %s\n"
	}
	fmt.Fprintf(s.out, format, strings.ToLower(s.kind), s.name, rv)
	var watches [3]<-chan api.WatchEvent // the target, its pods, the events
	for i, r := range []*client.DynamicResource{d, client.For[*api.Pod](cli).Namespace(ns).Dynamic(), client.For[*api.Event](cli).Namespace(ns).Dynamic()} {
		opts := client.ListOptions{ResourceVersion: rv}
		switch {
		case i == 0:
			opts.FieldSelector = "metadata.name=" + s.name
		case i == 1 && s.kind == "Pod":
			continue // a pod target's watch is the pod watch: no second copy of each version
		}
		w, err := r.Watch(ctx, opts)
		if err != nil {
			return err
		}
		defer w.Stop()
		watches[i] = w.ResultChan()
	}
	for {
		var ev api.WatchEvent
		var ok bool
		select {
		case <-ctx.Done():
			return nil
		case ev, ok = <-watches[0]:
		case ev, ok = <-watches[1]:
		case ev, ok = <-watches[2]:
		}
		e, isEvent := ev.Object.(*api.Event)
		switch {
		case !ok:
			return fmt.Errorf("a watch ended; start watch-spine again")
		case ev.Type == api.Error:
			return fmt.Errorf("watch error: %v", ev.Object)
		case isEvent && ev.Type == api.Added: // an Event's repeats are MODIFIED: its count
			s.onEvent(e)
		case !isEvent: // no BOOKMARKs: not asked for
			s.onObject(ev.Type, ev.Object)
		}
	}
}

// onObject reports what a version of the target or of one of its pods
// changed since the last version seen, level-triggered like a controller.
// A new generation of the target is steps 1-3 (the write, its revision, the
// watch event every informer receives), a ReplicaSet's new status is its
// controller's sync (4); a pod is pending (6), bound (7, 8), terminating, and
// its status changes (10).
func (s *spine) onObject(typ api.EventType, obj api.Object) {
	m := obj.GetObjectMeta()
	pod, isPod := obj.(*api.Pod)
	isTarget := !isPod || s.kind == "Pod" && m.Name == s.name
	if ref := api.GetControllerOf(m); !isTarget && (ref == nil || ref.UID != s.targetUID) {
		return // a pod the target does not control
	}
	rv, what := m.ResourceVersion, "pod/"+m.Name
	if isTarget {
		s.targetUID, what = m.UID, strings.ToLower(s.kind)+"/"+s.name
	}
	prev, known := s.seen[m.UID]
	if typ == api.Deleted {
		if known {
			s.print(3, rv, "A-->>RS", "watch DELETED %s", what)
		}
		delete(s.seen, m.UID)
		return
	}
	s.seen[m.UID] = obj
	defer s.flushEvents(m.UID)
	if isTarget && (!known || prev.GetObjectMeta().Generation != m.Generation) {
		replicas := ""
		if rs, ok := obj.(*api.ReplicaSet); ok {
			replicas = fmt.Sprintf(" spec.replicas=%d", *rs.Spec.Replicas) // defaulted by the apiserver
		}
		s.print(1, rv, "K->>A", "write %s%s (generation %d)", what, replicas, m.Generation)
		s.print(2, rv, "A->>E", "stored in etcd at resourceVersion %s", rv)
		s.print(3, rv, "A-->>RS", "watch %s %s: a hint to re-read, not an instruction", typ, what)
	}
	if rs, ok := obj.(*api.ReplicaSet); ok && rs.Status.ObservedGeneration > 0 {
		if old, _ := prev.(*api.ReplicaSet); old == nil || syncStatus(old) != syncStatus(rs) {
			s.print(4, rv, "RS->>A", "%s", syncStatus(rs))
		}
	}
	if !isPod {
		return
	}
	old, _ := prev.(*api.Pod) // nil for a new pod
	switch {
	case old == nil && pod.Spec.NodeName == "":
		s.print(6, rv, "A-->>S", "watch ADDED %s: pending, no node yet", what)
	case (old == nil || old.Spec.NodeName == "") && pod.Spec.NodeName != "":
		s.print(7, rv, "S->>A", "%s bound to node %s", what, pod.Spec.NodeName)
		s.print(8, rv, "A-->>KL", "watch MODIFIED %s, now on node %s's list", what, pod.Spec.NodeName)
	}
	if old != nil && old.DeletionTimestamp == nil && pod.DeletionTimestamp != nil {
		s.print(3, rv, "A-->>KL", "%s is terminating", what)
	}
	// A new pod's Pending phase is the apiserver's default, not a report:
	// only changes after creation are the kubelet's.
	if old != nil && podStatus(old) != podStatus(pod) {
		s.print(10, rv, "KL->>A", "%s %s", what, podStatus(pod))
	}
}

// syncStatus is what the ReplicaSet controller's sync reports (step 4).
func syncStatus(rs *api.ReplicaSet) string {
	st := rs.Status
	return fmt.Sprintf("status replicas=%d ready=%d observedGeneration=%d", st.Replicas, st.ReadyReplicas, st.ObservedGeneration)
}

// podStatus is what the kubelet reports of a pod (step 10).
func podStatus(p *api.Pod) string {
	ready := 0
	for _, cs := range p.Status.ContainerStatuses {
		if cs.Ready {
			ready++
		}
	}
	return fmt.Sprintf("status %s, ready %d/%d", podPhase(p), ready, len(p.Spec.Containers))
}

// onEvent reports an Event about the target or one of its pods, at the step
// of the component that recorded it.
func (s *spine) onEvent(e *api.Event) {
	uid := e.InvolvedObject.UID
	if _, ok := s.seen[uid]; !ok && uid != s.targetUID {
		if len(s.early) > 1000 {
			clear(s.early) // events about pods that never became ours
		}
		s.early[uid] = append(s.early[uid], e)
		return
	}
	from := cmp.Or(e.Source.Component, e.ReportingController)
	step, arrow := 4, "RS->>A"
	switch {
	case strings.Contains(from, "scheduler"):
		step, arrow = 7, "S->>A"
	case strings.Contains(from, "kubelet"):
		step, arrow = 9, "KL->>KL"
	case e.Reason == "SuccessfulCreate" || e.Reason == "SuccessfulDelete":
		step = 5
	}
	s.print(step, e.ResourceVersion, arrow, "event %s %s/%s: %s", e.Reason,
		strings.ToLower(e.InvolvedObject.Kind), e.InvolvedObject.Name, strings.TrimSpace(e.Message))
}

func (s *spine) flushEvents(uid string) {
	events := s.early[uid]
	delete(s.early, uid)
	for _, e := range events {
		s.onEvent(e)
	}
}
