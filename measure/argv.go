package measure

import (
	"errors"
	"fmt"
	"strings"
)

// Split splits a command into its program and arguments, without a shell,
// by these rules (the same on every system, documented in 'qoscal help
// measure'):
//
//   - blanks (spaces, tabs, line breaks) separate words;
//   - 'single quotes' keep everything inside as it is;
//   - "double quotes" keep everything inside as it is, except that \" is
//     a quote and \\ a backslash;
//   - outside quotes, a backslash before a blank, a quote or a backslash
//     makes that character part of the word; any other backslash is
//     itself (C:\bench\run.exe keeps its backslashes);
//   - what only a shell understands, unquoted, is refused rather than
//     passed on as a word the user did not mean: the operators | & ; < >
//     ( ) and `, $ (variables), the patterns * and ?, ~ at the start of a
//     word, and NAME=VALUE before the program (an environment setting).
//     Quote the character, or give --shell.
//
// An empty command, or an unterminated quote, is an error too.
func Split(cmd string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	end := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			end()
		case c == '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("a ' is not closed")
			}
			w.WriteString(cmd[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			inWord = true
			closed := false
			for i++; i < len(cmd); i++ {
				if cmd[i] == '\\' && i+1 < len(cmd) && (cmd[i+1] == '"' || cmd[i+1] == '\\') {
					w.WriteByte(cmd[i+1])
					i++
					continue
				}
				if cmd[i] == '"' {
					closed = true
					break
				}
				w.WriteByte(cmd[i])
			}
			if !closed {
				return nil, errors.New(`a " is not closed`)
			}
		case c == '\\' && i+1 < len(cmd) && strings.IndexByte(" \t\"'\\", cmd[i+1]) >= 0:
			w.WriteByte(cmd[i+1])
			inWord = true
			i++
		case strings.IndexByte("|&;<>()`$*?", c) >= 0 || (c == '~' && !inWord):
			return nil, fmt.Errorf("%q at byte %d is for a shell: quote it, or run the command with --shell", string(c), i+1)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	end()
	if len(words) == 0 {
		return nil, errors.New("the command is empty")
	}
	if name, _, ok := strings.Cut(words[0], "="); ok && envName(name) {
		return nil, fmt.Errorf("%q sets an environment variable, which a shell does: run the command with --shell, or set the variable for qoscal", words[0])
	}
	return words, nil
}

// envName reports whether s is a shell variable's name.
func envName(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
