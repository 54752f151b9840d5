package serializer

import (
	"bytes"

	"sigs.k8s.io/yaml"
)

// yamlDecoder reads YAML bodies (`kubectl create --raw`, curl with a
// manifest, any client that sends application/yaml) by converting them to
// JSON and decoding that, as Kubernetes' YAML serializer does
// (staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go,
// Serializer.Decode with options.Yaml). YAML repeats a key silently, so in
// strict mode the original is converted once more, strictly, and the
// converter's complaint becomes one of the problems, in its own words.
type yamlDecoder struct{}

func (yamlDecoder) Decode(data []byte, into any, strict bool) ([]string, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errEmptyBody
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var dupProblems []string
	if strict {
		if _, err := yaml.YAMLToJSONStrict(data); err != nil {
			dupProblems = append(dupProblems, err.Error())
		}
	}
	problems, err := jsonDecoder{}.Decode(js, into, strict)
	if err != nil {
		return nil, err
	}
	return append(dupProblems, problems...), nil
}
