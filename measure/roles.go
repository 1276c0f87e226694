package measure

import "strings"

// Roles are the baseline and candidate among the variants vs (at least
// two): those given, else the first variant for the baseline (the second
// when the first is the candidate given) and the first other for the
// candidate. missing names the role given ("baseline" or "candidate")
// that is none of vs; "" when both are.
func Roles(vs []Variant, baseline, candidate string) (base, cand, missing string) {
	base, cand = baseline, candidate
	if base == "" {
		base = vs[0].Name
		if base == cand {
			base = vs[1].Name
		}
	}
	if cand == "" {
		for _, v := range vs {
			if v.Name != base {
				cand = v.Name
				break
			}
		}
	}
	has := func(name string) bool {
		for _, v := range vs {
			if v.Name == name {
				return true
			}
		}
		return false
	}
	switch {
	case !has(base):
		missing = "baseline"
	case !has(cand):
		missing = "candidate"
	}
	return base, cand, missing
}

// VariantNames lists the variants' names, comma-separated.
func VariantNames(vs []Variant) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}
