package payload

import "fmt"

// CheckSize refuses a record size the generator of kind cannot fill: a
// json record smaller than MinJSONSize would fail every trial once it has
// started. The message names neither flag nor key: callers add theirs.
func CheckSize(kind string, size int) error {
	if kind == KindJSON && size < MinJSONSize {
		return fmt.Errorf("%d is below the json payload's minimum of %d bytes", size, MinJSONSize)
	}
	return nil
}
