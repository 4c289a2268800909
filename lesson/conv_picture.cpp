// lesson/conv_picture.cpp — a convolution trace's steps as pictures (conv_trace.h). Layout,
// top to bottom: the title and the counts; the block's footprint, a square per input cell
// (the output tile outlined, one output's window outlined in red): in the load step the
// cells the tile holds (the output tile blue, its halo orange), in the compute step the
// reads of each cell, shared memory in blue and global memory in red, darker for more;
// cells outside the image grey; the legend.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "lesson/conv_trace.h"

namespace satdof::lesson {
namespace {

constexpr int kLeft = 16;
// Characters a text line holds before it wraps: the window's 13-pixel font is 7 pixels a
// character, and a picture is at least 1000 wide.
constexpr std::size_t kLineChars = 130;

// `colour` ("#rrggbb") faded towards white: share 0 white, 1 the colour itself.
std::string shade(const char* colour, double share) {
  const unsigned long rgb = std::strtoul(colour + 1, nullptr, 16);
  const auto mix = [&](int shift) {
    const double c = double((rgb >> shift) & 0xff);
    return int(255.0 + (c - 255.0) * std::clamp(share, 0.0, 1.0) + 0.5);
  };
  char out[8];
  std::snprintf(out, sizeof out, "#%02x%02x%02x", mix(16), mix(8), mix(0));
  return out;
}

// `text` in lines of at most kLineChars, broken at spaces.
std::vector<std::string> wrapped(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (text.size() - start > kLineChars) {
    std::size_t cut = text.rfind(' ', start + kLineChars);
    if (cut == std::string::npos || cut <= start) cut = start + kLineChars;
    lines.push_back(text.substr(start, cut - start));
    start = cut + 1;
  }
  lines.push_back(text.substr(start));
  return lines;
}

std::string fixed(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.2f", v);
  return s;
}

}  // namespace

void drawConvStep(Canvas& c, const ConvTrace& t, int index) {
  const ConvStep& s = t.steps.at(static_cast<std::size_t>(index));
  const int r = t.filter.radius, n = t.filter.size();
  std::ostringstream shape;
  shape << "r = " << r << ", " << n * n << " taps; one block: a " << t.outW << " x " << t.outH
        << " output tile, its taps over " << t.footW << " x " << t.footH << " cells; weights from " << t.weightsFrom << ".";
  const double out = double(t.outputs);
  std::ostringstream counts;
  counts << "Per output pixel: " << fixed(double(t.globalLoads) / out) << " global loads of pixels ("
         << fixed(double(t.distinctPixels) / out) << " distinct: what DRAM or L2 must send at least), "
         << fixed(double(t.sharedWords) / out) << " shared-memory reads.";
  struct Line {
    std::string text;
    int size;
    const char* weight;
    const char* colour;
  };
  std::vector<Line> lines;
  for (const auto& [text, size, weight, colour] :
       {Line{s.what, 12, "normal", "#222"}, Line{shape.str(), 11, "normal", "#444"},
        Line{counts.str(), 12, "bold", "#1a237e"}, Line{"Against " + t.chapter + ".", 11, "normal", "#6a1b9a"}})
    for (const std::string& part : wrapped(text)) lines.push_back({part, size, weight, colour});
  const int top = 46 + 18 * static_cast<int>(lines.size()) + 8;

  const int cell = std::clamp(600 / std::max(t.footW, t.footH), 6, 18);
  const int width = std::max(kLeft * 2 + t.footW * cell, 1000);
  const int height = top + t.footH * cell + 56;
  c.page(width, height);
  c.text(kLeft, 24, t.variant + " — step " + std::to_string(index + 1) + " of " + std::to_string(t.steps.size()) + ": " + s.phase,
         18, "start", "bold");
  for (std::size_t k = 0; k < lines.size(); ++k)
    c.text(kLeft, 46 + 18 * static_cast<int>(k), lines[k].text, lines[k].size, "start", lines[k].weight, lines[k].colour);

  const int maxShared = std::max(1, *std::max_element(t.sharedReads.begin(), t.sharedReads.end()));
  const int maxGlobal = std::max(1, *std::max_element(t.globalReads.begin(), t.globalReads.end()));
  const bool anyShared = std::any_of(t.sharedReads.begin(), t.sharedReads.end(), [](int k) { return k > 0; });
  const bool anyGlobal = std::any_of(t.globalReads.begin(), t.globalReads.end(), [](int k) { return k > 0; });
  const bool outline = cell >= 10;
  for (int y = 0; y < t.footH; ++y)
    for (int x = 0; x < t.footW; ++x) {
      const std::size_t i = std::size_t(y) * std::size_t(t.footW) + std::size_t(x);
      const int ix = t.footX0 + x, iy = t.footY0 + y;
      const bool inImage = ix >= 0 && iy >= 0 && ix < t.imageWidth && iy < t.imageHeight;
      const bool inOutput = ix >= t.outX0 && iy >= t.outY0 && ix < t.outX0 + t.outW && iy < t.outY0 + t.outH;
      std::string fill = "#ffffff";
      if (!inImage) fill = "#e0e0e0";
      else if (!s.reads) fill = t.inTile[i] ? (inOutput ? "#90caf9" : "#ffcc80") : "#ffffff";
      else if (t.sharedReads[i] > 0) fill = shade("#1565c0", 0.15 + 0.85 * double(t.sharedReads[i]) / maxShared);
      else if (t.globalReads[i] > 0) fill = shade("#c62828", 0.15 + 0.85 * double(t.globalReads[i]) / maxGlobal);
      c.rect(kLeft + x * cell, top + y * cell, cell, cell, fill.c_str(), outline ? "#eceff1" : nullptr);
    }
  // The output tile, and the window of its top-left output.
  c.rect(kLeft + r * cell, top + r * cell, t.outW * cell, t.outH * cell, nullptr, "#263238", 2);
  c.rect(kLeft, top, n * cell, n * cell, nullptr, "#c62828", 2);

  const int legendY = top + t.footH * cell + 22;
  int x = kLeft;
  auto key = [&](const std::string& colour, const std::string& text) {
    c.rect(x, legendY - 11, 14, 14, colour.c_str(), "#90a4ae");
    c.text(x + 20, legendY, text, 11, "start", "normal", "#37474f");
    x += 28 + static_cast<int>(text.size()) * 6;
  };
  if (!s.reads) {
    key("#90caf9", "output tile, loaded into shared memory");
    key("#ffcc80", "halo, loaded into shared memory");
    key("#ffffff", "not in the tile");
  } else {
    if (anyShared) key(shade("#1565c0", 1.0), "read from shared memory (darker: more, at most " + std::to_string(maxShared) + ")");
    if (anyGlobal)
      key(shade("#c62828", 1.0), "read from global memory (darker: more, at most " + std::to_string(maxGlobal) + ")");
  }
  key("#e0e0e0", "outside the image");
  c.text(kLeft, legendY + 20, "Outlined: the output tile (black) and the window of its top-left output (red).", 11, "start",
         "normal", "#607d8b");
}

std::string convStepSvg(const ConvTrace& t, int step) {
  return svgOf([&](Canvas& c) { drawConvStep(c, t, step); });
}

std::vector<std::filesystem::path> writeConvLesson(const ConvTrace& t, const std::filesystem::path& folder) {
  return writeStepPictures(folder, t.variant, static_cast<int>(t.steps.size()),
                           [&](Canvas& c, int k) { drawConvStep(c, t, k); });
}

}  // namespace satdof::lesson
