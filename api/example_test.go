package api_test

import (
	"fmt"

	"kubeloop/api"
)

func ExampleParseSelector() {
	sel, err := api.ParseSelector("tier in (frontend,backend), app=web, !canary")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.String())
	fmt.Println(sel.Matches(map[string]string{"app": "web", "tier": "backend"}))
	fmt.Println(sel.Matches(map[string]string{"app": "web", "tier": "backend", "canary": "true"}))

	_, err = api.ParseSelector("app in web")
	fmt.Println(err)
	// Output:
	// app=web,!canary,tier in (backend,frontend)
	// true
	// false
	// unable to parse requirement: found 'web' expected: '('
}

func ExampleDecodeStrict() {
	body := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},
		"spec":{"containers":[{"name":"c","image":"nginx","imagePullSecret":"x"}],"replicas":3}}`)
	var pod api.Pod
	unknown, duplicate, err := api.DecodeStrict(body, &pod)
	fmt.Println(unknown, duplicate, err)
	// Output:
	// [spec.containers[0].imagePullSecret spec.replicas] [] <nil>
}

func ExampleQuantity_MilliValue() {
	for _, q := range []api.Quantity{"100m", "2", "0.5"} {
		m, _ := q.MilliValue()
		fmt.Println(q, m)
	}
	mem, _ := api.Quantity("128Mi").Value()
	fmt.Println(mem)
	// Output:
	// 100m 100
	// 2 2000
	// 0.5 500
	// 134217728
}
