package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	unicodeutil "unicode"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/net/html"
	"golang.org/x/text/encoding/unicode"
	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

// update rewrites the expected outputs inside the scripts (cmp stdout FILE).
var update = flag.Bool("update", false, "rewrite the want files inside testdata/*.txt")

func TestMain(m *testing.M) {
	if os.Getenv("QOSCAL_RUN_MAIN") == "1" {
		// A test runs the test binary as qoscal itself, in a process of
		// its own (to send it signals); its children do not inherit this.
		os.Unsetenv("QOSCAL_RUN_MAIN")
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv("QOSCAL_FAKEBENCH") == "1" {
		// The Go tests of measure run the test binary as their benchmark.
		os.Exit(fakebench(os.Args[1:]))
	}
	testscript.Main(m, map[string]func(){
		"qoscal":    func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"fakebench": func() { os.Exit(fakebench(os.Args[1:])) },
	})
}

// TestScripts runs the CLI scenarios in testdata/*.txt, one per file.
func TestScripts(t *testing.T) {
	samples, err := filepath.Abs("../../data/samples")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata",
		Setup: func(env *testscript.Env) error {
			env.Setenv("SAMPLES", samples)
			env.Setenv("SOURCE_DATE_EPOCH", "1796112000") // 2026-12-01T08:00:00Z
			env.Setenv("QOSCAL_DB", "")
			env.Setenv("GITHUB_ACTIONS", "")
			env.Setenv("GITHUB_STEP_SUMMARY", "")
			env.Setenv("GITHUB_OUTPUT", "")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"encode":     cmdEncode,
			"chop":       cmdChop,
			"status":     cmdStatus,
			"repeat":     cmdRepeat,
			"jsondoc":    cmdJSONDoc,
			"jsonset":    cmdJSONSet,
			"jsonpath":   cmdJSONPath,
			"nocommands": cmdNoCommands,
			"once":       cmdOnce,
			"mkzip":      cmdMkzip,
			"link":       cmdLink,
			"onlyfiles":  cmdOnlyFiles,
			"htmltext":   cmdHTMLText,
			"sqlexec":    cmdSQLExec,
			"fakegithub": cmdFakeGitHub,
		},
		RequireUniqueNames: true,
		UpdateScripts:      *update,
	})
}

// cmdEncode rewrites a text file as Windows tools write it:
//
//	encode utf16le-bom|utf16le|utf16be-bom|utf8-bom|crlf|cr SRC DST
//
// Every encoding but utf8-bom and cr also turns LF into CRLF; cr turns LF
// into a lone CR (old Mac tools, progress meters).
func cmdEncode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: encode ENCODING SRC DST")
	}
	src := []byte(ts.ReadFile(args[1]))
	crlf := func(b []byte) []byte {
		var out []byte
		for _, c := range b {
			if c == '\n' {
				out = append(out, '\r')
			}
			out = append(out, c)
		}
		return out
	}
	var out []byte
	var err error
	switch args[0] {
	case "utf16le-bom":
		out, err = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes(crlf(src))
	case "utf16le":
		out, err = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewEncoder().Bytes(crlf(src))
	case "utf16be-bom":
		out, err = unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewEncoder().Bytes(crlf(src))
	case "utf8-bom":
		out = append([]byte{0xEF, 0xBB, 0xBF}, src...)
	case "crlf":
		out = crlf(src)
	case "cr":
		out = bytes.ReplaceAll(src, []byte{'\n'}, []byte{'\r'})
	default:
		err = fmt.Errorf("unknown encoding %q", args[0])
	}
	ts.Check(err)
	ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(args[2])), 0o755))
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), out, 0o644))
}

// cmdHTMLText writes the text of an HTML page as a browser shows it, to
// check with grep: htmltext PAGE OUT parses PAGE (golang.org/x/net/html,
// failing when it does not parse) and writes its text with each block
// (heading, paragraph, list item, table row) on a line of its own and
// the cells of a row joined by " | "; the text of style and svg elements
// is left out.
func cmdHTMLText(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: htmltext PAGE OUT")
	}
	doc, err := html.Parse(strings.NewReader(ts.ReadFile(args[0])))
	if err != nil {
		ts.Fatalf("%s: %v", args[0], err)
	}
	var b strings.Builder
	block := map[string]bool{"h1": true, "h2": true, "h3": true, "p": true, "li": true, "tr": true, "div": true, "figcaption": true, "title": true}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "style" || n.Data == "svg") {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") && c.PrevSibling != nil {
				b.WriteString(" | ")
			}
			walk(c)
		}
		if n.Type == html.ElementNode && block[n.Data] {
			b.WriteString("\n")
		}
	}
	walk(doc)
	// One block a line: no blank lines, no line of spaces alone.
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if err := os.WriteFile(ts.MkAbs(args[1]), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		ts.Fatalf("%v", err)
	}
}

