package lang

// ptDesc and esDesc translate the descriptions of algorithms ("algo:NAME") and
// presets ("preset:NAME"). An algorithm or preset without one shows its English
// description; the catalog test lists which are missing.
var ptDesc = map[string]string{}

var esDesc = map[string]string{}
