// The source of the targets that make the shared precompiled headers (a target needs one).
