package observe

import "go.opentelemetry.io/otel/attribute"

// The attributes of Tripwire's metrics and spans, one spelling for both:
// every name starts with "tripwire." (Prometheus: tripwire_key, ...).
const (
	AttrKey      = attribute.Key("tripwire.key")
	AttrOutcome  = attribute.Key("tripwire.outcome")  // a call's Label
	AttrState    = attribute.Key("tripwire.state")    // closed, open, half_open
	AttrFrom     = attribute.Key("tripwire.from")     // a transition's states
	AttrTo       = attribute.Key("tripwire.to")       //
	AttrReason   = attribute.Key("tripwire.reason")   // a transition's reason
	AttrFailures = attribute.Key("tripwire.failures") // consecutive failures after a transition
)
