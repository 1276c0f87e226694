package backend

import (
	"slices"

	"qoscal/data/store"
)

// VerdictKey is what identifies a verdict in a store: its run and its
// calibration's SHA-256.
type VerdictKey struct{ Run, SHA256 string }

// KeyOf is a verdict's key.
func KeyOf(v *store.Verdict) VerdictKey { return VerdictKey{v.Run, v.Calibration.SHA256} }

// PlanVerdicts decides what an ingest writes of the verdicts in, given the
// digests the store holds for their keys (stored): the indices in in of
// the verdicts to write, in order, and the counts, as storing them one by
// one would count them. A key new to the store is added; the same digest
// again is unchanged; another digest replaces the verdict (in its place).
// Of several verdicts with one key in one call the last is written, and
// only if it differs from what the store holds.
func PlanVerdicts(in []store.Verdict, stored map[VerdictKey]string) (write []int, res store.LedgerResult) {
	cur := map[VerdictKey]string{}
	last := map[VerdictKey]int{}
	for i := range in {
		k := KeyOf(&in[i])
		d := in[i].Digest()
		old, ok := cur[k]
		if !ok {
			old, ok = stored[k]
		}
		switch {
		case !ok:
			res.VerdictsAdded++
		case old == d:
			res.VerdictsUnchanged++
		default:
			res.VerdictsReplaced++
		}
		cur[k] = d
		last[k] = i
	}
	for k, i := range last {
		if old, ok := stored[k]; !ok || old != cur[k] {
			write = append(write, i)
		}
	}
	slices.Sort(write)
	return write, res
}
