package present

import "testing"

// TestListSome: a warning names up to max runs, then how many more.
func TestListSome(t *testing.T) {
	for _, tt := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "b", "c"}, "a, b, c"},
		{[]string{"a", "b", "c", "d", "e"}, "a, b, c and 2 more"},
	} {
		if got := listSome(tt.names, 3); got != tt.want {
			t.Errorf("ListSome(%q, 3) = %q, want %q", tt.names, got, tt.want)
		}
	}
}
