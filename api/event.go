package api

// Event is a report of something that happened to an object: "Scheduled",
// "Pulled", "SuccessfulCreate". kubectl describe lists the events whose
// involvedObject is the described object (core/v1 Event, not events.k8s.io).
type Event struct {
	// Kind "Event" and apiVersion "v1".
	TypeMeta `json:",inline"`
	// Standard object metadata; an event lives in the namespace of the
	// object it is about (default for cluster-scoped ones).
	ObjectMeta `json:"metadata" protobuf:"bytes,1,opt,name=metadata"`
	// The object the event is about.
	InvolvedObject ObjectReference `json:"involvedObject" protobuf:"bytes,2,opt,name=involvedObject" structType:"atomic"`
	// Short CamelCase cause, meant for programs: "Scheduled", "BackOff".
	Reason string `json:"reason,omitempty" protobuf:"bytes,3,opt,name=reason"`
	// Human-readable description of what happened.
	Message string `json:"message,omitempty" protobuf:"bytes,4,opt,name=message"`
	// The component (and host) that reported the event.
	Source EventSource `json:"source,omitempty" protobuf:"bytes,5,opt,name=source"`
	// When the first of these repeated occurrences was recorded.
	FirstTimestamp Time `json:"firstTimestamp,omitempty" protobuf:"bytes,6,opt,name=firstTimestamp"`
	// When the latest occurrence was recorded.
	LastTimestamp Time `json:"lastTimestamp,omitempty" protobuf:"bytes,7,opt,name=lastTimestamp"`
	// How many times the event happened; repeats bump it instead of
	// creating new events.
	Count int32 `json:"count,omitempty" protobuf:"varint,8,opt,name=count"`
	// "Normal" or "Warning"; more types may follow.
	Type string `json:"type,omitempty" protobuf:"bytes,9,opt,name=type"`
	// When the event was first observed, to the microsecond; set by newer
	// reporters (events.k8s.io style) instead of firstTimestamp.
	EventTime MicroTime `json:"eventTime,omitempty" protobuf:"bytes,10,opt,name=eventTime"`
	// Counts a repeating event; nil for a one-off.
	Series *EventSeries `json:"series,omitempty" protobuf:"bytes,11,opt,name=series"`
	// What the reporter did or failed to do to the object, such as "Binding".
	Action string `json:"action,omitempty" protobuf:"bytes,12,opt,name=action"`
	// A second object the action involved, if any.
	Related *ObjectReference `json:"related,omitempty" protobuf:"bytes,13,opt,name=related" structType:"atomic"`
	// Name of the reporting controller, such as "kubernetes.io/kubelet".
	// ---
	// Not omitempty in Kubernetes: events from old clients carry "".
	ReportingController string `json:"reportingComponent" protobuf:"bytes,14,opt,name=reportingComponent"`
	// ID of the reporting controller instance, such as "kubelet-node1".
	ReportingInstance string `json:"reportingInstance" protobuf:"bytes,15,opt,name=reportingInstance"`
}

// EventList is a list of Events.
type EventList = List[Event, *Event]

// The event types.
const (
	EventTypeNormal  = "Normal"
	EventTypeWarning = "Warning"
)

// EventSource is who reported an event.
type EventSource struct {
	// Reporting component, such as "kubelet" or "default-scheduler".
	Component string `json:"component,omitempty" protobuf:"bytes,1,opt,name=component"`
	// Node the reporter runs on.
	Host string `json:"host,omitempty" protobuf:"bytes,2,opt,name=host"`
}

// ObjectReference points at an object, optionally at a field inside it.
type ObjectReference struct {
	// Kind of the object, such as "Pod".
	Kind string `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	// Namespace of the object; empty for cluster-scoped kinds.
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,2,opt,name=namespace"`
	// Name of the object.
	Name string `json:"name,omitempty" protobuf:"bytes,3,opt,name=name"`
	// UID of the object.
	UID string `json:"uid,omitempty" protobuf:"bytes,4,opt,name=uid"`
	// Group/version of the object, such as "apps/v1".
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,5,opt,name=apiVersion"`
	// Resource version of the object the reference was made from, if it matters.
	ResourceVersion string `json:"resourceVersion,omitempty" protobuf:"bytes,6,opt,name=resourceVersion"`
	// Part of the object meant, when not the whole, such as
	// "spec.containers{web}" for one container of a pod.
	FieldPath string `json:"fieldPath,omitempty" protobuf:"bytes,7,opt,name=fieldPath"`
}

// EventSeries describes an event that keeps repeating.
type EventSeries struct {
	// Occurrences so far in the series.
	Count int32 `json:"count,omitempty" protobuf:"varint,1,opt,name=count"`
	// When the latest occurrence was seen, to the microsecond.
	LastObservedTime MicroTime `json:"lastObservedTime,omitempty" protobuf:"bytes,2,opt,name=lastObservedTime"`
}
