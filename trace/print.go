package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Sort orders events by time (stable: the order of emission breaks ties).
func Sort(events []Event) {
	sort.SliceStable(events, func(i, j int) bool { return events[i].Time.Before(events[j].Time) })
}

// Header is the column line above Line's output.
const Header = "step  +ms       component            hop                     object                               rv      detail"

// Line is one event as a line of the printed trace, its time given as
// milliseconds after base. An event beside the spine shows "·" for a step.
func Line(e Event, base time.Time) string {
	step := "·"
	if e.Step != Off {
		step = fmt.Sprint(int(e.Step))
	}
	object := e.Key
	if e.Resource != "" {
		object = e.Resource + " " + e.Key
	}
	rv := e.ResourceVersion
	if rv == "" {
		rv = "-"
	}
	ms := float64(e.Time.Sub(base)) / float64(time.Millisecond)
	return fmt.Sprintf("%4s  %-8s  %-19s  %-22s  %-35s  %-6s  %s",
		step, fmt.Sprintf("+%.1f", ms), e.Component, e.Hop, object, rv, e.Detail)
}

// Print writes the header and one line per event (sorted first), times
// counted from the first event.
func Print(w io.Writer, events []Event) error {
	Sort(events)
	if _, err := fmt.Fprintln(w, Header); err != nil {
		return err
	}
	var base time.Time
	if len(events) > 0 {
		base = events[0].Time
	}
	for _, e := range events {
		if _, err := fmt.Fprintln(w, Line(e, base)); err != nil {
			return err
		}
	}
	return nil
}

// The diagram's participants, as the deep-dive declares them.
var participants = []struct{ id, name string }{
	{"K", "kubectl scale"}, {"A", "kube-apiserver"}, {"E", "etcd"},
	{"RS", "ReplicaSet controller"}, {"S", "scheduler"}, {"KL", "kubelet (node)"},
}

// participant is where a component sits in the diagram.
func participant(component string) string {
	switch {
	case component == "apiserver" || component == "watch cache":
		return "A"
	case component == "etcd":
		return "E"
	case component == Scheduler:
		return "S"
	case strings.HasPrefix(component, kubeletPrefix):
		return "KL"
	case component == ControllerManager || component == ReplicaSetQueue:
		return "RS"
	}
	return "K"
}

// arrow is the Mermaid arrow an event draws: requests go from their sender
// to the apiserver, writes from the apiserver to etcd, watch events from the
// apiserver to their receiver, and what happens inside a component is an
// arrow to itself.
func arrow(e Event) (from, to, kind string) {
	senders := map[Step]string{1: "K", 5: "RS", 7: "S", 10: "KL"}
	receivers := map[Step]string{3: "RS", 6: "S", 8: "KL", 10: "RS"}
	switch e.Hop {
	case APIServerReceived:
		if s, ok := senders[e.Step]; ok {
			return s, "A", "->>"
		}
		return "K", "A", "->>"
	case EtcdCommitted:
		return "A", "E", "->>"
	case WatchDispatched:
		if r, ok := receivers[e.Step]; ok {
			return "A", r, "-->>"
		}
		return "A", "A", "-->>"
	case PodCreate, SchedulerBind, StatusWritten:
		return participant(e.Component), "A", "->>"
	}
	p := participant(e.Component)
	return p, p, "->>"
}

// WriteMermaid writes the events as a Mermaid sequenceDiagram with the
// deep-dive's participants; each message starts with the event's step (the
// diagram's arrow number) and its time after the first event.
func WriteMermaid(w io.Writer, events []Event) error {
	Sort(events)
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for _, p := range participants {
		fmt.Fprintf(&b, "    participant %s as %s\n", p.id, p.name)
	}
	var base time.Time
	if len(events) > 0 {
		base = events[0].Time
	}
	for _, e := range events {
		from, to, kind := arrow(e)
		step := "·"
		if e.Step != Off {
			step = fmt.Sprint(int(e.Step))
		}
		fmt.Fprintf(&b, "    %s%s%s: %s\n", from, kind, to, mermaidText(message(step, e, base)))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// message is an arrow's text: the step, the hop and its object, the
// version and time, the detail. The participant says who, except which
// node: a kubelet's message names it.
func message(step string, e Event, base time.Time) string {
	msg := "[" + step + "] " + string(e.Hop) + " " + e.Key
	if strings.HasPrefix(e.Component, kubeletPrefix+"-") {
		msg += " on " + strings.TrimPrefix(e.Component, kubeletPrefix+"-")
	}
	if e.ResourceVersion != "" {
		msg += ", rv " + e.ResourceVersion
	}
	msg += fmt.Sprintf(", +%.0f ms", float64(e.Time.Sub(base))/float64(time.Millisecond))
	if e.Detail != "" {
		msg += " – " + e.Detail
	}
	return msg
}

// mermaidText keeps a message on one statement: ';' and '#' mean something
// to Mermaid, and a newline would end the message.
func mermaidText(s string) string {
	return strings.NewReplacer(";", ",", "#", "", "\n", " ").Replace(s)
}

// Follow prints the JSON lines of a /debug/trace stream as they come, the
// header first and times counted from the first event, until r ends.
func Follow(r io.Reader, w io.Writer) error {
	if _, err := fmt.Fprintln(w, Header); err != nil {
		return err
	}
	var base time.Time
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return fmt.Errorf("trace: %w", err)
		}
		if base.IsZero() {
			base = e.Time
		}
		if _, err := fmt.Fprintln(w, Line(e, base)); err != nil {
			return err
		}
	}
	return sc.Err()
}
