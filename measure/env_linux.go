//go:build linux

package measure

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// systemInfo reads the processor's model from /proc/cpuinfo (its first
// "model name", or on ARM "Hardware" or "Model") and the kernel's release
// from /proc/sys/kernel/osrelease.
func systemInfo(func(string) string) (cpu, kernel string) {
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		found := map[string]string{}
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			if !ok {
				continue
			}
			k = strings.TrimSpace(k)
			if _, seen := found[k]; !seen {
				found[k] = strings.TrimSpace(v)
			}
		}
		for _, k := range []string{"model name", "Hardware", "Model", "cpu model"} {
			if v := found[k]; v != "" {
				cpu = v
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		kernel = string(bytes.TrimSpace(b))
	}
	return cpu, kernel
}

// LoadAverage is the system's load averages over 1, 5 and 15 minutes,
// from /proc/loadavg; nil when it cannot be read.
func LoadAverage() []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return nil
	}
	out := make([]float64, 3)
	for i := range out {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || v < 0 {
			return nil
		}
		out[i] = v
	}
	return out
}
