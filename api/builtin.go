package api

// builtinKinds is the table of every kind kubeloop serves, in the order
// discovery lists them.
func builtinKinds() []ResourceInfo {
	return []ResourceInfo{
		{
			Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Singular: "configmap",
			ShortNames: []string{"cm"}, Namespaced: true,
			New:     func() Object { return &ConfigMap{} },
			NewList: func() ListObject { return &ConfigMapList{} },
		},
	}
}
