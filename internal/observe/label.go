package observe

// Label is how a call ended, as the tripwire.outcome attribute says it.
type Label uint8

// Call outcomes.
const (
	Success Label = iota
	Failure
	Timeout
	Rejected
	Canceled
	numLabels
)

var labelNames = [numLabels]string{"success", "failure", "timeout", "rejected", "canceled"}

func (o Label) String() string { return labelNames[o] }

// LabelOf is the outcome label of a call that returned err: its Kind,
// coarsened.
func LabelOf(err error) Label { return KindOf(err).Label() }
