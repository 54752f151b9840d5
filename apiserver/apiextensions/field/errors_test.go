package field

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"kubeloop/api"
)

func TestErrorsPrintAsKubernetesPrintsThem(t *testing.T) {
	p := NewPath("spec", "ports").Index(1).Child("name")
	cases := []struct {
		err  *Error
		want string
	}{
		{Required(p, ""), "spec.ports[1].name: Required value"},
		{Required(p, "must be set"), "spec.ports[1].name: Required value: must be set"},
		{Invalid(p, "x y", "must be a DNS label"), `spec.ports[1].name: Invalid value: "x y": must be a DNS label`},
		{Invalid(p, int64(-1), "must be positive"), `spec.ports[1].name: Invalid value: -1: must be positive`},
		{Invalid(p, 2.5, "d"), `spec.ports[1].name: Invalid value: 2.5: d`},
		{Invalid(p, map[string]any{"a": []any{1, "b"}}, "d"), `spec.ports[1].name: Invalid value: {"a":[1,"b"]}: d`},
		{TypeInvalid(p, true, "must be a string"), `spec.ports[1].name: Invalid value: true: must be a string`},
		{Duplicate(p, "http"), `spec.ports[1].name: Duplicate value: "http"`},
		{Forbidden(p, "not allowed"), `spec.ports[1].name: Forbidden: not allowed`},
		{NotSupported(p, "blue", []string{"red", "green"}), `spec.ports[1].name: Unsupported value: "blue": supported values: "red", "green"`},
		{NotSupported[string](p, "blue", nil), `spec.ports[1].name: Unsupported value: "blue"`},
		{TooLong(p, 15), `spec.ports[1].name: Too long: may not be more than 15 bytes`},
		{TooLong(p, 1), `spec.ports[1].name: Too long: may not be more than 1 byte`},
		{TooLong(p, -1), `spec.ports[1].name: Too long: value is too long`},
		{TooMany(p, 5, 4), `spec.ports[1].name: Too many: 5: must have at most 4 items`},
		{TooMany(p, -1, 1), `spec.ports[1].name: Too many: must have at most 1 item`},
		{InternalError(p, errors.New("boom")), `spec.ports[1].name: Internal error: boom`},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, c.err.Error())
	}
}

func TestPathsPrintAsKubernetesPrintsThem(t *testing.T) {
	assert.Equal(t, "metadata.labels[app.kubernetes.io/name]", NewPath("metadata").Child("labels").Key("app.kubernetes.io/name").String())
	assert.Equal(t, "a", Path("").Child("a").String())
	assert.Equal(t, "[0].b", Path("").Index(0).Child("b").String())
}

func TestErrorListBecomesAnInvalidStatusWithoutDuplicates(t *testing.T) {
	list := ErrorList{
		Required(NewPath("spec", "group"), ""),
		Invalid(NewPath("metadata", "name"), "x", "must be spec.names.plural+\".\"+spec.group"),
		Required(NewPath("spec", "group"), ""),
	}
	se := list.ToStatusError("apiextensions.k8s.io", "CustomResourceDefinition", "x")
	st := se.Status()
	assert.Equal(t, int32(422), st.Code)
	assert.Equal(t, api.StatusReasonInvalid, st.Reason)
	assert.Equal(t, `CustomResourceDefinition.apiextensions.k8s.io "x" is invalid: [spec.group: Required value, metadata.name: Invalid value: "x": must be spec.names.plural+"."+spec.group]`, st.Message)
	assert.Equal(t, []api.StatusCause{
		{Type: api.CauseTypeFieldValueRequired, Message: "Required value", Field: "spec.group"},
		{Type: api.CauseTypeFieldValueInvalid, Message: `Invalid value: "x": must be spec.names.plural+"."+spec.group`, Field: "metadata.name"},
	}, st.Details.Causes)
	assert.Nil(t, ErrorList(nil).ToStatusError("g", "K", "n"))
}

func TestOmittedValuesAreLeftOut(t *testing.T) {
	assert.Equal(t, "spec: Invalid value: must be small", Invalid(NewPath("spec"), OmitValueType{}, "must be small").Error())
	assert.Equal(t, "spec: Duplicate value", Duplicate(NewPath("spec"), OmitValueType{}).Error())
}
