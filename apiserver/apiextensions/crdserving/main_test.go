package crdserving_test

import (
	"testing"

	"kubeloop/apiserver/apiservertest"
)

var srv *apiservertest.Server

func TestMain(m *testing.M) {
	apiservertest.Main(m, func(s *apiservertest.Server) { srv = s })
}
