package admission

import (
	"encoding/json"

	"kubeloop/api"
)

// The Secret and ServiceAccount rules: pkg/apis/core/validation/validation.go
// (ValidateSecret, ValidateSecretUpdate, ValidateServiceAccount,
// ValidateServiceAccountUpdate), v1.37.2.

// validateSecret: keys become file names when the Secret is mounted; the
// whole must fit in one etcd value; and each well-known type promises its
// consumers certain keys (a kubelet pulling images needs a
// .dockerconfigjson it can parse).
func validateSecret(s *api.Secret, namespaced bool) errorList {
	errs := validateObjectMeta(&s.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
	data := newPath("data")
	total := 0
	for _, k := range sortedKeys(s.Data) {
		total += len(s.Data[k])
		for _, msg := range isConfigMapKey(k) {
			errs = append(errs, invalid(data.Key(k), k, msg))
		}
	}
	if total > api.MaxSecretSize {
		errs = append(errs, tooLong(data, api.MaxSecretSize))
	}
	has := func(key string) bool { _, ok := s.Data[key]; return ok }
	// The contents of a Secret never appear in a message.
	const redacted = "<secret contents redacted>"
	isJSONObject := func(key string) error {
		var m map[string]any
		return json.Unmarshal(s.Data[key], &m)
	}
	switch s.Type {
	case api.SecretTypeServiceAccountToken:
		// Only the account is required; the token controller adds the token.
		if s.Annotations[api.ServiceAccountNameKey] == "" {
			errs = append(errs, required(newPath("metadata", "annotations").Key(api.ServiceAccountNameKey), ""))
		}
	case api.SecretTypeDockercfg, api.SecretTypeDockerConfigJSON:
		key := api.DockerConfigKey
		if s.Type == api.SecretTypeDockerConfigJSON {
			key = api.DockerConfigJSONKey
		}
		if !has(key) {
			errs = append(errs, required(data.Key(key), ""))
		} else if err := isJSONObject(key); err != nil {
			errs = append(errs, invalid(data.Key(key), redacted, err.Error()))
		}
	case api.SecretTypeBasicAuth:
		// Either may be empty, but one of them must be there.
		if !has(api.BasicAuthUsernameKey) && !has(api.BasicAuthPasswordKey) {
			errs = append(errs, required(data.Key(api.BasicAuthUsernameKey), ""),
				required(data.Key(api.BasicAuthPasswordKey), ""))
		}
	case api.SecretTypeSSHAuth:
		if len(s.Data[api.SSHAuthPrivateKey]) == 0 {
			errs = append(errs, required(data.Key(api.SSHAuthPrivateKey), ""))
		}
	case api.SecretTypeTLS:
		if !has(api.TLSCertKey) {
			errs = append(errs, required(data.Key(api.TLSCertKey), ""))
		}
		if !has(api.TLSPrivateKeyKey) {
			errs = append(errs, required(data.Key(api.TLSPrivateKeyKey), ""))
		}
	}
	return errs
}

// validateSecretUpdate: the type is fixed (consumers chose the Secret for
// it), and an immutable Secret keeps its data forever, which is what lets
// kubelets stop watching it.
func validateSecretUpdate(s, old *api.Secret) errorList {
	errs := validateObjectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta, newPath("metadata"))
	if s.Type != old.Type {
		errs = append(errs, invalid(newPath("type"), s.Type, fieldImmutableErrorMsg))
	}
	if old.Immutable != nil && *old.Immutable {
		const msg = "field is immutable when `immutable` is set"
		if s.Immutable == nil || !*s.Immutable {
			errs = append(errs, forbidden(newPath("immutable"), msg))
		}
		if !semanticallyEqual(s.Data, old.Data) {
			errs = append(errs, forbidden(newPath("data"), msg))
		}
	}
	for _, e := range validateSecret(s, true) {
		if !isUnder(e.Field, "metadata") || isUnder(e.Field, "metadata.annotations") {
			errs = append(errs, e)
		}
	}
	return errs
}

// validateServiceAccount: a service account's name is a DNS subdomain; it
// ends up in token subjects (system:serviceaccount:NS:NAME).
func validateServiceAccount(sa *api.ServiceAccount, namespaced bool) errorList {
	return validateObjectMeta(&sa.ObjectMeta, namespaced, api.NameIsDNSSubdomain, newPath("metadata"))
}
