//go:build !linux && !darwin

package measure

// systemInfo: on Windows the processor is $PROCESSOR_IDENTIFIER (its
// family, model and vendor, not its marketing name); elsewhere nothing is
// known.
func systemInfo(getenv func(string) string) (cpu, kernel string) {
	return getenv("PROCESSOR_IDENTIFIER"), ""
}

// LoadAverage is nil where the system has no /proc/loadavg.
func LoadAverage() []float64 { return nil }
