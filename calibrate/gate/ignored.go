package gate

import "slices"

// NoteIgnored completes res.Ignored with the names of ignore (the
// GateOptions.Ignore the run was judged with) that the run's files
// printed without a figure (skipped: their lines said nothing to score),
// and returns the names of ignore that left nothing out, once each in
// the order given: neither the run nor the calibrated suite has them (a
// misspelt name?).
func (res *GateResult) NoteIgnored(ignore, skipped []string) (unknown []string) {
	for _, n := range skipped {
		if slices.Contains(ignore, n) && !slices.Contains(res.Ignored, n) {
			res.Ignored = append(res.Ignored, n)
		}
	}
	slices.Sort(res.Ignored)
	said := map[string]bool{}
	for _, n := range ignore {
		if !said[n] && !slices.Contains(res.Ignored, n) {
			unknown = append(unknown, n)
		}
		said[n] = true
	}
	return unknown
}
