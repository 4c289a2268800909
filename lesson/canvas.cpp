// lesson/canvas.cpp — see canvas.h.
#include "lesson/canvas.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "engine/files/safe_write.h"

namespace satdof::lesson {

namespace {

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

}  // namespace

void SvgCanvas::page(int width, int height) {
  out_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
       << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
  out_ << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out_ << "<defs><marker id=\"arrow\" markerWidth=\"8\" markerHeight=\"8\" refX=\"6\" refY=\"4\" orient=\"auto\">"
          "<path d=\"M0,0 L8,4 L0,8 z\" fill=\"#c62828\"/></marker></defs>\n";
}

void SvgCanvas::rect(int x, int y, int width, int height, const char* fill, const char* stroke, float strokeWidth,
                     int radius) {
  out_ << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << width << "\" height=\"" << height << "\"";
  if (radius > 0) out_ << " rx=\"" << radius << "\"";
  out_ << " fill=\"" << (fill ? fill : "none") << "\"";
  if (stroke) {
    out_ << " stroke=\"" << stroke << "\"";
    if (strokeWidth != 1) out_ << " stroke-width=\"" << strokeWidth << "\"";
  }
  out_ << "/>\n";
}

void SvgCanvas::text(int x, int y, const std::string& s, int size, const char* anchor, const char* weight,
                     const char* fill) {
  out_ << "<text x=\"" << x << "\" y=\"" << y << "\" font-size=\"" << size << "\" text-anchor=\"" << anchor
       << "\" font-weight=\"" << weight << "\" fill=\"" << fill << "\">" << escape(s) << "</text>\n";
}

void SvgCanvas::line(int x1, int y1, int x2, int y2, const char* stroke, float width, bool dashed, bool arrow) {
  out_ << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2 << "\" y2=\"" << y2 << "\" stroke=\"" << stroke
       << "\"";
  if (width != 1) out_ << " stroke-width=\"" << width << "\"";
  if (dashed) out_ << " stroke-dasharray=\"4,3\"";
  if (arrow) out_ << " marker-end=\"url(#arrow)\"";
  out_ << "/>\n";
}

void SvgCanvas::arrowCurve(int x1, int y1, int cx1, int cy1, int cx2, int cy2, int x2, int y2, const char* stroke,
                           float width) {
  out_ << "<path d=\"M" << x1 << "," << y1 << " C" << cx1 << "," << cy1 << " " << cx2 << "," << cy2 << " " << x2 << ","
       << y2 << "\" fill=\"none\" stroke=\"" << stroke << "\" stroke-width=\"" << width
       << "\" marker-end=\"url(#arrow)\"/>\n";
}

std::string svgOf(const std::function<void(Canvas&)>& draw) {
  SvgCanvas canvas;
  draw(canvas);
  return canvas.svg();
}

std::vector<std::filesystem::path> writeStepPictures(const std::filesystem::path& folder, const std::string& name,
                                                     int steps, const std::function<void(Canvas&, int)>& draw) {
  files::createFolders(folder);
  std::vector<std::filesystem::path> paths;
  for (int k = 0; k < steps; ++k) {
    char suffix[64];
    std::snprintf(suffix, sizeof suffix, "-step-%02d.svg", k + 1);
    const std::filesystem::path path = folder / (name + suffix);
    files::writeFileAtomically(path, svgOf([&](Canvas& c) { draw(c, k); }));
    paths.push_back(path);
  }
  return paths;
}

std::vector<std::string> wrapText(const std::string& text, std::size_t chars) {
  std::vector<std::string> out;
  std::istringstream words(text);
  std::string word, line;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > chars) out.push_back(line), line.clear();
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

void appendWrapped(std::vector<TextLine>& lines, const TextLine& line, int width) {
  const int perMille = std::string(line.weight) == "bold" ? 570 : 520;
  const int charWidthMilli = std::max(7000, line.size * perMille);
  for (std::string& part : wrapText(line.text, static_cast<std::size_t>(width * 1000 / charWidthMilli)))
    lines.push_back({std::move(part), line.size, line.weight, line.colour});
}

std::string label(char letter, int value) {
  std::string s(1, letter);
  s += std::to_string(value);
  return s;
}

}  // namespace satdof::lesson
