package api

import "errors"

// IsMethodNotSupported is true for 405: the resource does not serve that
// verb. The namespace controller meets it on resources that list no
// collection verbs. apimachinery: errors.IsMethodNotSupported.
func IsMethodNotSupported(err error) bool {
	return ReasonForError(err) == StatusReasonMethodNotAllowed
}

// HasStatusCause is true when err is a StatusError with a cause of type t,
// such as CauseTypeNamespaceTerminating on a create refused because its
// namespace is being deleted. apimachinery: errors.HasStatusCause.
func HasStatusCause(err error, t CauseType) bool {
	se, ok := errors.AsType[*StatusError](err)
	if !ok || se.ErrStatus.Details == nil {
		return false
	}
	for _, c := range se.ErrStatus.Details.Causes {
		if c.Type == t {
			return true
		}
	}
	return false
}
