// Package audit checks a calibration's claims on the verdicts it gave:
// the false-alarm and detection rates it promised against the runs it
// judged, marked or presumed (Audit), and on the verdicts a store's ledger
// kept (AuditLedger).
package audit
