package data

import (
	"maps"
	"testing"
)

func TestCommonLabels(t *testing.T) {
	for _, c := range []struct {
		sets []map[string]string
		want map[string]string
	}{
		{nil, map[string]string{}},
		{[]map[string]string{nil, {"a": "1"}}, map[string]string{}},
		{[]map[string]string{{"a": "1", "b": "2"}}, map[string]string{"a": "1", "b": "2"}},
		{[]map[string]string{{"a": "1", "b": "2", "c": ""}, {"a": "1", "b": "3"}, {"a": "1", "b": "2"}}, map[string]string{"a": "1", "c": ""}},
	} {
		if got := CommonLabels(c.sets); !maps.Equal(got, c.want) || got == nil {
			t.Errorf("CommonLabels(%v) = %v, want %v", c.sets, got, c.want)
		}
	}
}
