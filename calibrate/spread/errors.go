package spread

import (
	"fmt"
	"sort"
	"strings"
)

// RoleError is runs that do not name the variant of a role alike, when
// the options do not name it (Collect): a run that names none (Unnamed),
// or runs that name several (Names, each with the first run that names
// it).
type RoleError struct {
	Role    string // "baseline" or "candidate"
	Unnamed string // the id of a run that names no variant for the role
	Names   []RoleName
}

// RoleName is a variant a run names for a role.
type RoleName struct{ Name, Run string }

func (e *RoleError) Error() string {
	if e.Unnamed != "" {
		return fmt.Sprintf("run %s does not say which variant is the %s", e.Unnamed, e.Role)
	}
	parts := make([]string, len(e.Names))
	for i, n := range e.Names {
		parts[i] = n.Name + " in " + n.Run
	}
	sort.Strings(parts)
	return fmt.Sprintf("the runs disagree on the %s (%s)", e.Role, strings.Join(parts, ", "))
}
