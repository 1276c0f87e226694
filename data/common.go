package data

// CommonLabels are the labels that every one of the label sets carries
// with the same value (a calibration file's labels, of its runs'); empty
// for none.
func CommonLabels(sets []map[string]string) map[string]string {
	out := map[string]string{}
	if len(sets) == 0 {
		return out
	}
	for k, v := range sets[0] {
		out[k] = v
	}
	for _, s := range sets[1:] {
		for k, v := range out {
			if s[k] != v {
				delete(out, k)
			}
		}
	}
	return out
}
