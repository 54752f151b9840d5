package api

import (
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests pin the codec's bytes on small tagged structs that mimic the
// shapes of k8s.io/api (scalars, pointers, repeated fields, maps, nested and
// custom messages). The differential test against k8s.io/api's own
// generated Marshal, on every field of every kind, is
// conformance/roundtrip_test.go.

type pbSub struct {
	Name string `protobuf:"bytes,1,opt,name=name"`
}

// pbAll has one field of every shape. Its Go fields are deliberately not in
// field-number order: the wire order is the numbers'.
type pbAll struct {
	TypeMeta `json:",inline"`
	I32      int32                     `protobuf:"varint,2,opt,name=i32"`
	S        string                    `protobuf:"bytes,1,opt,name=s"`
	I64      int64                     `protobuf:"varint,3,opt,name=i64"`
	B        bool                      `protobuf:"varint,4,opt,name=b"`
	PS       *string                   `protobuf:"bytes,5,opt,name=ps"`
	PI       *int32                    `protobuf:"varint,6,opt,name=pi"`
	PB       *bool                     `protobuf:"varint,7,opt,name=pb"`
	Raw      []byte                    `protobuf:"bytes,8,opt,name=raw"`
	Strs     []string                  `protobuf:"bytes,9,rep,name=strs"`
	Ints     []int64                   `protobuf:"varint,10,rep,name=ints"`
	M        map[string]string         `protobuf:"bytes,11,rep,name=m"`
	Sub      pbSub                     `protobuf:"bytes,12,opt,name=sub"`
	PSub     *pbSub                    `protobuf:"bytes,13,opt,name=psub"`
	Subs     []pbSub                   `protobuf:"bytes,14,rep,name=subs"`
	BM       map[string][]byte         `protobuf:"bytes,15,rep,name=bm"`
	QM       ResourceList              `protobuf:"bytes,16,rep,name=qm"`
	T        Time                      `protobuf:"bytes,17,opt,name=t"`
	PT       *Time                     `protobuf:"bytes,18,opt,name=pt"`
	MT       MicroTime                 `protobuf:"bytes,19,opt,name=mt"`
	IOS      IntOrString               `protobuf:"bytes,20,opt,name=ios"`
	FV       *FieldsV1                 `protobuf:"bytes,21,opt,name=fv"`
	Enum     IntOrStringType           `protobuf:"varint,22,opt,name=enum"`
	Skipped  string                    `json:"skipped"`
	Named    RestartPolicy             `protobuf:"bytes,23,opt,name=named"`
	U        map[string]pbSub          `protobuf:"bytes,24,rep,name=u"`
	Unsorted map[ResourceName]Quantity `protobuf:"bytes,25,rep,name=unsorted"`
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	require.NoError(t, err)
	return b
}

func TestProtobufZeroValueWritesEveryNonNullableField(t *testing.T) {
	got, err := MarshalProto(&pbAll{})
	require.NoError(t, err)
	want := unhex(t, ""+
		"0a00"+ // 1 s ""
		"1000"+ // 2 i32 0
		"1800"+ // 3 i64 0
		"2000"+ // 4 b false
		// 5-11: pointers nil, raw nil, no elements
		"6202 0a00"+ // 12 sub {name ""}
		"8a01 00"+ // 17 t: the zero time is an empty message
		"9a01 00"+ // 19 mt
		"a201 06 0800 1000 1a00"+ // 20 ios {type 0, intVal 0, strVal ""}
		"b001 00"+ // 22 enum
		"ba01 00") // 23 named ""
	assert.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))
}

