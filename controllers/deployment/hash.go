package deployment

import (
	"encoding/binary"
	"hash/fnv"
	"strconv"

	"kubeloop/api"
)

// ComputeHash is the pod-template-hash of a template: the 32-bit FNV-1a of
// a deep dump of the template, then of the collision count if there is one
// (as 8 little-endian bytes), written in decimal and re-spelled with
// safeEncodeString. A Deployment whose new ReplicaSet's name is taken by a
// ReplicaSet with another template raises status.collisionCount, which
// changes the hash and so the name.
//
// Kubernetes: pkg/controller/controller_utils.go, ComputeHash, over
// pkg/util/hash DeepHashObject (go-spew's "%#v" of the Go value). The dump
// here is hash_dump.go's, which writes our types as spew writes
// k8s.io/api's, so that the same template gets the same name as it would
// from kube-controller-manager (conformance/deployment_hash_test.go checks
// this against go-spew and k8s.io/api).
func ComputeHash(template *api.PodTemplateSpec, collisionCount *int32) string {
	h := fnv.New32a()
	dumpForHash(h, template)
	if collisionCount != nil {
		b := make([]byte, 8)
		binary.LittleEndian.PutUint32(b, uint32(*collisionCount))
		h.Write(b)
	}
	return safeEncodeString(strconv.FormatUint(uint64(h.Sum32()), 10))
}

// safeEncodeAlphabet has no vowels (no words in generated names) and none
// of 0, 1 and 3, which look like o, l and e.
const safeEncodeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// safeEncodeString maps each character of s onto safeEncodeAlphabet.
// Kubernetes: apimachinery/pkg/util/rand, SafeEncodeString.
func safeEncodeString(s string) string {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		out = append(out, safeEncodeAlphabet[int(r)%len(safeEncodeAlphabet)])
	}
	return string(out)
}
