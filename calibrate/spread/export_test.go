package spread

// Names the external tests use.
var Each = each
