package api

// This file holds the kubelet's checks on a container (probes) and the hooks
// it runs around a container's start and stop (lifecycle).

// Probe is a check the kubelet runs against a container over and over, to
// decide whether it is alive, ready or started.
type Probe struct {
	// The check to run: a command, an HTTP GET, a TCP connect or a gRPC
	// health check.
	ProbeHandler `json:"" protobuf:"bytes,1,opt,name=handler"`
	// Seconds to wait after the container starts before the first check.
	// Default 0.
	InitialDelaySeconds int32 `json:"initialDelaySeconds,omitempty" protobuf:"varint,2,opt,name=initialDelaySeconds"`
	// Seconds a check may take before it counts as failed. Default 1,
	// minimum 1.
	TimeoutSeconds int32 `json:"timeoutSeconds,omitempty" protobuf:"varint,3,opt,name=timeoutSeconds"`
	// Seconds between checks. Default 10, minimum 1.
	PeriodSeconds int32 `json:"periodSeconds,omitempty" protobuf:"varint,4,opt,name=periodSeconds"`
	// Successes in a row needed to pass again after a failure. Default 1;
	// must be 1 for liveness and startup probes.
	SuccessThreshold int32 `json:"successThreshold,omitempty" protobuf:"varint,5,opt,name=successThreshold"`
	// Failures in a row after which the probe counts as failed. Default 3,
	// minimum 1.
	FailureThreshold int32 `json:"failureThreshold,omitempty" protobuf:"varint,6,opt,name=failureThreshold"`
	// Grace period, in seconds, for stopping the container when this probe
	// fails, instead of the pod's terminationGracePeriodSeconds; minimum 1.
	// Not allowed on readiness probes.
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty" protobuf:"varint,7,opt,name=terminationGracePeriodSeconds"`
}

// Lifecycle is the hooks the kubelet runs when a container starts and before
// it stops, and the signal that stops it. While a hook runs, the kubelet does
// nothing else with the container.
type Lifecycle struct {
	// Runs right after the container is created. If it fails, the container
	// is killed and restarted as its restart policy says.
	PostStart *LifecycleHandler `json:"postStart,omitempty" protobuf:"bytes,1,opt,name=postStart"`
	// Runs before the container is stopped on purpose (deletion, a failed
	// liveness probe, preemption...), not when it exits on its own. It
	// counts against the termination grace period, after which the
	// container is killed whatever the hook does.
	PreStop *LifecycleHandler `json:"preStop,omitempty" protobuf:"bytes,2,opt,name=preStop"`
	// Signal sent to stop the container, e.g. SIGTERM; the runtime's (or
	// image's) default when unset. Needs spec.os.name to be set.
	StopSignal *Signal `json:"stopSignal,omitempty" protobuf:"bytes,3,opt,name=stopSignal"`
}

// ProbeHandler is the check a probe runs; exactly one field is set.
type ProbeHandler struct {
	// Run a command in the container; exit status 0 passes.
	Exec *ExecAction `json:"exec,omitempty" protobuf:"bytes,1,opt,name=exec"`
	// Send an HTTP GET; a status from 200 to 399 passes.
	HTTPGet *HTTPGetAction `json:"httpGet,omitempty" protobuf:"bytes,2,opt,name=httpGet"`
	// Open a TCP connection; connecting passes.
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty" protobuf:"bytes,3,opt,name=tcpSocket"`
	// Call the gRPC health checking service; SERVING passes.
	GRPC *GRPCAction `json:"grpc,omitempty" protobuf:"bytes,4,opt,name=grpc"`
}

// LifecycleHandler is the action a lifecycle hook runs; exactly one field
// other than tcpSocket is set.
type LifecycleHandler struct {
	// Run a command in the container.
	Exec *ExecAction `json:"exec,omitempty" protobuf:"bytes,1,opt,name=exec"`
	// Send an HTTP GET.
	HTTPGet *HTTPGetAction `json:"httpGet,omitempty" protobuf:"bytes,2,opt,name=httpGet"`
	// Not supported as a hook: accepted without validation for backward
	// compatibility, but the hook fails when it runs. Deprecated.
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty" protobuf:"bytes,3,opt,name=tcpSocket"`
	// Wait for a number of seconds.
	Sleep *SleepAction `json:"sleep,omitempty" protobuf:"bytes,4,opt,name=sleep"`
}

