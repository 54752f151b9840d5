package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRunPairsKubeloopWithReference(t *testing.T) {
	in := `goos: linux
BenchmarkCreate/c=64/etcd-2         	    2000	    100000 ns/op	  10000 objects/s
BenchmarkCreate/c=64/kubeloop-2     	    2000	    110000 ns/op	   9000 objects/s
BenchmarkFanout-2                   	       1	  5000 ns/op	  12.5 p99-ms
PASS
`
	var out strings.Builder
	require.NoError(t, run(strings.NewReader(in), &out, ""))
	s := out.String()
	require.Contains(t, s, "BenchmarkCreate/c=64")
	require.Regexp(t, `BenchmarkCreate/c=64\s+etcd\s+110000\s+100000\s+1\.10x\s+\(ns/op`, s)
	require.Regexp(t, `objects/s\s*$|0\.90x\s+\(objects/s, higher is better\)`, s)
	require.Contains(t, s, "0.90x  (objects/s, higher is better)")
	require.Regexp(t, `BenchmarkFanout\s+5000 ns/op\s+12\.50 p99-ms`, s)
}

func TestParseLineIgnoresNonBenchmarkLines(t *testing.T) {
	_, ok := parseLine("ok  	kubeloop/store	1.2s")
	require.False(t, ok)
	r, ok := parseLine("BenchmarkX/a/kubeloop-8 10 5 ns/op 3 B/op")
	require.True(t, ok)
	require.Equal(t, "BenchmarkX/a/kubeloop", r.name)
	require.Equal(t, 5.0, r.metrics["ns/op"])
}