// cmdLink makes a hard link: NEW is another name of OLD's file.
//
//	link OLD NEW
func cmdLink(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: link OLD NEW")
	}
	ts.Check(os.Link(ts.MkAbs(args[0]), ts.MkAbs(args[1])))
}

// cmdChop removes the last N bytes of a file, as a job killed mid-write
// leaves it:
//
//	chop N FILE
func cmdChop(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: chop N FILE")
	}
	var n int
	if _, err := fmt.Sscan(args[0], &n); err != nil {
		ts.Fatalf("chop: %v", err)
	}
	b := []byte(ts.ReadFile(args[1]))
	if n > len(b) {
		ts.Fatalf("chop: file has only %d bytes", len(b))
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b[:len(b)-n], 0o644))
}

// cmdRepeat writes a long file: SRC's content N times, then TAIL's, if
// given:
//
//	repeat N SRC DST [TAIL]
func cmdRepeat(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || len(args) > 4 {
		ts.Fatalf("usage: repeat N SRC DST [TAIL]")
	}
	var n int
	if _, err := fmt.Sscan(args[0], &n); err != nil {
		ts.Fatalf("repeat: %v", err)
	}
	out := bytes.Repeat([]byte(ts.ReadFile(args[1])), n)
	if len(args) == 4 {
		out = append(out, ts.ReadFile(args[3])...)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[2]), out, 0o644))
}

// cmdStatus runs a command and checks its exact exit code; stdout and
// stderr are kept for the commands that follow, as with exec:
//
//	status N qoscal ARGS...
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N COMMAND [ARGS...]")
	}
	var want int
	if _, err := fmt.Sscan(args[0], &want); err != nil {
		ts.Fatalf("status: %v", err)
	}
	err := ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("status: %v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdJSONDoc checks that a file (stdout, stderr or a file name) holds
// exactly one JSON document, parsed, with nothing after it but blanks,
// and that its top-level fields have the given values (compared as
// compact JSON text: verdict="pass", exit_code=2, floor=null); a field
// that is not a top-level key but has dots is a path of object keys and
// array indices, as jsonpath's (profiles.0.gated=3); a value @FILE:PATH
// is the value at that field or path in the JSON file FILE, compared as
// written there:
//
//	jsondoc stdout [FIELD=JSON...]
//
// Negated, it checks that the file is not one JSON document.
func cmdJSONDoc(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: jsondoc FILE [FIELD=JSON...]")
	}
	text := ts.ReadFile(args[0])
	dec := json.NewDecoder(strings.NewReader(text))
	var raw json.RawMessage
	err := dec.Decode(&raw)
	var doc map[string]json.RawMessage
	if err == nil && len(args) > 1 {
		err = json.Unmarshal(raw, &doc)
	}
	if err == nil {
		if _, err2 := dec.Token(); err2 != io.EOF {
			err = fmt.Errorf("more after the first JSON document (offset %d)", dec.InputOffset())
		}
	}
	if neg {
		if err == nil {
			ts.Fatalf("%s is one JSON document", args[0])
		}
		return
	}
	if err != nil {
		ts.Fatalf("%s is not one JSON document: %v", args[0], err)
	}
	for _, kv := range args[1:] {
		k, want, ok := strings.Cut(kv, "=")
		if !ok {
			ts.Fatalf("jsondoc: %q is not FIELD=JSON", kv)
		}
		got, present := doc[k]
		if !present && strings.Contains(k, ".") {
			got, present = jsonAt(doc, strings.Split(k, "."))
		}
		if !present {
			ts.Fatalf("field %s is missing", k)
		}
		if file, path, ok := strings.Cut(strings.TrimPrefix(want, "@"), ":"); ok && strings.HasPrefix(want, "@") {
			// The value at PATH in another JSON file: a figure checked
			// against the one it was taken from.
			var other map[string]json.RawMessage
			if err := json.Unmarshal([]byte(ts.ReadFile(file)), &other); err != nil {
				ts.Fatalf("jsondoc: %s: %v", file, err)
			}
			v, ok := other[path]
			if !ok {
				v, ok = jsonAt(other, strings.Split(path, "."))
			}
			if !ok {
				ts.Fatalf("jsondoc: %s has no %s", file, path)
			}
			want = string(v)
		}
		var g, w bytes.Buffer
		if err := json.Compact(&g, got); err != nil {
			ts.Fatalf("field %s: %v", k, err)
		}
		if err := json.Compact(&w, []byte(want)); err != nil {
			ts.Fatalf("jsondoc: %s=%s is not JSON: %v", k, want, err)
		}
		if g.String() != w.String() {
			ts.Fatalf("field %s is %s, want %s", k, g.String(), w.String())
		}
	}
}

