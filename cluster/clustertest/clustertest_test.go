package clustertest

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNamespaceNameIsADNSLabelPrefixOfTheTestName(t *testing.T) {
	cases := []struct{ test, want string }{
		{"TestScale", "testscale"},
		{"TestScale/up_to_5", "testscale-up-to-5"},
		{"BenchmarkCreate/c=64/kubeloop", "benchmarkcreate-c-64-kubeloop"},
		{"Test__X", "test-x"},
		{"_Test_", "test"},
		{"/", "test"},
		{"TestAVeryLongNameThatGoesOnAndOn/with_a_subtest", "testaverylongnamethatgoesonandon-with-a"},
		// The cut falls on a dash, which a DNS label cannot end with.
		{"TestAVeryLongNameThatGoesOnAndOnAndOnAn/xyz", "testaverylongnamethatgoesonandonandonan"},
	}
	label := regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	for _, c := range cases {
		got := namespaceName(c.test)
		require.Equal(t, c.want, got, c.test)
		require.Regexp(t, label, got, c.test)
		require.LessOrEqual(t, len(got), maxNameBase, c.test)
	}
}
