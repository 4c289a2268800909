// app/image_text.cpp — see image_text.h.
#include "app/image_text.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace satdof {
namespace {

// The window's label style (app/ui/overlay.cpp): yellow text on black at 170/255, 4 px padding.
constexpr std::uint8_t kText[3] = {255, 235, 120};
constexpr int kBoxAlpha = 170, kPad = 4, kMargin = 10;

// The next code point of `s` from `i` (a byte that does not start a whole UTF-8 sequence
// reads as itself, as Latin-1; beyond the font's 16 bits, '?').
unsigned nextCodePoint(std::string_view s, std::size_t& i) {
  const unsigned c = static_cast<unsigned char>(s[i]);
  const std::size_t more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  unsigned code = c & (0x3Fu >> more);
  bool whole = more > 0 && i + more < s.size();
  for (std::size_t k = 1; whole && k <= more; ++k) {
    const unsigned b = static_cast<unsigned char>(s[i + k]);
    whole = (b & 0xC0) == 0x80;
    code = (code << 6) | (b & 0x3F);
  }
  if (!whole) {
    ++i;
    return c;
  }
  i += more + 1;
  return code <= 0xFFFF ? code : '?';
}

// dst = dst * (1 - a) + colour * a, a in 0..255.
void blend(std::uint8_t* dst, const std::uint8_t* colour, int a) {
  for (int c = 0; c < 3; ++c) dst[c] = std::uint8_t((dst[c] * (255 - a) + colour[c] * a + 127) / 255);
}

}  // namespace

ImageText::ImageText(int scale) : scale_(std::max(scale, 1)), atlas_(std::make_unique<ImFontAtlas>()) {
  font_ = atlas_->AddFontDefault();
  unsigned char* pixels = nullptr;
  atlas_->GetTexDataAsAlpha8(&pixels, &atlasWidth_, &atlasHeight_);
  if (!font_ || !pixels) throw std::runtime_error("the label font did not build");
  alpha_ = pixels;
}

ImageText::~ImageText() = default;

int ImageText::fontSize() const { return int(std::lround(font_->FontSize)) * scale_; }

int ImageText::width(std::string_view utf8) const {
  float advance = 0;
  for (std::size_t i = 0; i < utf8.size();) advance += font_->FindGlyph(ImWchar(nextCodePoint(utf8, i)))->AdvanceX;
  return int(std::lround(advance)) * scale_;
}

int ImageText::tag(reference::ImageRgba8& image, int x, int y, std::string_view utf8, bool alignRight) const {
  const int pad = kPad * scale_, boxW = width(utf8) + 2 * pad, boxH = fontSize() + 2 * pad;
  if (alignRight) x -= boxW;
  // The image's rows run bottom-up (GL's order); (x, y) counts from the top.
  auto pixel = [&](int px, int py) -> std::uint8_t* {
    if (px < 0 || py < 0 || px >= image.width || py >= image.height) return nullptr;
    return image.at(px, image.height - 1 - py);
  };
  const std::uint8_t black[3] = {0, 0, 0};
  for (int py = y; py < y + boxH; ++py)
    for (int px = x; px < x + boxW; ++px)
      if (std::uint8_t* p = pixel(px, py)) blend(p, black, kBoxAlpha);
  float pen = 0;
  for (std::size_t i = 0; i < utf8.size();) {
    const ImFontGlyph* g = font_->FindGlyph(ImWchar(nextCodePoint(utf8, i)));
    const int u0 = int(std::lround(g->U0 * atlasWidth_)), v0 = int(std::lround(g->V0 * atlasHeight_));
    const int gw = int(std::lround((g->U1 - g->U0) * atlasWidth_)), gh = int(std::lround((g->V1 - g->V0) * atlasHeight_));
    const int left = x + pad + int(std::lround(pen + g->X0)) * scale_, top = y + pad + int(std::lround(g->Y0)) * scale_;
    for (int gy = 0; gy < gh && g->Visible; ++gy)
      for (int gx = 0; gx < gw; ++gx) {
        const int a = alpha_[std::size_t(v0 + gy) * atlasWidth_ + u0 + gx];
        if (a == 0) continue;
        for (int sy = 0; sy < scale_; ++sy)
          for (int sx = 0; sx < scale_; ++sx)
            if (std::uint8_t* p = pixel(left + gx * scale_ + sx, top + gy * scale_ + sy)) blend(p, kText, a);
      }
    pen += g->AdvanceX;
  }
  return boxW;
}

void drawCompareCaption(reference::ImageRgba8& image, const ImageText& text, const CompareCaption& caption,
                        bool split, float divider, std::string_view maxLine) {
  const int margin = kMargin * text.scale(), right = image.width, line = text.fontSize() * 5 / 2;
  int notesTop = split ? 5 * text.fontSize() : margin + 2 * line;  // the window's places
  if (split) {
    // Each label on its side of the divider, moved inwards rather than cut at the edges;
    // B a line lower where the two would meet.
    const int x = int(std::lround(divider * float(right))), pad = 2 * kPad * text.scale();
    const int widthA = text.width(caption.labelA) + pad, widthB = text.width(caption.labelB) + pad;
    const bool crowded = x + margin + widthB > right - margin || x - margin - widthA < margin;
    text.tag(image, std::max(x - margin, margin + widthA), margin, caption.labelA, true);
    text.tag(image, std::min(x + margin, right - margin - widthB), margin + (crowded ? line : 0), caption.labelB);
  } else {
    if (!maxLine.empty()) text.tag(image, margin, margin, maxLine);
    text.tag(image, margin, margin + line, caption.labelA + "   " + caption.labelB);
  }
  // A note wider than the image continues on the next lines, broken at spaces.
  const int room = right - 2 * margin - 2 * kPad * text.scale();
  const int boxHeight = text.fontSize() + 2 * kPad * text.scale();
  for (const std::string& note : caption.notes) {
    for (std::size_t begin = 0; begin < note.size();) {
      std::size_t end = note.size();
      while (text.width(std::string_view(note).substr(begin, end - begin)) > room) {
        const std::size_t space = note.rfind(' ', end - 1);
        if (space == std::string::npos || space <= begin) break;
        end = space;
      }
      text.tag(image, margin, notesTop, std::string_view(note).substr(begin, end - begin));
      notesTop += boxHeight;  // its next line right under it
      begin = end;
      while (begin < note.size() && note[begin] == ' ') ++begin;
    }
    notesTop += line - boxHeight;
  }
}

}  // namespace satdof
