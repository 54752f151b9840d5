package cmd

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"

	"kubeloop/api"
	"kubeloop/client"
)

func newDescribeCommand(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "describe TYPE NAME",
		Short: "Show an object's key fields, its relations and its events",
		RunE: func(c *cobra.Command, args []string) error {
			cli, ts, err := f.resolve(args, false)
			for i := 0; err == nil && i < len(ts); i++ { // up to the first error
				if i > 0 {
					fmt.Fprintln(f.streams.Out)
				}
				err = describe(c.Context(), cli, f.streams.Out, ts[i])
			}
			return err
		},
	}
}

// describeWriter is kubectl's prefix writer: "Key:\tvalue" lines at an
// indent level, aligned by a tabwriter (kubectl/pkg/describe/describe.go).
type describeWriter struct{ tw *tabwriter.Writer }

func (w describeWriter) line(level int, format string, args ...any) {
	fmt.Fprintf(w.tw, strings.Repeat("  ", level)+format+"\n", args...)
}

// pairs prints a map one "k<sep>v" per line, sorted, the first after key.
func (w describeWriter) pairs(level int, key string, m map[string]string, sep string) {
	if len(m) == 0 {
		w.line(level, "%s:\t<none>", key)
	}
	label := key + ":"
	for _, k := range slices.Sorted(maps.Keys(m)) {
		w.line(level, "%s\t%s%s%s", label, k, sep, m[k])
		label = ""
	}
}

func (w describeWriter) meta(m api.ObjectMeta) {
	w.pairs(0, "Labels", m.Labels, "=")
	w.pairs(0, "Annotations", m.Annotations, ": ")
}

func (w describeWriter) controlledBy(m *api.ObjectMeta) {
	if ref := api.GetControllerOf(m); ref != nil {
		w.line(0, "Controlled By:\t%s/%s", ref.Kind, ref.Name)
	}
}

// describe prints one object. The kinds of the spine (pods, replicasets)
// get kubectl's layout; the rest get their metadata and their YAML.
func describe(ctx context.Context, cli *client.Client, out io.Writer, t target) error {
	obj, err := t.d.Get(ctx, t.name, client.GetOptions{})
	if err != nil {
		return err
	}
	w := describeWriter{tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)}
	m := obj.GetObjectMeta()
	w.line(0, "Name:\t%s", m.Name)
	if t.info.Namespaced {
		w.line(0, "Namespace:\t%s", m.Namespace)
	}
	switch o := obj.(type) {
	case *api.Pod:
		describePod(w, o)
	case *api.ReplicaSet:
		err = describeReplicaSet(ctx, cli, w, o)
	default:
		w.meta(*m)
		rest, _ := toMap(obj) // what is not metadata, as YAML
		delete(rest, "metadata")
		delete(rest, "apiVersion")
		delete(rest, "kind")
		if data, _ := yaml.Marshal(rest); len(rest) > 0 {
			for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
				w.line(0, "%s", strings.ReplaceAll(l, "\t", " ")) // YAML's tabs are no cells
			}
		}
	}
	if err == nil {
		err = describeEvents(ctx, cli, w, obj, t.info)
	}
	if err != nil {
		return err
	}
	return w.tw.Flush()
}

func describePod(w describeWriter, p *api.Pod) {
	node := "<none>"
	if p.Spec.NodeName != "" {
		node = p.Spec.NodeName + "/" + p.Status.HostIP
	}
	w.line(0, "Node:\t%s", node)
	if p.Status.StartTime != nil {
		w.line(0, "Start Time:\t%s", p.Status.StartTime.Format(time.RFC1123Z))
	}
	w.meta(p.ObjectMeta)
	w.line(0, "Status:\t%s", podPhase(p))
	w.line(0, "IP:\t%s", p.Status.PodIP)
	w.controlledBy(&p.ObjectMeta)
	w.line(0, "Containers:")
	for _, c := range p.Spec.Containers {
		var cs api.ContainerStatus // a container without a status yet is Waiting
		if i := slices.IndexFunc(p.Status.ContainerStatuses, func(s api.ContainerStatus) bool { return s.Name == c.Name }); i >= 0 {
			cs = p.Status.ContainerStatuses[i]
		}
		w.line(1, "%s:", c.Name)
		w.line(2, "Image:\t%s", c.Image)
		switch st := cs.State; {
		case st.Running != nil:
			w.line(2, "State:\tRunning")
			w.line(3, "Started:\t%s", st.Running.StartedAt.Format(time.RFC1123Z))
		case st.Terminated != nil:
			w.line(2, "State:\tTerminated")
			w.line(3, "Reason:\t%s", st.Terminated.Reason)
			w.line(3, "Exit Code:\t%d", st.Terminated.ExitCode)
		default:
			w.line(2, "State:\tWaiting")
			if st.Waiting != nil {
				w.line(3, "Reason:\t%s", st.Waiting.Reason)
			}
		}
		w.line(2, "Ready:\t%s", map[bool]string{true: "True", false: "False"}[cs.Ready])
		w.line(2, "Restart Count:\t%d", cs.RestartCount)
	}
	if len(p.Status.Conditions) > 0 {
		w.line(0, "Conditions:")
		w.line(1, "Type\tStatus")
		for _, c := range p.Status.Conditions {
			w.line(1, "%s\t%s", c.Type, c.Status)
		}
	}
}

