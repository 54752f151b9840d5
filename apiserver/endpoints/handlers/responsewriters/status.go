package responsewriters

import (
	"errors"
	"net/http"

	"kubeloop/api"
)

// StatusError turns any error a handler meets into the StatusError the
// client sees. Errors that are not StatusErrors are server bugs or etcd
// trouble, so they become 500 InternalError.
func StatusError(err error) *api.StatusError {
	var se *api.StatusError
	if errors.As(err, &se) {
		return se
	}
	return api.NewInternalError(err)
}

// ErrorToAPIStatus is the Status body of err, with a code (500 if it had
// none). Kubernetes: responsewriters/status.go (ErrorToAPIStatus).
func ErrorToAPIStatus(err error) *api.Status {
	st := StatusError(err).Status()
	if st.Code == 0 {
		st.Code = http.StatusInternalServerError
	}
	return &st
}
