package store

import (
	"errors"
	"fmt"
	"strings"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"kubeloop/api"
)

// interpretWriteError names a failed write transaction. An object etcd will
// not take because of its size is the client's problem, not the server's:
// a 413 RequestEntityTooLarge Status instead of a 500. Every other error is
// wrapped with the operation and the key.
//
// etcd refuses a request over its --max-request-bytes (1.5 MiB unless set)
// with "etcdserver: request is too large"; the gRPC client refuses to send a
// message over its own limit (2 MiB by default) before etcd sees it. The
// apiserver accepts bodies of up to 3 MiB, so both can happen to a valid
// request. Kubernetes recognises the same two errors
// (endpoints/handlers/rest.go, isTooLargeError) but only to retry without
// managedFields; after that it still answers 500 (kubernetes#112152).
func interpretWriteError(op, key string, err error) error {
	if msg, ok := tooLargeMessage(err); ok {
		return api.NewRequestEntityTooLarge("Request entity too large: " + msg)
	}
	return fmt.Errorf("%s %s: %w", op, key, err)
}

// tooLargeMessage reports whether err is one of the two size refusals, with
// the refusal's own words.
func tooLargeMessage(err error) (string, bool) {
	if errors.Is(err, rpctypes.ErrRequestTooLarge) {
		return rpctypes.ErrRequestTooLarge.Error(), true
	}
	if s, ok := status.FromError(err); ok && s.Code() == codes.ResourceExhausted &&
		strings.Contains(s.Message(), "trying to send message larger than max") {
		return s.Message(), true
	}
	return "", false
}
