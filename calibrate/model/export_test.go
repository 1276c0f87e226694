package model

// Names the external tests use.
var CheckKeys = checkKeys
var ReadFileLimit = readFile

func (m *Matrix) BandsWith(alpha, df float64) []Band { return m.bandsWith(alpha, df) }
