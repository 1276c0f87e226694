//go:build darwin

package measure

import "syscall"

// systemInfo asks sysctl for the processor's brand and the kernel's
// release.
func systemInfo(func(string) string) (cpu, kernel string) {
	cpu, _ = syscall.Sysctl("machdep.cpu.brand_string")
	kernel, _ = syscall.Sysctl("kern.osrelease")
	return cpu, kernel
}

// LoadAverage is nil on macOS: the load averages are a binary sysctl the
// standard library does not read.
func LoadAverage() []float64 { return nil }