// jsonAt is the value at the path of object keys and array indices
// below doc's top level, and whether there is one.
func jsonAt(doc map[string]json.RawMessage, path []string) (json.RawMessage, bool) {
	at, ok := doc[path[0]]
	for _, k := range path[1:] {
		if !ok {
			return nil, false
		}
		var obj map[string]json.RawMessage
		var arr []json.RawMessage
		switch {
		case json.Unmarshal(at, &obj) == nil && obj != nil:
			at, ok = obj[k]
		case json.Unmarshal(at, &arr) == nil:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(arr) {
				return nil, false
			}
			at = arr[i]
		default:
			return nil, false
		}
	}
	return at, ok
}

// qoscalCommand is what a workflow command that qoscal itself writes
// looks like: an annotation titled "qoscal ...".
var qoscalCommand = regexp.MustCompile(`^::(error|warning) title=qoscal [^:]*::`)

// cmdNoCommands checks that no line of the files (stdout, stderr, file
// names) would be run as a workflow command by the GitHub Actions runner,
// other than qoscal's own annotations. The runner reads lines with .NET's
// ReadLine (LF, CR or CRLF ends one) and trims .NET white space before it
// looks for "::" (actions/runner ActionCommand.TryParseV2); it also runs
// the older form "##[command]" found anywhere in a line (TryParse).
//
//	nocommands stdout stderr [FILE...]
func cmdNoCommands(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: nocommands FILE...")
	}
	for _, name := range args {
		for i, line := range runnerLines(ts.ReadFile(name)) {
			t := strings.TrimLeftFunc(line, func(r rune) bool { return unicodeutil.IsSpace(r) || (r >= 0x1c && r <= 0x1f) })
			if strings.HasPrefix(t, "::") && !qoscalCommand.MatchString(t) {
				ts.Fatalf("%s line %d would run as a workflow command: %q", name, i+1, line)
			}
			// The runner's older form, found anywhere in a line.
			if strings.Contains(line, "##[") {
				ts.Fatalf("%s line %d would run as a legacy workflow command (##[): %q", name, i+1, line)
			}
		}
	}
}

// cmdJSONSet writes a copy of a JSON object file with top-level fields set
// to JSON values, or removed (-FIELD), as a hand edit or an attacker
// would:
//
//	jsonset SRC DST FIELD=JSON... -FIELD...
func cmdJSONSet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: jsonset SRC DST FIELD=JSON|-FIELD...")
	}
	var doc map[string]json.RawMessage
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &doc))
	for _, kv := range args[2:] {
		if k, ok := strings.CutPrefix(kv, "-"); ok {
			delete(doc, k)
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !json.Valid([]byte(v)) {
			ts.Fatalf("jsonset: %q is not FIELD=JSON", kv)
		}
		doc[k] = json.RawMessage(v)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), append(b, '\n'), 0o644))
}

// cmdJSONPath writes a copy of a JSON file with the values at paths set
// to JSON values, as a hand edit deep in a file would: a path is object
// keys and array indices joined by dots (profiles.0.floor). Numbers are
// copied as written.
//
//	jsonpath SRC DST PATH=JSON...
func cmdJSONPath(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: jsonpath SRC DST PATH=JSON...")
	}
	parse := func(s string) any {
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		ts.Check(dec.Decode(&v))
		return v
	}
	doc := parse(ts.ReadFile(args[0]))
	for _, kv := range args[2:] {
		path, v, ok := strings.Cut(kv, "=")
		if !ok || !json.Valid([]byte(v)) {
			ts.Fatalf("jsonpath: %q is not PATH=JSON", kv)
		}
		keys := strings.Split(path, ".")
		at := doc
		for i, k := range keys {
			last := i == len(keys)-1
			switch c := at.(type) {
			case map[string]any:
				if last {
					c[k] = parse(v)
				} else {
					at = c[k]
				}
			case []any:
				n, err := strconv.Atoi(k)
				if err != nil || n < 0 || n >= len(c) {
					ts.Fatalf("jsonpath: %s: no element %s", path, k)
				}
				if last {
					c[n] = parse(v)
				} else {
					at = c[n]
				}
			default:
				ts.Fatalf("jsonpath: %s: %s is in no object or array", path, k)
			}
		}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), append(b, '\n'), 0o644))
}

