// lesson/svg_text.h — the few SVG pieces the lesson's pictures share: escaped text, a
// letter-and-number label, an SVG document's opening and closing.
#pragma once

#include <string>

namespace satdof::lesson::svg {

std::string escape(const std::string& s);
std::string text(int x, int y, const std::string& s, int size = 13, const char* anchor = "middle",
                 const char* weight = "normal", const char* fill = "#222");
// "t3", "s17", "b5" (built in place: GCC 12 warns, wrongly, about `"t" + std::to_string(n)`).
std::string label(char letter, int value);
// The <svg> element with a white background and the arrowhead marker `arrow`.
std::string open(int width, int height);
inline std::string close() { return "</svg>\n"; }

}  // namespace satdof::lesson::svg
