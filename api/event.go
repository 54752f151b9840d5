package api

// Event is a report of something that happened to an object: "Scheduled",
// "Pulled", "SuccessfulCreate". kubectl describe lists the events whose
// involvedObject is the described object (core/v1 Event, not events.k8s.io).
type Event struct {
	TypeMeta       `json:",inline"`
	ObjectMeta     `json:"metadata,omitempty"`
	InvolvedObject ObjectReference  `json:"involvedObject"`
	Reason         string           `json:"reason,omitempty"`
	Message        string           `json:"message,omitempty"`
	Source         EventSource      `json:"source,omitempty"`
	FirstTimestamp Time             `json:"firstTimestamp,omitempty"`
	LastTimestamp  Time             `json:"lastTimestamp,omitempty"`
	Count          int32            `json:"count,omitempty"`
	Type           string           `json:"type,omitempty"`
	EventTime      MicroTime        `json:"eventTime,omitempty"`
	Action         string           `json:"action,omitempty"`
	Related        *ObjectReference `json:"related,omitempty"`
	// Not omitempty in Kubernetes: events from old clients carry "".
	ReportingController string `json:"reportingComponent"`
	ReportingInstance   string `json:"reportingInstance"`
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
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}

// ObjectReference points at an object, optionally at a field inside it.
type ObjectReference struct {
	Kind            string `json:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	FieldPath       string `json:"fieldPath,omitempty"`
}
