package site

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
)

// The page, its style sheet and its script, as written (assets/).
//
//go:embed assets/index.html assets/site.css assets/site.js
var assets embed.FS

// File is one file of the site: its name in the site's folder and its
// bytes.
type File struct {
	Name string
	Data []byte
}

// DataFile is the name of the data file; the page loads it with a
// <script> element (a page opened from disk may not fetch() a file).
const DataFile = "data.js"

// Files are the site's files: index.html, site.css, site.js and data.js.
func (s *Site) Files() ([]File, error) {
	var out []File
	for _, name := range []string{"index.html", "site.css", "site.js"} {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			return nil, fmt.Errorf("the site's %s: %w", name, err)
		}
		out = append(out, File{Name: name, Data: b})
	}
	return append(out, File{Name: DataFile, Data: s.Data}), nil
}

// dataScript writes doc as a script that sets window.QOSCAL_SITE. The
// JSON is escaped for a script: encoding/json writes <, > and & as \u003c,
// \u003e and \u0026 and U+2028 and U+2029 as \u2028 and \u2029, so that no
// text from an input can end the script, open a comment or a tag, or end
// a line inside a string.
func dataScript(doc *Doc) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("\"use strict\";\nwindow.QOSCAL_SITE = ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("the site's data: %w", err)
	}
	// Encode ends with a line break.
	out := bytes.TrimRight(b.Bytes(), "\n")
	out = append(out, ";\n"...)
	for _, bad := range []string{"</", "<!--", "\u2028", "\u2029"} {
		if bytes.Contains(out, []byte(bad)) {
			return nil, fmt.Errorf("the site's data holds %q after escaping: this is a bug in qoscal", bad)
		}
	}
	return out, nil
}