// cmdOnce checks that no message is printed twice across the files (stdout,
// stderr): a line's message is what follows "qoscal: error: ",
// "qoscal: warning: " or an annotation's "::", unescaped; blank lines and
// table lines of dashes do not count. Under Actions an annotation replaces
// the plain line; it must not repeat it (issue 16).
//
//	once FILE...
func cmdOnce(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: once FILE...")
	}
	unesc := strings.NewReplacer("%0A", "\n", "%0D", "\r", "%25", "%")
	seen := map[string]string{}
	for _, name := range args {
		for i, line := range runnerLines(ts.ReadFile(name)) {
			msg := strings.TrimSpace(line)
			if m := qoscalCommand.FindString(msg); m != "" {
				msg = unesc.Replace(msg[len(m):])
			}
			for _, p := range []string{"qoscal: error: ", "qoscal: warning: ", "qoscal: "} {
				if s, ok := strings.CutPrefix(msg, p); ok {
					msg = s
					break
				}
			}
			// An annotation's message holds its lines; each counts.
			for _, m := range strings.Split(msg, "\n") {
				m = strings.TrimSpace(m)
				if m == "" || strings.Trim(m, "-|: ") == "" {
					continue
				}
				where := fmt.Sprintf("%s line %d", name, i+1)
				if prev, ok := seen[m]; ok {
					ts.Fatalf("%q is printed twice: %s and %s", m, prev, where)
				}
				seen[m] = where
			}
		}
	}
}

// cmdMkzip writes a zip archive as the Actions API serves an artifact:
//
//	mkzip ZIP NAME=FILE...      an entry NAME holding FILE's content
//	mkzip ZIP -dir DIR          every file under DIR, named relative to it
//	mkzip ZIP -bomb NAME MiB    an entry of MiB mebibytes of zeros
//	mkzip ZIP -symlink NAME TARGET
//
// NAME is written as given ("../x", "/etc/x"), as a hostile archive would.
func cmdMkzip(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mkzip ZIP NAME=FILE... | -dir DIR | -bomb NAME MiB | -symlink NAME TARGET")
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name string, content []byte) {
		w, err := zw.Create(name)
		ts.Check(err)
		_, err = w.Write(content)
		ts.Check(err)
	}
	switch args[1] {
	case "-dir":
		root := ts.MkAbs(args[2])
		ts.Check(filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			add(filepath.ToSlash(rel), b)
			return nil
		}))
	case "-bomb":
		var mib int
		if _, err := fmt.Sscan(args[3], &mib); err != nil {
			ts.Fatalf("mkzip: %v", err)
		}
		w, err := zw.Create(args[2])
		ts.Check(err)
		zero := make([]byte, 1<<20)
		for i := 0; i < mib; i++ {
			_, err := w.Write(zero)
			ts.Check(err)
		}
	case "-symlink":
		h := &zip.FileHeader{Name: args[2], Method: zip.Store}
		h.SetMode(os.ModeSymlink | 0o777)
		w, err := zw.CreateHeader(h)
		ts.Check(err)
		_, err = w.Write([]byte(args[3]))
		ts.Check(err)
	default:
		for _, a := range args[1:] {
			name, file, ok := strings.Cut(a, "=")
			if !ok {
				ts.Fatalf("mkzip: %q is not NAME=FILE", a)
			}
			add(name, []byte(ts.ReadFile(file)))
		}
	}
	ts.Check(zw.Close())
	ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(args[0])), 0o755))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), buf.Bytes(), 0o644))
}

// cmdSQLExec runs SQL on a SQLite file as another program would (SQLite's
// defaults, no qoscal code): what damages a store behind qoscal's back.
//
//	sqlexec DB SQL
func cmdSQLExec(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sqlexec DB SQL")
	}
	c, err := sqlite.OpenConn(ts.MkAbs(args[0]), sqlite.OpenReadWrite)
	ts.Check(err)
	defer c.Close()
	ts.Check(sqlitex.ExecuteScript(c, args[1], nil))
}