// describeReplicaSet shows the selector relation: how many of the pods the
// selector matches and the ReplicaSet controls are in each phase.
func describeReplicaSet(ctx context.Context, cli *client.Client, w describeWriter, rs *api.ReplicaSet) error {
	selector := api.FormatLabelSelector(rs.Spec.Selector)
	w.line(0, "Selector:\t%s", selector)
	w.meta(rs.ObjectMeta)
	w.controlledBy(&rs.ObjectMeta)
	// The apiserver defaults spec.replicas, so a stored ReplicaSet has it.
	w.line(0, "Replicas:\t%d current / %d desired", rs.Status.Replicas, *rs.Spec.Replicas)
	pods, _, err := client.For[*api.Pod](cli).Namespace(rs.Namespace).ListAll(ctx, client.ListOptions{LabelSelector: selector})
	if err != nil {
		return err
	}
	phases := map[api.PodPhase]int{}
	for _, p := range pods {
		if ref := api.GetControllerOf(&p.ObjectMeta); ref != nil && ref.UID == rs.UID {
			phases[p.Status.Phase]++
		}
	}
	w.line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed",
		phases[api.PodRunning], phases[api.PodPending], phases[api.PodSucceeded], phases[api.PodFailed])
	w.line(0, "Pod Template:")
	w.pairs(1, "Labels", rs.Spec.Template.Labels, "=")
	w.line(1, "Containers:")
	for _, c := range rs.Spec.Template.Spec.Containers {
		w.line(1, " %s:", c.Name)
		w.line(2, "Image:\t%s", c.Image)
	}
	return nil
}

func describeEvents(ctx context.Context, cli *client.Client, w describeWriter, obj api.Object, info *api.ResourceInfo) error {
	m := obj.GetObjectMeta()
	sel, ns := "involvedObject.name="+m.Name+",involvedObject.uid="+m.UID, api.NamespaceDefault
	if info.Namespaced { // kubectl looks for events of cluster-scoped objects in "default"
		sel, ns = sel+",involvedObject.namespace="+m.Namespace, m.Namespace
	}
	events, _, err := client.For[*api.Event](cli).Namespace(ns).ListAll(ctx, client.ListOptions{FieldSelector: sel})
	if err != nil {
		return err
	}
	if len(events) == 0 {
		w.line(0, "Events:\t<none>")
		return nil
	}
	slices.SortStableFunc(events, func(a, b *api.Event) int { return eventTime(a).Compare(eventTime(b)) })
	w.line(0, "Events:")
	w.line(1, "Type\tReason\tAge\tFrom\tMessage")
	w.line(1, "----\t------\t----\t----\t-------")
	now := time.Now()
	for _, e := range events {
		from := cmp.Or(e.Source.Component, e.ReportingController)
		if e.Source.Host != "" {
			from += ", " + e.Source.Host
		}
		age := api.HumanAge(api.Time{Time: eventTime(e)}, now)
		if e.Count > 1 && !e.FirstTimestamp.IsZero() {
			age = fmt.Sprintf("%s (x%d over %s)", age, e.Count, api.HumanAge(e.FirstTimestamp, now))
		}
		w.line(1, "%s\t%s\t%s\t%s\t%s", e.Type, e.Reason, age, from, strings.TrimSpace(e.Message))
	}
	return nil
}

// podPhase is describe's Status line as kubectl describe prints it: the
// phase, or Terminating once deletion has begun. The STATUS column of get,
// with the containers' reasons, is the server's (apiserver/printers).
func podPhase(p *api.Pod) string {
	if p.DeletionTimestamp != nil {
		return "Terminating"
	}
	return string(p.Status.Phase)
}

// eventTime is when an event last happened; events.k8s.io events set eventTime.
func eventTime(e *api.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}