// ExecAction runs a command inside the container.
type ExecAction struct {
	// Executable and arguments, run from "/" without a shell (call one
	// explicitly for pipes and the like). Exit status 0 means success.
	Command []string `json:"command,omitempty" protobuf:"bytes,1,rep,name=command" listType:"atomic"`
}

// HTTPGetAction sends an HTTP GET request to the container.
type HTTPGetAction struct {
	// Path to request, e.g. "/healthz".
	Path string `json:"path,omitempty" protobuf:"bytes,1,opt,name=path"`
	// Container port to connect to: a number from 1 to 65535 or the name of
	// a port in the container's ports. Required.
	Port IntOrString `json:"port" protobuf:"bytes,2,opt,name=port"`
	// Host to connect to; defaults to the pod's IP. To set the Host header,
	// use httpHeaders instead.
	Host string `json:"host,omitempty" protobuf:"bytes,3,opt,name=host"`
	// HTTP (the default) or HTTPS.
	Scheme URIScheme `json:"scheme,omitempty" protobuf:"bytes,4,opt,name=scheme"`
	// Extra request headers; a name may repeat.
	HTTPHeaders []HTTPHeader `json:"httpHeaders,omitempty" protobuf:"bytes,5,rep,name=httpHeaders" listType:"atomic"`
	// HTTP1 (the default) or HTTP2 (cleartext only, with scheme HTTP).
	Protocol *HTTPProtocol `json:"protocol,omitempty" protobuf:"bytes,6,opt,name=protocol"`
}

// TCPSocketAction opens a TCP connection to the container.
type TCPSocketAction struct {
	// Container port to connect to: a number from 1 to 65535 or the name of
	// a port in the container's ports. Required.
	Port IntOrString `json:"port" protobuf:"bytes,1,opt,name=port"`
	// Host to connect to; defaults to the pod's IP.
	Host string `json:"host,omitempty" protobuf:"bytes,2,opt,name=host"`
}

// GRPCAction calls the standard gRPC health checking service of the
// container.
type GRPCAction struct {
	// Port of the gRPC server, 1 to 65535. Required.
	Port int32 `json:"port" protobuf:"varint,1,opt,name=port"`
	// Service name to put in the health check request; empty asks about the
	// server as a whole.
	Service *string `json:"service" protobuf:"bytes,2,opt,name=service"`
	// Plaintext (the default) or TLS (without verifying the certificate).
	Mode *GRPCProbeMode `json:"mode,omitempty" protobuf:"bytes,3,opt,name=mode"`
}

// SleepAction waits before the container goes on.
type SleepAction struct {
	// How long to wait, in seconds. Required.
	Seconds int64 `json:"seconds" protobuf:"varint,1,opt,name=seconds"`
}

// HTTPHeader is one header of an HTTP probe's request.
type HTTPHeader struct {
	// Header name; case does not matter, it is canonicalized.
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Header value.
	Value string `json:"value" protobuf:"bytes,2,opt,name=value"`
}

// GRPCProbeMode is how a gRPC probe connects: Plaintext or TLS (without
// verifying the server's certificate).
type GRPCProbeMode string

// The gRPC probe modes.
const (
	GRPCProbeModePlaintext GRPCProbeMode = "Plaintext"
	GRPCProbeModeTLS       GRPCProbeMode = "TLS"
)

// HTTPProtocol is the HTTP version an HTTP probe speaks, whatever its scheme:
// HTTP1 (HTTP/1.1) or HTTP2 (for now only cleartext h2c with prior knowledge,
// so the scheme must be HTTP).
type HTTPProtocol string

// The HTTP probe protocols.
const (
	HTTPProtocolHTTP1 HTTPProtocol = "HTTP1"
	HTTPProtocolHTTP2 HTTPProtocol = "HTTP2"
)

// URIScheme is the scheme of an HTTP probe or hook: HTTP or HTTPS.
type URIScheme string

// The URI schemes.
const (
	URISchemeHTTP  URIScheme = "HTTP"
	URISchemeHTTPS URIScheme = "HTTPS"
)

// Signal is the name of a POSIX signal that stops a container, such as
// "SIGTERM", "SIGKILL", "SIGINT", "SIGQUIT", "SIGUSR1", "SIGRTMIN+1" or
// "SIGRTMAX-1". On Windows only SIGTERM and SIGKILL are allowed.
type Signal string