func TestProtobufEncodesEveryShapeAsGogoDoes(t *testing.T) {
	s, i, f := "p", int32(-1), false
	v := pbAll{
		TypeMeta: TypeMeta{Kind: "NotOnTheWire"},
		S:        "s", I32: -2, I64: 300, B: true,
		PS: &s, PI: &i, PB: &f,
		Raw:  []byte{},
		Strs: []string{"a", ""},
		Ints: []int64{1, -1},
		M:    map[string]string{"z": "1", "a": ""},
		Sub:  pbSub{Name: "x"},
		PSub: &pbSub{},
		Subs: []pbSub{{Name: "y"}, {}},
		BM:   map[string][]byte{"b": nil, "a": {7}},
		QM:   ResourceList{"cpu": "100m", "memory": ""},
		T:    NewTime(time.Unix(1700000000, 999)),
		PT:   &Time{},
		MT:   NewMicroTime(time.Unix(1, 123456789)),
		IOS:  FromString("http"),
		FV:   &FieldsV1{Raw: []byte(`{}`)},
		Enum: String, Skipped: "not on the wire", Named: RestartPolicyAlways,
		U: map[string]pbSub{"k": {Name: "v"}},
	}
	got, err := MarshalProto(&v)
	require.NoError(t, err)
	want := unhex(t, ""+
		"0a01 73"+ // 1 s "s"
		"10 feffffffffffffffff01"+ // 2 i32 -2: sign-extended to ten bytes
		"18 ac02"+ // 3 i64 300
		"2001"+ // 4 b true
		"2a01 70"+ // 5 ps "p"
		"30 ffffffffffffffffff01"+ // 6 pi -1
		"3800"+ // 7 pb false: a set pointer is written
		"4200"+ // 8 raw: empty but not nil
		"4a01 61 4a00"+ // 9 strs: one entry per element, the empty one too
		"5001 50 ffffffffffffffffff01"+ // 10 ints: one entry each, not packed
		"5a05 0a0161 1200"+ // 11 m: sorted by key, "a" first
		"5a06 0a017a 120131"+ // then "z"
		"6203 0a0178"+ // 12 sub
		"6a02 0a00"+ // 13 psub: the empty message still writes its non-nullable name
		"7203 0a0179"+ // 14 subs[0]
		"7202 0a00"+ // 14 subs[1]
		"7a06 0a0161 120107"+ // 15 bm "a": {7}
		"7a03 0a0162"+ // 15 bm "b": a nil value is left out of the entry
		"8201 0d 0a03 637075 1206 0a04 3130306d"+ // 16 qm cpu: Quantity{"100m"}
		"8201 0d 0a06 6d656d6f7279 1203 0a01 30"+ // 16 qm memory: "" goes out as "0"
		"8a01 08 08 80e2cfaa06 1000"+ // 17 t: seconds, and nanos 0
		"9201 00"+ // 18 pt: a set pointer to the zero time is an empty message
		"9a01 07 0801 10 8094ef3a"+ // 19 mt: 123456000 ns, microseconds kept
		"a201 0a 0801 1000 1a04 68747470"+ // 20 ios: the string "http"
		"aa01 04 0a02 7b7d"+ // 21 fv: raw {}
		"b001 01"+ // 22 enum 1
		"ba01 06 416c77617973"+ // 23 named "Always"
		"c201 08 0a01 6b 1203 0a01 76") // 24 u: "k" → {name "v"}
	assert.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))
}

func TestProtobufRoundTripsEveryShape(t *testing.T) {
	s, i, f := "p", int32(-1), false
	in := pbAll{
		S: "s", I32: -2, I64: -300, B: true, PS: &s, PI: &i, PB: &f,
		Raw: []byte{1, 2}, Strs: []string{"a", ""}, Ints: []int64{1, -1, 1 << 40},
		M: map[string]string{"z": "1", "a": ""}, Sub: pbSub{Name: "x"}, PSub: &pbSub{},
		Subs: []pbSub{{Name: "y"}, {}}, BM: map[string][]byte{"a": {7}, "b": {}},
		QM: ResourceList{"cpu": "100m"}, T: NewTime(time.Unix(1700000000, 0)),
		PT: &Time{}, MT: NewMicroTime(time.Unix(-5, 1000)), IOS: FromInt32(-8080),
		FV: &FieldsV1{Raw: []byte(`{"f:a":{}}`)}, Enum: String, Named: RestartPolicyNever,
		U: map[string]pbSub{"k": {Name: "v"}, "": {}},
	}
	b, err := MarshalProto(&in)
	require.NoError(t, err)
	var out pbAll
	require.NoError(t, UnmarshalProto(b, &out))
	assert.Equal(t, in, out)
	again, err := MarshalProto(out)
	require.NoError(t, err)
	assert.Equal(t, b, again, "a decoded message encodes to the same bytes")
}

// TestProtobufLengthsOfEverySize crosses the sizes where a nested
// message's length takes one more byte, which is where the encoder moves
// the message up to make room.
func TestProtobufLengthsOfEverySize(t *testing.T) {
	for _, n := range []int{0, 125, 126, 127, 128, 16380, 16381, 16382, 16383, 16384, 1 << 21} {
		in := pbAll{Subs: []pbSub{{Name: strings.Repeat("x", n)}, {Name: "after"}}, PSub: &pbSub{Name: strings.Repeat("y", n)}}
		b, err := MarshalProto(&in)
		require.NoError(t, err)
		var out pbAll
		require.NoError(t, UnmarshalProto(b, &out), n)
		assert.Equal(t, in.Subs, out.Subs, n)
		assert.Equal(t, in.PSub, out.PSub, n)
	}
}

