// lesson/conv_picture.cpp — a convolution trace's steps as pictures (conv_trace.h). Layout,
// top to bottom: the title, what the step does, the block and its counts (this step's
// pass, then all of them, per output pixel) against the chapter's; the step's grid, a
// square per cell (the input image's, or the intermediate's): in a load step the cells
// the load phase holds (the output tile blue, its halo orange), in the others each cell's
// reads, coloured by the memory that serves them (shared blue, global red, registers
// green; darker for more); cells loaded or computed for no output violet, cells outside
// the image grey; the output tile outlined in black, the step's marks (windows, corners)
// in colour; the legend.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "lesson/conv_trace.h"

namespace satdof::lesson {
namespace {

constexpr int kLeft = 16;
// Characters a text line holds before it wraps: the window's 13-pixel font is 7 pixels a
// character, and a picture is at least 1000 wide.
constexpr std::size_t kLineChars = 130;

constexpr const char* kShared = "#1565c0";
constexpr const char* kGlobal = "#c62828";
constexpr const char* kBoth = "#8e24aa";
constexpr const char* kRegister = "#2e7d32";
constexpr const char* kWaste = "#b39ddb";
constexpr const char* kOutside = "#cfcfcf";

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

int most(const std::vector<int>& v) { return std::max(1, *std::max_element(v.begin(), v.end())); }

std::string filterName(const Filter& f) {
  const int n = f.size();
  const std::string size = std::to_string(n) + " x " + std::to_string(n);
  if (f.kind == FilterKind::Box) return "a " + size + " box";
  if (f.kind == FilterKind::Gaussian) return "a " + size + " Gaussian";
  return "a " + size + " filter";
}

}  // namespace

void drawConvStep(Canvas& c, const ConvTrace& t, int index) {
  const ConvStep& s = t.steps.at(static_cast<std::size_t>(index));
  const ConvGrid& g = t.grids.at(static_cast<std::size_t>(s.grid));
  std::ostringstream shape;
  shape << "r = " << t.filter.radius << ", " << filterName(t.filter) << ". The kernel's path at this radius: " << t.path
        << "; one block (" << t.block << "): a " << t.outW << " x " << t.outH << " output tile. Here: " << g.name << ", "
        << g.w << " x " << g.h << " cells. Weights " << t.weightsFrom << ".";
  struct Line {
    std::string text;
    int size;
    const char* weight;
    const char* colour;
  };
  std::vector<Line> lines;
  const bool stop = !s.what.empty() && s.what.back() == '.';  // ("rows y, y + 8, ...")
  std::vector<Line> paragraphs{{s.what + (stop ? "" : "."), 12, "normal", "#222"}, {shape.str(), 11, "normal", "#444"}};
  if (t.passes.size() > 1) paragraphs.push_back({"This step, " + convPassText(t, s.pass) + ".", 12, "bold", "#1a237e"});
  paragraphs.push_back({"In all, per output pixel: " + convTotalText(t) + ".", 12, "bold", "#1a237e"});
  paragraphs.push_back({"Against " + t.chapter + ".", 11, "normal", "#6a1b9a"});
  for (const auto& [text, size, weight, colour] : paragraphs)
    for (const std::string& part : wrapped(text)) lines.push_back({part, size, weight, colour});
  const int top = 46 + 18 * static_cast<int>(lines.size()) + 8;

  const int cell = std::clamp(600 / std::max(g.w, g.h), 6, 18);
  const int width = std::max(kLeft * 2 + g.w * cell, 1000);
  const int maxShared = most(g.sharedReads), maxGlobal = most(g.globalReads), maxRegister = most(g.registerReads);
  // Each cell's fill, and which keys the legend needs.
  enum Kind { Shared, Global, Both, Register, Waste, Outside, Kinds };
  std::vector<bool> shown(Kinds, false);
  std::vector<std::string> fills(std::size_t(g.w) * std::size_t(g.h), "#ffffff");
  for (int y = 0; y < g.h; ++y)
    for (int x = 0; x < g.w; ++x) {
      const std::size_t i = std::size_t(y) * std::size_t(g.w) + std::size_t(x);
      const int ix = g.x0 + x, iy = g.y0 + y;
      // (An intermediate's rows past the image hold values: only the input's cells are grey.)
      const bool inImage = s.grid != 0 || (ix >= 0 && iy >= 0 && ix < t.imageWidth && iy < t.imageHeight);
      const bool inOutput = ix >= t.outX0 && iy >= t.outY0 && ix < t.outX0 + t.outW && iy < t.outY0 + t.outH;
      const int shared = g.sharedReads[i], global = g.globalReads[i], reg = g.registerReads[i];
      const bool touched = g.inTile[i] || shared > 0 || global > 0 || reg > 0 || g.writes[i] > 0;
      std::string& fill = fills[i];
      int kind = -1;
      if (!inImage) fill = kOutside, kind = Outside;
      else if (touched && !g.used[i]) fill = kWaste, kind = Waste;
      else if (!s.reads) fill = g.inTile[i] ? (inOutput ? "#90caf9" : "#ffcc80") : "#ffffff";
      else if (shared > 0 && global > 0) fill = shade(kBoth, 0.25 + 0.5 * double(shared + global) / (maxShared + maxGlobal)), kind = Both;
      else if (shared > 0) fill = shade(kShared, 0.12 + 0.63 * double(shared) / maxShared), kind = Shared;
      else if (global > 0) fill = shade(kGlobal, 0.12 + 0.63 * double(global) / maxGlobal), kind = Global;
      else if (reg > 0) fill = shade(kRegister, 0.12 + 0.63 * double(reg) / maxRegister), kind = Register;
      if (kind >= 0) shown[std::size_t(kind)] = true;
    }
  std::vector<std::pair<std::string, std::string>> keys;
  if (!s.reads) {
    keys.push_back({"#90caf9", "output tile, loaded"});
    keys.push_back({"#ffcc80", "halo, loaded"});
    keys.push_back({"#ffffff", "not loaded"});
  } else {
    if (shown[Shared]) keys.push_back({shade(kShared, 0.75), "read from shared memory (darker: more, at most " + std::to_string(maxShared) + ")"});
    if (shown[Global]) keys.push_back({shade(kGlobal, 0.75), t.globalReadsAre + " (darker: more, at most " + std::to_string(maxGlobal) + ")"});
    if (shown[Both]) keys.push_back({shade(kBoth, 0.75), "both: shared memory for its lane, global for its neighbours' halo"});
    if (shown[Register]) keys.push_back({shade(kRegister, 0.75), "read from registers (darker: more, at most " + std::to_string(maxRegister) + ")"});
  }
  if (shown[Waste]) keys.push_back({kWaste, "loaded or computed for no output"});
  if (shown[Outside]) keys.push_back({kOutside, "outside the image"});
  // The legend's rows: keys side by side while they fit.
  std::vector<int> keyX, keyRow;
  for (int x = kLeft, row = 0; const auto& key : keys) {
    const int w = 28 + static_cast<int>(key.second.size()) * 6;
    if (x + w > width - kLeft && x > kLeft) x = kLeft, ++row;
    keyX.push_back(x), keyRow.push_back(row);
    x += w;
  }
  const int legendY = top + g.h * cell + 22, noteY = legendY + 20 * (keyRow.back() + 1);
  c.page(width, noteY + 16);
  c.text(kLeft, 24, t.variant + " — step " + std::to_string(index + 1) + " of " + std::to_string(t.steps.size()) + ": " + s.phase,
         18, "start", "bold");
  for (std::size_t k = 0; k < lines.size(); ++k)
    c.text(kLeft, 46 + 18 * static_cast<int>(k), lines[k].text, lines[k].size, "start", lines[k].weight, lines[k].colour);
  const bool outline = cell >= 10;
  for (int y = 0; y < g.h; ++y)
    for (int x = 0; x < g.w; ++x)
      c.rect(kLeft + x * cell, top + y * cell, cell, cell, fills[std::size_t(y) * std::size_t(g.w) + std::size_t(x)].c_str(),
             outline ? "#eceff1" : nullptr);
  auto box = [&](int x, int y, int w, int h, const char* stroke, float strokeWidth) {
    c.rect(kLeft + (x - g.x0) * cell, top + (y - g.y0) * cell, w * cell, h * cell, nullptr, stroke, strokeWidth);
  };
  // Faint marks (the warps' strips, the chunks) under the output tile's outline, the others over it.
  for (const ConvMark& m : s.marks)
    if (m.faint) box(m.x, m.y, m.w, m.h, m.colour.c_str(), 1);
  box(t.outX0, t.outY0, t.outW, t.outH, "#263238", 2);
  for (const ConvMark& m : s.marks) {
    if (m.faint) continue;
    box(m.x, m.y, m.w, m.h, m.colour.c_str(), 2);
    if (m.label.empty()) continue;
    // The label in a small box over the cell, large enough to read at any cell size.
    const int side = std::max(cell, 14);
    const int cx = kLeft + (m.x - g.x0) * cell + cell / 2, cy = top + (m.y - g.y0) * cell + cell / 2;
    c.rect(cx - side / 2, cy - side / 2, side, side, "white", m.colour.c_str(), 2, 3);
    c.text(cx, cy + 4, m.label, 12, "middle", "bold", m.colour.c_str());
  }

  for (std::size_t k = 0; k < keys.size(); ++k) {
    const int y = legendY + 20 * keyRow[k];
    c.rect(keyX[k], y - 11, 14, 14, keys[k].first.c_str(), "#90a4ae");
    c.text(keyX[k] + 20, y, keys[k].second, 11, "start", "normal", "#37474f");
  }
  c.text(kLeft, noteY, "Outlined: the output tile (black)" + (s.marksNote.empty() ? "" : ", " + s.marksNote) + ".", 11,
         "start", "normal", "#607d8b");
}

std::string convStepSvg(const ConvTrace& t, int step) {
  return svgOf([&](Canvas& c) { drawConvStep(c, t, step); });
}

std::vector<std::filesystem::path> writeConvLesson(const ConvTrace& t, const std::filesystem::path& folder) {
  return writeStepPictures(folder, t.variant, static_cast<int>(t.steps.size()),
                           [&](Canvas& c, int k) { drawConvStep(c, t, k); });
}

}  // namespace satdof::lesson
