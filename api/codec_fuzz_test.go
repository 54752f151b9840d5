package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// The codec fuzz targets pick the type to decode into from the first
// argument: one of the built-in kinds, then the bodies that are not stored
// kinds (Binding, Scale, and DeleteOptions, which is not even an Object).
// The committed corpus is under testdata/fuzz/<target>; run one with
//
//	go test -run '^$' -fuzz '^FuzzDecodeStrict$' -fuzztime 30s ./api

// fuzzTarget is a fresh value to decode into for kind.
func fuzzTarget(kind uint8) any {
	infos := Builtin().All()
	bodies := []func() any{
		func() any { return &Binding{} },
		func() any { return &Scale{} },
		func() any { return &DeleteOptions{} },
	}
	i := int(kind) % (len(infos) + len(bodies))
	if i >= len(infos) {
		return bodies[i-len(infos)]()
	}
	return infos[i].New()
}

// addManifestSeeds seeds f with the JSON of every manifest in testdata,
// each for the kind it is.
func addManifestSeeds(f *testing.F) {
	paths, err := filepath.Glob("testdata/*.yaml")
	require.NoError(f, err)
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		require.NoError(f, err)
		data, err := yaml.YAMLToJSON(raw)
		require.NoError(f, err)
		for kind := range uint8(len(Builtin().All()) + 3) {
			f.Add(kind, data)
		}
	}
}

// Strict decoding never panics, agrees with the token walk alone (the fast
// scan may only call a body clean when the walk finds nothing), decodes the
// same object as Ignore does, and reads back what Encode writes without a
// complaint.
func FuzzDecodeStrict(f *testing.F) {
	addManifestSeeds(f)
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		strict := fuzzTarget(kind)
		unknown, dups, err := decodeStrict(data, strict)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		walked := fuzzTarget(kind)
		walkedUnknown, walkedDups, err := walkStrict(data, walked)
		require.NoError(t, err)
		assert.ElementsMatch(t, unknown, walkedUnknown)
		assert.ElementsMatch(t, dups, walkedDups)
		assert.Equal(t, strict, walked)

		plain := fuzzTarget(kind)
		require.NoError(t, json.Unmarshal(data, plain))
		assert.Equal(t, strict, plain)

		// The one-pass decoder (codec_scan_decode.go) takes only bodies
		// the scan calls clean, and gives json.Unmarshal's value.
		onePass := fuzzTarget(kind)
		if decodeClean(data, reflect.ValueOf(onePass).Elem()) {
			assert.True(t, cleanBody(data, reflect.TypeOf(onePass).Elem()))
			assert.Equal(t, plain, onePass)
		}

		encoded, err := json.Marshal(strict)
		require.NoError(t, err)
		again := fuzzTarget(kind)
		unknown, dups, err = decodeStrict(encoded, again)
		require.NoError(t, err, "%s", encoded)
		assert.Empty(t, unknown, "%s", encoded)
		assert.Empty(t, dups, "%s", encoded)
		reencoded, err := json.Marshal(again)
		require.NoError(t, err)
		assert.Equal(t, string(encoded), string(reencoded))
	})
}

// Decode (fieldValidation=Ignore) never panics, and what it decodes
// encodes to json.Marshal's bytes, decodes again and encodes to the same
// bytes.
func FuzzDecode(f *testing.F) {
	addManifestSeeds(f)
	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		obj, ok := fuzzTarget(kind).(Object)
		if !ok {
			return // DeleteOptions is not an Object: only DecodeStrictOptions reads it
		}
		if err := Decode(data, obj); err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		encoded, err := Encode(obj)
		require.NoError(t, err)
		// Encode writes json.Marshal's bytes (codec_encode.go writes
		// built-in kinds itself).
		plain, err := json.Marshal(obj)
		require.NoError(t, err)
		assert.Equal(t, string(plain), string(encoded))
		again := fuzzTarget(kind).(Object)
		require.NoError(t, Decode(encoded, again), "%s", encoded)
		reencoded, err := Encode(again)
		require.NoError(t, err)
		assert.Equal(t, string(encoded), string(reencoded))
	})
}
