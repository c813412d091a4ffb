#pragma once
// The viewer page's parts, embedded at build time (io/viewer/embed.cmake):
// the page template, prmkit's viewer script, and three.js with its orbit
// controls from Debian's libjs-three.
#include <string_view>

namespace prmkit::viewer_assets {
extern const std::string_view kPage;
extern const std::string_view kViewer;
extern const std::string_view kThree;
extern const std::string_view kOrbitControls;
}  // namespace prmkit::viewer_assets
