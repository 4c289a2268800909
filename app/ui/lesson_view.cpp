// app/ui/lesson_view.cpp — see lesson_view.h. ImGuiCanvas draws the pictures' calls into
// the window's draw list at their own size (HiDPI-scaled), larger up to twice where the
// window is wider; in a narrower window the picture scrolls sideways. Each frame draws the
// step once.
#include "app/ui/lesson_view.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "lesson/canvas.h"
#include "lesson/lesson_tool.h"
#include "lesson/scan_picture.h"

namespace satdof {

namespace {

ImU32 colourOf(const char* colour) {
  if (colour == nullptr || std::strcmp(colour, "none") == 0) return 0;
  if (std::strcmp(colour, "white") == 0) return IM_COL32_WHITE;
  if (colour[0] == '#' && std::strlen(colour) == 7) {
    const unsigned long rgb = std::strtoul(colour + 1, nullptr, 16);
    return IM_COL32((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff, 255);
  }
  return IM_COL32(0x22, 0x22, 0x22, 255);
}

// ImGui's built-in font has ASCII alone: the pictures' dash becomes a hyphen.
std::string ascii(const std::string& utf8) {
  std::string out;
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    if (utf8.compare(i, 3, "\xe2\x80\x94") == 0) out += '-', i += 2;
    else out += utf8[i];
  }
  return out;
}

// Draws at `origin`, scaled to fill `availableWidth` between `minScale` and twice that
// (the scale is known once page() gives the picture's size).
class ImGuiCanvas final : public lesson::Canvas {
 public:
  ImGuiCanvas(ImDrawList* list, ImVec2 origin, float availableWidth, float minScale)
      : list_(list), origin_(origin), available_(availableWidth), minScale_(minScale) {}

  void page(int width, int height) override {
    scale_ = std::clamp(available_ / float(std::max(width, 1)), minScale_, 2 * minScale_);
    size_ = ImVec2(float(width) * scale_, float(height) * scale_);
    list_->AddRectFilled(at(0, 0), at(float(width), float(height)), IM_COL32_WHITE);
  }
  ImVec2 size() const { return size_; }  // the picture drawn, in window pixels
  void rect(int x, int y, int width, int height, const char* fill, const char* stroke, float strokeWidth,
            int radius) override {
    const ImVec2 a = at(float(x), float(y)), b = at(float(x + width), float(y + height));
    if (const ImU32 c = colourOf(fill)) list_->AddRectFilled(a, b, c, float(radius) * scale_);
    if (const ImU32 c = colourOf(stroke)) list_->AddRect(a, b, c, float(radius) * scale_, 0, strokeWidth * scale_);
  }
  void text(int x, int y, const std::string& utf8, int size, const char* anchor, const char* weight,
            const char* fill) override {
    const std::string s = ascii(utf8);
    ImFont* font = ImGui::GetFont();
    // ImGui's built-in font is a 13-pixel bitmap font: drawn at 11 or 12 pixels its
    // one-pixel strokes (a hyphen) fall between rows and vanish, so those sizes take 13.
    const float native = 13 * ImGui::GetIO().FontGlobalScale;
    float px = float(size) * scale_;
    if (px >= native * 0.8f && px < native) px = native;
    const ImVec2 extent = font->CalcTextSizeA(px, 1e9f, 0.0f, s.c_str());
    ImVec2 p = at(float(x), float(y));
    p.y -= font->Ascent * px / font->FontSize;  // the picture places text by its baseline
    if (std::strcmp(anchor, "middle") == 0) p.x -= extent.x / 2;
    const ImU32 c = colourOf(fill);
    list_->AddText(font, px, p, c, s.c_str());
    if (std::strcmp(weight, "bold") == 0) list_->AddText(font, px, ImVec2(p.x + std::max(1.0f, scale_ * 0.6f), p.y), c, s.c_str());
  }
  void line(int x1, int y1, int x2, int y2, const char* stroke, float width, bool dashed, bool arrow) override {
    const ImU32 c = colourOf(stroke);
    const ImVec2 a = at(float(x1), float(y1)), b = at(float(x2), float(y2));
    if (!dashed) {
      list_->AddLine(a, b, c, width * scale_);
    } else {  // 4 on, 3 off, as the SVG's dash array
      const float length = std::hypot(b.x - a.x, b.y - a.y), dash = 4 * scale_, gap = 3 * scale_;
      for (float t = 0; t < length; t += dash + gap) {
        const float u = t / length, v = std::min(t + dash, length) / length;
        list_->AddLine(ImVec2(a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u),
                       ImVec2(a.x + (b.x - a.x) * v, a.y + (b.y - a.y) * v), c, width * scale_);
      }
    }
    if (arrow) head(a, b);
  }
  void arrowCurve(int x1, int y1, int cx1, int cy1, int cx2, int cy2, int x2, int y2, const char* stroke,
                  float width) override {
    list_->AddBezierCubic(at(float(x1), float(y1)), at(float(cx1), float(cy1)), at(float(cx2), float(cy2)),
                          at(float(x2), float(y2)), colourOf(stroke), width * scale_);
    head(at(float(cx2), float(cy2)), at(float(x2), float(y2)));
  }

