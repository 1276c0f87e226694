package backend

import (
	"fmt"
	"slices"

	"github.com/qoscal/qoscal/data/store"
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

// CheckLedger checks every entry of a ledger read from the store at
// location (store.Verdict.Check, store.Mark.Check), as a write checks
// them: a value no qoscal writes (an infinite score, a mark that is
// neither healthy nor regressed) was put there by something else, and is
// reported as a damaged store, naming the table and the run of the row,
// rather than counted by the audit or printed.
func CheckLedger(location string, l *store.Ledger) error {
	for i := range l.Verdicts {
		v := l.Verdicts[i]
		if err := v.CheckBands(); err != nil {
			return DamagedLedger(location, "verdict_bands", err)
		}
		v.Bands = nil
		if err := v.Check(); err != nil {
			return DamagedLedger(location, "verdicts", err)
		}
	}
	for i := range l.Marks {
		if err := l.Marks[i].Check(); err != nil {
			return DamagedLedger(location, "marks", err)
		}
	}
	return nil
}

// DamagedLedger is the error of a row of the ledger's table that holds a
// value no qoscal writes: err says which row (by its run) and what.
func DamagedLedger(location, table string, err error) error {
	return fmt.Errorf("store %s is damaged: in its table %s, %w", location, table, err)
}

// TimeError is a ledger time that does not read as one: what (the
// verdict or the mark of run ID) and the text stored.
func TimeError(what, text string) error {
	return fmt.Errorf("%s: time %q is not an RFC 3339 time", what, text)
}
