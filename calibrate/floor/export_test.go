package floor

// Names the external tests use.
var Upper95 = upper95