 private:
  ImVec2 at(float x, float y) const { return ImVec2(origin_.x + x * scale_, origin_.y + y * scale_); }
  // The SVG's arrowhead: 8 long, 8 wide, in the direction from `from` to `to`.
  void head(ImVec2 from, ImVec2 to) {
    const float dx = to.x - from.x, dy = to.y - from.y, length = std::hypot(dx, dy);
    if (length <= 0) return;
    const float ux = dx / length, uy = dy / length, s = 4 * scale_;
    list_->AddTriangleFilled(ImVec2(to.x + ux * s, to.y + uy * s), ImVec2(to.x - ux * s - uy * s, to.y - uy * s + ux * s),
                             ImVec2(to.x - ux * s + uy * s, to.y - uy * s - ux * s), IM_COL32(0xc6, 0x28, 0x28, 255));
  }

  ImDrawList* list_;
  ImVec2 origin_;
  float available_, minScale_;
  float scale_ = 1;
  ImVec2 size_{0, 0};
};

}  // namespace

std::string LessonView::Lesson::title() const {
  return (topic == Topic::Sat ? "SAT: " : topic == Topic::Conv ? "convolution: " : "scan: ") + name;
}

LessonView::LessonView() {
  for (const std::string& v : lesson::tracedScanVariants()) lessons_.push_back({v, Topic::Scan});
  lessons_.push_back({"decoupled-lookback", Topic::Lookback});
  for (const std::string& a : lesson::tracedSatAlgorithms()) lessons_.push_back({a, Topic::Sat});
  for (const std::string& v : lesson::tracedConvVariants()) lessons_.push_back({v, Topic::Conv});
  for (std::size_t i = 0; i < lessons_.size(); ++i)
    if (lessons_[i].name == "blelloch") lesson_ = int(i);  // the chapter's work-efficient scan
  retrace();
}

void LessonView::toggle(std::string_view scanVariant) {
  shown_ = !shown_;
  const auto it = std::find_if(lessons_.begin(), lessons_.end(), [&](const Lesson& l) {
    return l.name == scanVariant && (l.topic == Topic::Scan || l.topic == Topic::Lookback);
  });
  if (shown_ && it != lessons_.end() && int(it - lessons_.begin()) != lesson_) select(scanVariant);
}

void LessonView::setScanTarget(const lesson::ScanTarget& target) {
  if (target.glsl == target_.glsl && target.subgroupSize == target_.subgroupSize) return;
  target_ = target;
  retrace();
}

void LessonView::setConvBackend(lesson::ConvBackend backend) {
  if (backend == convBackend_) return;
  convBackend_ = backend;
  const Lesson shown = lessons_.at(std::size_t(lesson_));
  const auto isConv = [](const Lesson& l) { return l.topic == Topic::Conv; };
  const auto first = std::find_if(lessons_.begin(), lessons_.end(), isConv);
  const int at = int(first - lessons_.begin()), old = int(std::count_if(lessons_.begin(), lessons_.end(), isConv));
  lessons_.erase(first, first + old);
  const std::vector<std::string> convs = lesson::tracedConvVariants(backend);
  for (std::size_t k = 0; k < convs.size(); ++k) lessons_.insert(lessons_.begin() + at + int(k), {convs[k], Topic::Conv});
  if (shown.topic != Topic::Conv) {
    if (lesson_ > at) lesson_ += int(convs.size()) - old;  // (a lesson listed after them)
    return;
  }
  // A convolution was shown: its namesake in the other list (tiled-halo, glsl-tiled-halo), else the first.
  const std::string glsl = "glsl-";
  const std::string namesake = backend == lesson::ConvBackend::GlCompute ? glsl + shown.name
                               : shown.name.starts_with(glsl)            ? shown.name.substr(glsl.size())
                                                                         : shown.name;
  const auto it = std::find(convs.begin(), convs.end(), namesake);
  lesson_ = at + (it == convs.end() ? 0 : int(it - convs.begin()));
  retrace();
}

bool LessonView::select(std::string_view name, std::optional<int> size) {
  const auto it = std::find_if(lessons_.begin(), lessons_.end(), [&](const Lesson& l) { return l.name == name; });
  if (it == lessons_.end()) return false;
  lesson_ = int(it - lessons_.begin());
  if (size) (it->topic == Topic::Sat ? satSide_ : it->topic == Topic::Conv ? radius_ : n_) = *size;
  step_ = 0;
  retrace();
  return true;
}

std::vector<std::string> LessonView::names() const {
  std::vector<std::string> out;
  for (const Lesson& l : lessons_) out.push_back(l.name);
  return out;
}

int LessonView::steps() const {
  return scan_       ? int(scan_->steps.size())
         : sat_      ? int(sat_->steps.size())
         : conv_     ? int(conv_->steps.size())
         : lookback_ ? int(lookback_->steps.size())
                     : 0;
}

std::string LessonView::caption() const {
  const Lesson& l = lessons_.at(std::size_t(lesson_));
  std::string text;
  if (l.topic == Topic::Sat) text = "SAT " + l.name + ", " + std::to_string(satSide_) + " x " + std::to_string(satSide_);
  else if (l.topic == Topic::Conv)
    text = "convolution " + l.name + ", r " + std::to_string(radius_) + (clampBorder_ ? ", clamp border" : ", zero border");
  else
    text = "scan " + l.name + ", n " + std::to_string(n_) + " in " + std::to_string(blocks_) +
           (l.topic == Topic::Lookback ? (blocks_ == 1 ? " tile" : " tiles") : (blocks_ == 1 ? " block" : " blocks"));
  if (!problem_.empty()) return text + ": " + problem_;
  const std::string phase = scan_       ? scan_->steps.at(std::size_t(step_)).phase
                            : sat_      ? sat_->steps.at(std::size_t(step_)).phase
                            : conv_     ? conv_->steps.at(std::size_t(step_)).phase
                                        : "time " + std::to_string(lookback_->steps.at(std::size_t(step_)).time);
  return text + ": step " + std::to_string(step_ + 1) + " of " + std::to_string(steps()) + ", " + phase;
}

void LessonView::step(int delta) {
  step_ = std::clamp(step_ + delta, 0, std::max(steps() - 1, 0));
  clock_ = 0;
}

void LessonView::togglePlay() {
  playing_ = !playing_;
  clock_ = 0;
  if (playing_ && step_ + 1 >= steps()) step_ = 0;  // from the start again
}

void LessonView::advance(float seconds) {
  if (!playing_ || !shown_) return;
  for (clock_ += seconds; clock_ >= kStepSeconds; clock_ -= kStepSeconds) {
    if (step_ + 1 >= steps()) {
      playing_ = false;
      break;
    }
    ++step_;
  }
}

void LessonView::retrace() {
  scan_.reset();
  sat_.reset();
  conv_.reset();
  lookback_.reset();
  problem_.clear();
  const Lesson& l = lessons_.at(std::size_t(lesson_));
  try {
    if (l.topic == Topic::Sat)
      sat_ = lesson::traceSat(l.name, lesson::lessonInput(std::size_t(satSide_) * std::size_t(satSide_), seed_), satSide_,
                              satSide_);
    else if (l.topic == Topic::Conv)
      conv_ = lesson::traceConv(l.name, lesson::convLessonImage(l.name, radius_, seed_), lesson::convLessonFilter(l.name, radius_),
                                clampBorder_ ? Border::Clamp : Border::Zero);
    else if (l.topic == Topic::Lookback)
      lookback_ = lesson::traceLookback(lesson::lessonInput(std::size_t(n_), seed_), (n_ + blocks_ - 1) / blocks_, seed_);
    else
      scan_ = lesson::traceScan(l.name, lesson::lessonInput(std::size_t(n_), seed_), lesson::lessonTile(n_, blocks_), target_);
  } catch (const std::invalid_argument& e) {
    problem_ = e.what();
  }
  step_ = std::clamp(step_, 0, std::max(steps() - 1, 0));
}

void LessonView::draw(float imageRight) {
  if (!shown_) return;
  const float margin = 8 * ImGui::GetIO().FontGlobalScale;
  ImGui::SetNextWindowPos(ImVec2(margin, margin), ImGuiCond_Appearing);
  // Over the image, or wider (over the panel) where the pictures need it.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float wide = std::max(imageRight, std::min(1100 * ImGui::GetIO().FontGlobalScale, display.x)) - 2 * margin;
  ImGui::SetNextWindowSize(ImVec2(std::max(wide, 200.0f), display.y * 0.6f), ImGuiCond_Appearing);
  ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: over the panel, the panel's text would show through
  if (!ImGui::Begin("Lesson: the kernels step by step", &shown_, ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  bool changed = false;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 20);
  const Lesson& shown = lessons_[std::size_t(lesson_)];
  if (ImGui::BeginCombo("##lesson", shown.title().c_str())) {
    for (std::size_t i = 0; i < lessons_.size(); ++i)
      if (ImGui::Selectable(lessons_[i].title().c_str(), int(i) == lesson_)) lesson_ = int(i), changed = true;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
  if (shown.topic == Topic::Sat) {
    changed |= ImGui::SliderInt("side", &satSide_, 2, 16);
  } else if (shown.topic == Topic::Conv) {
    changed |= ImGui::SliderInt("radius", &radius_, kMinFilterRadius, kMaxFilterRadius);
    ImGui::SameLine();
    changed |= ImGui::Checkbox("clamp border", &clampBorder_);
  } else {
    changed |= ImGui::SliderInt("n", &n_, 8, 64);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    changed |= ImGui::SliderInt(shown.topic == Topic::Lookback ? "tiles" : "blocks", &blocks_, 1,
                                shown.topic == Topic::Lookback ? 8 : 4);
  }
  ImGui::SameLine();
  if (ImGui::Button("new input")) ++seed_, changed = true;
  if (changed) retrace();

  if (ImGui::Button("< previous")) step(-1);
  ImGui::SameLine();
  if (ImGui::Button(playing_ ? "pause" : "play")) togglePlay();
  ImGui::SameLine();
  if (ImGui::Button("next >")) step(+1);
  ImGui::SameLine();
  ImGui::TextDisabled("step %d of %d   (Left / Right, Space plays, L closes)", step_ + 1, steps());

  if (!problem_.empty()) {
    ImGui::TextWrapped("%s", problem_.c_str());
  } else {
    ImGui::BeginChild("picture", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImGuiCanvas canvas(ImGui::GetWindowDrawList(), ImGui::GetCursorScreenPos(), ImGui::GetContentRegionAvail().x,
                       ImGui::GetIO().FontGlobalScale);  // (HiDPI)
    if (scan_) lesson::drawScanStep(canvas, *scan_, step_);
    else if (sat_) lesson::drawSatStep(canvas, *sat_, step_);
    else if (conv_) lesson::drawConvStep(canvas, *conv_, step_);
    else lesson::drawLookbackStep(canvas, *lookback_, step_);
    ImGui::Dummy(canvas.size());  // what the child scrolls over
    ImGui::EndChild();
  }
  ImGui::End();
}

}  // namespace satdof
