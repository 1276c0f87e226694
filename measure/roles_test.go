package measure

import "testing"

func TestRoles(t *testing.T) {
	vs := []Variant{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	for _, c := range []struct {
		baseline, candidate string
		base, cand, missing string
	}{
		{"", "", "a", "b", ""},
		{"", "a", "b", "a", ""},
		{"c", "", "c", "a", ""},
		{"b", "c", "b", "c", ""},
		{"z", "", "z", "a", "baseline"},
		{"", "z", "a", "z", "candidate"},
		{"y", "z", "y", "z", "baseline"},
	} {
		base, cand, missing := Roles(vs, c.baseline, c.candidate)
		if base != c.base || cand != c.cand || missing != c.missing {
			t.Errorf("Roles(%q, %q) = %q, %q, %q; want %q, %q, %q", c.baseline, c.candidate, base, cand, missing, c.base, c.cand, c.missing)
		}
	}
	if got := VariantNames(vs); got != "a, b, c" {
		t.Errorf("VariantNames = %q", got)
	}
}
