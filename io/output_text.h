#pragma once
// Text from input made safe for what prmkit writes: markup (HTML, SVG) and file names.
#include <string>
#include <string_view>

namespace prmkit {

/// Text as it may stand in HTML or SVG (XML) content and double-quoted
/// attribute values: names come from problem files, and a name must not open a tag.
std::string markupEscaped(std::string_view text);

/// A file name stem made from a name that comes from input (a problem's
/// name): letters, digits, '-', '_' and '.' kept, anything else (a '/', a
/// quote, a space) becomes '_', no leading '.', at most 100 characters, never
/// empty, so a name cannot point outside the output folder.
std::string fileStem(std::string_view name);

}  // namespace prmkit
