package namespace_test

import (
	"testing"

	"kubeloop/apiserver/apiservertest"
)

// One etcd and one apiserver for the whole package; every test works in
// its own namespace.
var srv *apiservertest.Server

func TestMain(m *testing.M) {
	apiservertest.Main(m, func(s *apiservertest.Server) { srv = s })
}

func get(m map[string]any, path ...string) any { return apiservertest.Get(m, path...) }
