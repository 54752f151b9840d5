package rbac_test

import (
	"fmt"
	"testing"

	"kubeloop/apiserver/authorization/authztest"
)

var srv *authztest.Server

func TestMain(m *testing.M) {
	authztest.Main(m, func(s *authztest.Server) { srv = s })
}

const rbacV1 = "/apis/rbac.authorization.k8s.io/v1"

type response = authztest.Response

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