func TestProtobufDecodeMergesAsProtobufDoes(t *testing.T) {
	// Two occurrences of a repeated field append; of a scalar, the last
	// wins; of a message, they merge; of a map key, the last wins.
	b := unhex(t, "4a0161 0a0178 4a0162 0a0179 6a020a00 6a03 0a017a 5a06 0a016b 120131 5a06 0a016b 120132")
	var out pbAll
	require.NoError(t, UnmarshalProto(b, &out))
	assert.Equal(t, []string{"a", "b"}, out.Strs)
	assert.Equal(t, "y", out.S)
	assert.Equal(t, &pbSub{Name: "z"}, out.PSub)
	assert.Equal(t, map[string]string{"k": "2"}, out.M)
}

func TestProtobufDecodeAcceptsPackedRepeatedVarints(t *testing.T) {
	var out pbAll
	require.NoError(t, UnmarshalProto(unhex(t, "5203 01 ac02"), &out))
	assert.Equal(t, []int64{1, 300}, out.Ints)
}

func TestProtobufDecodeResetsTheTarget(t *testing.T) {
	out := pbAll{S: "old", Strs: []string{"old"}, M: map[string]string{"old": ""}}
	require.NoError(t, UnmarshalProto(unhex(t, "4a0161"), &out))
	assert.Equal(t, pbAll{Strs: []string{"a"}}, out)
}

func TestProtobufInt32KeepsTheLowBits(t *testing.T) {
	// What gogo does with a varint too big for an int32 field.
	var out pbAll
	require.NoError(t, UnmarshalProto(unhex(t, "10 ffffffff1f"), &out)) // 2^33-1
	assert.Equal(t, int32(-1), out.I32)
}

func TestTimeProtobufKeepsSecondsAndMicroTimeMicroseconds(t *testing.T) {
	var out pbAll
	// t: seconds 1, nanos 999 (Kubernetes drops them); mt: nanos 1999.
	require.NoError(t, UnmarshalProto(unhex(t, "8a01 05 0801 10e707 9a01 05 0801 10cf0f"), &out))
	assert.Equal(t, time.Unix(1, 0).UTC(), out.T.Time)
	assert.Equal(t, time.Unix(1, 1000).UTC(), out.MT.Time)
	// The epoch itself is not the zero time: it has a message.
	b, err := MarshalProto(&Time{time.Unix(0, 0)})
	require.NoError(t, err)
	assert.Equal(t, "08001000", hex.EncodeToString(b))
	var epoch Time
	require.NoError(t, UnmarshalProto(b, &epoch))
	assert.False(t, epoch.IsZero())
}

func TestProtobufDecodeErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct {
		name, wire, want string
	}{
		{"unknown field", "f80600", "unknown field number 111 in api.pbAll"},
		{"unknown nested field", "7202 0a00 7202 1000", "subs[1]: unknown field number 2 in api.pbSub"},
		{"wrong wire type", "0801", "s: wire type varint, want bytes"},
		{"wrong nested wire type", "6202 0801", "sub.name: wire type varint, want bytes"},
		{"varint as bytes", "1201 00", "i32: wire type bytes, want varint"},
		{"length past the end", "0a05 6162", "field 1: unexpected EOF"},
		{"nested length past the end", "6203 0a0561", "sub: field 1: unexpected EOF"},
		{"truncated varint", "10ff", "field 2: unexpected EOF"},
		{"overlong varint", "10 ffffffffffffffffffff01", "field 2: variable length integer overflow"},
		{"group", "0b", "wire type group"},
		{"fixed32", "0d00000000", "wire type fixed32"},
		{"field number zero", "0200", "malformed field key: invalid field number"},
		{"bad quantity", `8201 0b 0a03637075 1204 0a02 7878`, `qm["cpu"]: quantity "xx" is invalid`},
		{"unknown quantity field", `8201 09 0a03637075 1202 1000`, `qm["cpu"]: quantity: unexpected field 2`},
		{"bad time", "8a01 02 1801", "t: timestamp: unexpected field 3"},
		{"map entry wire type", "5a02 0801", "m: map entry field 1 has wire type varint"},
		{"unknown map entry field", "5a02 1801", "m: unknown field number 3 in a map entry"},
		{"fieldsV1 field", "aa01 02 1000", "fv: fieldsV1: unexpected field 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out pbAll
			err := UnmarshalProto(unhex(t, tc.wire), &out)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Contains(t, err.Error(), "decoding protobuf api.pbAll")
		})
	}
}

