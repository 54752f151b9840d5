package conformance

import (
	"fmt"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// filler sets every field of a k8s.io/api object, recursively, to a value
// that is not zero: each string, number and bool its own, every pointer
// set, every slice two elements long and every map two entries big. The
// values follow from the order of the fields alone, so a failure reproduces.
// A field kubeloop's types lack then cannot hide behind a zero value: it
// changes the bytes, or fails the decode, of the round trip.
type filler struct {
	n int // the count of values set so far; the next value derives from it
}

// fillObject returns a new *T with every field set.
func fillObject[T any]() *T {
	v := new(T)
	(&filler{}).fill(reflect.ValueOf(v).Elem(), reflect.TypeFor[T]().Name())
	return v
}

// quantities are canonical, as Kubernetes prints them, so that kubeloop,
// which keeps a quantity's text, writes the bytes Kubernetes writes.
var quantities = []string{"100m", "128Mi", "2", "1500m", "3Gi", "250k"}

func (f *filler) next() int {
	f.n++
	return f.n
}

func (f *filler) fill(v reflect.Value, name string) {
	switch v.Type() {
	case reflect.TypeFor[metav1.Time]():
		// Time keeps whole seconds on both wires.
		v.Set(reflect.ValueOf(metav1.NewTime(time.Unix(1700000000+int64(f.next()), 0))))
		return
	case reflect.TypeFor[metav1.MicroTime]():
		n := f.next()
		v.Set(reflect.ValueOf(metav1.NewMicroTime(time.Unix(1700000000+int64(n), int64(n)*1000))))
		return
	case reflect.TypeFor[resource.Quantity]():
		v.Set(reflect.ValueOf(resource.MustParse(quantities[f.next()%len(quantities)])))
		return
	case reflect.TypeFor[intstr.IntOrString]():
		n := f.next()
		if n%2 == 0 {
			v.Set(reflect.ValueOf(intstr.FromInt32(int32(n))))
		} else {
			v.Set(reflect.ValueOf(intstr.FromString(fmt.Sprintf("%s-%d", name, n))))
		}
		return
	case reflect.TypeFor[metav1.FieldsV1]():
		v.Set(reflect.ValueOf(metav1.FieldsV1{Raw: fmt.Appendf(nil, `{"f:%s-%d":{}}`, name, f.next())}))
		return
	case reflect.TypeFor[runtime.RawExtension]():
		v.Set(reflect.ValueOf(runtime.RawExtension{Raw: fmt.Appendf(nil, `{"%s":%d}`, name, f.next())}))
		return
	case reflect.TypeFor[metav1.TypeMeta]():
		return // set by the test from the kind, as the apiserver does
	}

	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			if sf.IsExported() {
				f.fill(v.Field(i), sf.Name)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(v.Elem(), name)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			n := byte(f.next())
			v.SetBytes([]byte{n, n + 1, 0xff})
			return
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			f.fill(v.Index(i), name)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for range 2 {
			key := reflect.New(v.Type().Key()).Elem()
			f.fill(key, name+"-key")
			value := reflect.New(v.Type().Elem()).Elem()
			f.fill(value, name)
			v.SetMapIndex(key, value)
		}
	case reflect.String:
		v.SetString(fmt.Sprintf("%s-%d", name, f.next()))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(f.next()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(uint64(f.next()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(f.next()) + 0.5)
	default:
		panic(fmt.Sprintf("filler: %s (%s) has no filling", name, v.Type()))
	}
}
