// lesson/svg_text.cpp — see svg_text.h.
#include "lesson/svg_text.h"

#include <sstream>

namespace satdof::lesson::svg {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string text(int x, int y, const std::string& s, int size, const char* anchor, const char* weight, const char* fill) {
  std::ostringstream o;
  o << "<text x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << size << "\" text-anchor=\"" << anchor
    << "\" font-weight=\"" << weight << "\" fill=\"" << fill << "\">" << escape(s) << "</text>\n";
  return o.str();
}

std::string label(char letter, int value) {
  std::string s(1, letter);
  s += std::to_string(value);
  return s;
}

std::string open(int width, int height) {
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"6\" refY=\"4\" orient=\"auto\">"
       "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#c62828\"/></marker></defs>\n";
  return o.str();
}

}  // namespace satdof::lesson::svg