type pbBadTag struct {
	A string `protobuf:"fixed32,1,opt,name=a"`
}
type pbBadNumber struct {
	A string `protobuf:"bytes,0,opt,name=a"`
}
type pbDuplicate struct {
	A string `protobuf:"bytes,1,opt,name=a"`
	B string `protobuf:"bytes,1,opt,name=b"`
}
type pbUnsupported struct {
	A float32 `protobuf:"bytes,1,opt,name=a"`
}
type pbIntKey struct {
	A map[int32]string `protobuf:"bytes,1,rep,name=a"`
}
type pbPointerElems struct {
	A []*pbSub `protobuf:"bytes,1,rep,name=a"`
}

// pbLyingTags has tags as wrong as some of k8s.io/api's: PodSpec's
// `Priority *int32 protobuf:"bytes,25,opt,name=priority"` and
// `Tolerations []Toleration protobuf:"bytes,22,opt,name=tolerations"`.
type pbLyingTags struct {
	Priority    *int32   `protobuf:"bytes,25,opt,name=priority"`
	Tolerations []pbSub  `protobuf:"bytes,22,opt,name=tolerations"`
	Flag        bool     `protobuf:"bytes,3,opt,name=flag"`
	Names       []string `protobuf:"varint,4,opt,name=names"`
}

func TestProtobufWireTypesFollowTheGoTypeNotTheTag(t *testing.T) {
	p := int32(5)
	b, err := MarshalProto(&pbLyingTags{Priority: &p, Tolerations: []pbSub{{}, {}}, Names: []string{"a"}})
	require.NoError(t, err)
	// gogo's generated code: 0xc8 0x01 (field 25, varint) for priority.
	want := unhex(t, "1800"+ // 3 flag: a bool is a varint
		"2201 61"+ // 4 names: strings are bytes, one entry per element
		"b201 020a00 b201 020a00"+ // 22 tolerations: repeated
		"c801 05") // 25 priority: varint
	assert.Equal(t, hex.EncodeToString(want), hex.EncodeToString(b))
}

func TestProtobufRejectsTagsThatDoNotFitTheType(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{&pbBadTag{}, `want bytes|varint|fixed64,number`},
		{&pbBadNumber{}, `bad field number`},
		{&pbDuplicate{}, `field number 1 used twice`},
		{&pbUnsupported{}, `float32 has no protobuf form`},
		{&pbIntKey{}, `only string keys`},
		{&pbPointerElems{}, `*api.pbSub has no protobuf form`},
		{"a string", `string is not a message`},
		{(*pbSub)(nil), `nil *api.pbSub`},
	} {
		_, err := MarshalProto(tc.v)
		require.Error(t, err, "%T", tc.v)
		assert.Contains(t, err.Error(), tc.want)
	}
	assert.ErrorContains(t, UnmarshalProto(nil, pbSub{}), "non-nil pointer")
}

// pbTree contains itself, which no Kubernetes kind does; it is here for
// the depth limit.
type pbTree struct {
	Name     string   `protobuf:"bytes,1,opt,name=name"`
	Children []pbTree `protobuf:"bytes,2,rep,name=children"`
}

func TestProtobufSelfContainingTypeAndDepthLimit(t *testing.T) {
	in := pbTree{Name: "root", Children: []pbTree{{Name: "a", Children: []pbTree{{Name: "b"}}}}}
	b, err := MarshalProto(&in)
	require.NoError(t, err)
	var out pbTree
	require.NoError(t, UnmarshalProto(b, &out))
	assert.Equal(t, in, out)

	deep := []byte{}
	for range maxProtoDepth + 2 {
		deep = append(append([]byte{0x12}, protowireLen(len(deep))...), deep...)
	}
	err = UnmarshalProto(deep, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nested more than 100 deep")
}

func protowireLen(n int) []byte {
	var b []byte
	for n >= 0x80 {
		b = append(b, byte(n)|0x80)
		n >>= 7
	}
	return append(b, byte(n))
}

func TestProtobufPlansAreSafeToBuildConcurrently(t *testing.T) {
	type fresh struct {
		A pbTree `protobuf:"bytes,1,opt,name=a"`
	}
	done := make(chan []byte)
	for range 8 {
		go func() {
			b, err := MarshalProto(&fresh{A: pbTree{Name: "x"}})
			assert.NoError(t, err)
			done <- b
		}()
	}
	for range 8 {
		assert.Equal(t, "0a030a0178", hex.EncodeToString(<-done))
	}
}
