package admission

import (
	"fmt"
	"net/http"

	"kubeloop/api"
)

// StatusReasonForbidden and CauseTypeNamespaceTerminating are api's; the
// names stay here so admission code reads like Kubernetes'.
const (
	StatusReasonForbidden         = api.StatusReasonForbidden
	CauseTypeNamespaceTerminating = api.CauseTypeNamespaceTerminating
)

// NewForbidden is 403 Forbidden with Kubernetes' message shapes:
// `namespaces "default" is forbidden: this namespace may not be deleted`.
func NewForbidden(gr api.GroupResource, name string, err error) *api.StatusError {
	var msg string
	switch {
	case gr.Resource == "":
		msg = fmt.Sprintf("forbidden: %v", err)
	case name == "":
		msg = fmt.Sprintf("%s is forbidden: %v", gr, err)
	default:
		msg = fmt.Sprintf("%s %q is forbidden: %v", gr, name, err)
	}
	return &api.StatusError{ErrStatus: api.Status{
		TypeMeta: api.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   api.StatusFailure,
		Code:     http.StatusForbidden,
		Reason:   StatusReasonForbidden,
		Message:  msg,
		Details:  &api.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name},
	}}
}

// IsForbidden is true for a 403 anywhere in err's chain.
func IsForbidden(err error) bool { return api.ReasonForError(err) == StatusReasonForbidden }

// groupResource names the resource of a request for error messages.
func (a *Attributes) groupResource() api.GroupResource {
	if a.Resource == nil {
		return api.GroupResource{}
	}
	return a.Resource.GroupResource()
}

// objectName is the name a refusal is about: the object's, else the URL's,
// else "Unknown" (a create with only generateName has no name yet, because
// names are generated after admission), as admission.NewForbidden does.
func (a *Attributes) objectName() string {
	if a.Object != nil {
		if n := a.Object.GetObjectMeta().Name; n != "" {
			return n
		}
	}
	if a.Name != "" {
		return a.Name
	}
	return "Unknown"
}
