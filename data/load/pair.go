package load

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/qoscal/qoscal/data"
)

// NamePair names apart two runs of a pair that have one id (two run
// folders of one name in two places: p/a/run-01, p/b/run-01), read from
// the paths pa and pb, by the end of their paths that tells them apart
// (a/run-01, b/run-01); a zip artifact's ".zip" is left off, and a run
// whose path does not end in its id (a CSV file) keeps its id after a
// colon (x.csv:r1). The same run given twice, or two runs no end of
// their paths tells apart, is an error.
func NamePair(a, b *data.Run, pa, pb string) error {
	sa, errA := os.Stat(pa)
	sb, errB := os.Stat(pb)
	if errA == nil && errB == nil && os.SameFile(sa, sb) {
		kind := "run folder"
		if !sa.IsDir() {
			kind = "file"
		}
		return fmt.Errorf("%s and %s are the same %s (%s): give two different runs", pa, pb, kind, a.ID)
	}
	ca, cb := pathParts(pa), pathParts(pb)
	k := 1
	for k < len(ca) && k < len(cb) && strings.Join(ca[len(ca)-k:], "/") == strings.Join(cb[len(cb)-k:], "/") {
		k++
	}
	name := func(run *data.Run, parts []string) string {
		tail := append([]string(nil), parts[max(0, len(parts)-k):]...)
		last := tail[len(tail)-1]
		switch {
		case last == run.ID:
		case strings.EqualFold(filepath.Ext(last), ".zip") && strings.TrimSuffix(last, filepath.Ext(last)) == run.ID:
			tail[len(tail)-1] = run.ID
		default:
			tail[len(tail)-1] = last + ":" + run.ID
		}
		return strings.Join(tail, "/")
	}
	ida, idb := name(a, ca), name(b, cb)
	if ida == idb || data.CheckName("run id", ida) != nil || data.CheckName("run id", idb) != nil {
		return fmt.Errorf("the two runs are both %s (%s and %s): give two different runs", a.ID, pa, pb)
	}
	a.ID, b.ID = ida, idb
	return nil
}

// pathParts splits a path, made absolute and clean, into its names.
func pathParts(p string) []string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return strings.FieldsFunc(filepath.ToSlash(filepath.Clean(p)), func(r rune) bool { return r == '/' })
}

// SameFiles reports whether the baseline's result file bf and the
// candidate's cf are one file (same), or two with the same bytes
// (identical), in the folder dir when it is not "" (a run folder; a dir
// that is no folder, a zip artifact or a CSV file, is neither). The
// candidate's file (and the baseline's) are returned as found. A run whose
// two variants read one file has every ratio 1, whatever the candidate
// is.
func SameFiles(dir, bf, cf string) (same, identical bool, bpath, cpath string) {
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return false, false, "", ""
		}
		bf, cf = filepath.Join(dir, bf), filepath.Join(dir, cf)
	}
	sb, err1 := os.Stat(bf)
	sc, err2 := os.Stat(cf)
	switch {
	case err1 != nil || err2 != nil || !sb.Mode().IsRegular() || !sc.Mode().IsRegular():
		return false, false, bf, cf
	case os.SameFile(sb, sc):
		return true, false, bf, cf
	}
	return false, sb.Size() == sc.Size() && sameBytes(bf, cf), bf, cf
}

// sameBytes reports whether two files hold the same bytes, reading both a
// block at a time.
func sameBytes(a, b string) bool {
	fa, err := os.Open(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		na, ea := io.ReadFull(fa, ba)
		nb, eb := io.ReadFull(fb, bb)
		if na != nb || !bytes.Equal(ba[:na], bb[:nb]) {
			return false
		}
		if ea != nil || eb != nil {
			return (ea == io.EOF || ea == io.ErrUnexpectedEOF) && (eb == io.EOF || eb == io.ErrUnexpectedEOF)
		}
	}
}

// ResultFiles are the files that hold the results of a run's variants
// baseline and candidate (VariantSpecs, as --baseline and --candidate
// give them): the files they name, inside the run folder when paths is
// one folder; a path that is a file (a CSV file of the run, an
// artifact's zip) is that file; a folder 'qoscal measure' wrote is read
// from its MeasuredFile, which holds every variant's results, unless the
// variants both name files it holds (the rule Runs reads a folder by).
func ResultFiles(paths []string, baseline, candidate string) []string {
	if len(paths) == 1 {
		if fi, err := os.Stat(paths[0]); err == nil && !fi.IsDir() {
			return []string{paths[0]}
		}
	}
	var out []string
	named := 0
	for _, s := range []string{baseline, candidate} {
		spec, err := ParseVariantSpec(s)
		if err != nil || spec.File == "" {
			continue
		}
		p := spec.File
		if len(paths) == 1 {
			p = filepath.Join(paths[0], p)
		}
		if _, err := os.Stat(p); err == nil {
			named++
		}
		if len(out) == 0 || out[0] != p {
			out = append(out, p)
		}
	}
	if len(paths) == 1 && named < 2 && IsMeasuredFolder(paths[0]) {
		return []string{filepath.Join(paths[0], MeasuredFile)}
	}
	return out
}
