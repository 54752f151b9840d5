package api

import (
	"bytes"
	"reflect"
	"testing"
	"time"
)

// protobufFuzzTargets are the types FuzzProtobufDecode decodes into: every
// kind and list the registry serves, the subresource and option bodies, and
// the test shapes (pbTree contains itself, for the depth limit).
func protobufFuzzTargets() []func() any {
	targets := []func() any{
		func() any { return &pbAll{} },
		func() any { return &pbTree{} },
		func() any { return &DeleteOptions{} },
		func() any { return &Status{} },
		func() any { return &Scale{} },
		func() any { return &Binding{} },
	}
	for _, info := range Builtin().All() {
		targets = append(targets, func() any { return info.New() }, func() any { return info.NewList() })
	}
	return targets
}

// FuzzProtobufDecode feeds arbitrary bytes to every protobuf entry point.
// None may panic, and whatever decodes must re-encode stably: encoding the
// decoded value, decoding that and encoding again gives the same bytes.
// Under plain `go test` only the seeds (below and in
// testdata/fuzz/FuzzProtobufDecode) run; `go test -fuzz FuzzProtobufDecode
// -fuzztime 1m ./api` explores.
func FuzzProtobufDecode(f *testing.F) {
	s, i := "p", int32(-1)
	seeds := []any{
		&pbAll{S: "s", I32: -2, PS: &s, PI: &i, Raw: []byte{1}, Strs: []string{"a"}, Ints: []int64{1},
			M: map[string]string{"k": "v"}, Subs: []pbSub{{Name: "y"}}, BM: map[string][]byte{"a": {7}},
			QM: ResourceList{"cpu": "100m"}, T: NewTime(time.Unix(1700000000, 0)), PT: &Time{},
			MT: NewMicroTime(time.Unix(1, 1000)), IOS: FromString("http"), FV: &FieldsV1{Raw: []byte(`{}`)}},
		&pbTree{Name: "r", Children: []pbTree{{Name: "c"}}},
		&Pod{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: ObjectMeta{Name: "p", Labels: map[string]string{"app": "web"}},
			Spec: PodSpec{Containers: []Container{{Name: "c", Image: "nginx"}}}},
	}
	targets := protobufFuzzTargets()
	for _, seed := range seeds {
		b, err := MarshalProto(seed)
		if err != nil {
			f.Fatal(err)
		}
		for t := range targets {
			f.Add(uint8(t), b)
		}
		if env, err := EncodeProtobuf(seed); err == nil {
			f.Add(uint8(2), env)
			frame, _ := AppendProtobufWatchFrame(nil, Added, seed)
			f.Add(uint8(3), frame)
		}
	}
	f.Fuzz(func(t *testing.T, target uint8, data []byte) {
		// The envelope and the watch stream take every input too.
		_, _ = DecodeProtobuf(data, nil)
		dec := NewProtobufWatchDecoder(bytes.NewReader(data))
		for {
			if _, _, err := dec.Next(); err != nil {
				break
			}
		}

		v := targets[int(target)%len(targets)]()
		if err := UnmarshalProto(data, v); err != nil {
			return
		}
		first, err := MarshalProto(v)
		if err != nil {
			t.Fatalf("encoding what decoded: %v", err)
		}
		again := reflect.New(reflect.TypeOf(v).Elem()).Interface()
		if err := UnmarshalProto(first, again); err != nil {
			t.Fatalf("decoding our own encoding: %v\n%x", err, first)
		}
		second, err := MarshalProto(again)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, second) {
			t.Fatalf("re-encoding is not stable:\n%x\n%x", first, second)
		}
	})
}
