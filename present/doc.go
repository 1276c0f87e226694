// Package present turns qoscal's results into views: for each command,
// one value that holds every figure it shows, with the names of
// docs/json.md for machine output, and a render.Doc for people. A figure
// is computed and laid out once, here; render draws it in each format.
// Nothing here reads files, computes a statistic or writes to a
// terminal.
//
// The views, a file (or two) each: Gate (gate.go; its verdict in words in
// gate_verdict.go, its JSON in gate_json.go), Spread (spread.go),
// Recommend and RecommendProfiles (recommend.go, recommend_json.go,
// profiles.go), Runs (runs.go), Drift (drift.go), Audit (audit.go),
// Measure (measure.go) and Report (report.go; the HTML page in
// report_html.go and report.html.tmpl). Each has Doc, its render.Doc,
// and JSON, its JSON document; the command shows either.
//
// It also says in the command line's words what package calibrate
// returns as values: its warnings (WarningLines, WarningTexts, Unsaid,
// WarningTitle) and the errors a flag puts right (Error), naming that
// flag; and a few sentences the command prints beside a view
// (DriftSentence, GateDriftNote). Number formats (format.go) and the
// figures views share (modelcheck.go, variance.go) are the package's
// own.
package present
