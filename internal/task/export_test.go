package task

// NewAsk is newAsk, for the package's external tests.
var NewAsk = newAsk
