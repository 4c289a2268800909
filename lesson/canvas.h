// lesson/canvas.h — what the lesson's pictures are drawn on: rectangles, text, lines and
// curves in the picture's own pixels (y down, text placed by its baseline). The pictures
// (scan_picture.h, sat_trace.h) draw once, through this; SvgCanvas writes the calls as an
// SVG file (`satdof lesson`), and the window draws the same calls with ImGui
// (app/ui/lesson_view.cpp), so the window shows what the files show.
// Colours are "#rrggbb" or "white"; a null stroke or fill draws none.
#pragma once

#include <filesystem>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace satdof::lesson {

class Canvas {
 public:
  virtual ~Canvas() = default;
  // Called first: the picture's size (a white page).
  virtual void page(int width, int height) = 0;
  virtual void rect(int x, int y, int width, int height, const char* fill, const char* stroke = nullptr,
                    float strokeWidth = 1, int radius = 0) = 0;
  // anchor "start" (x is the left end) or "middle"; weight "normal" or "bold".
  virtual void text(int x, int y, const std::string& s, int size = 13, const char* anchor = "middle",
                    const char* weight = "normal", const char* fill = "#222") = 0;
  virtual void line(int x1, int y1, int x2, int y2, const char* stroke, float width = 1, bool dashed = false,
                    bool arrow = false) = 0;
  // A cubic Bezier curve from (x1, y1) to (x2, y2), ending in an arrowhead.
  virtual void arrowCurve(int x1, int y1, int cx1, int cy1, int cx2, int cy2, int x2, int y2, const char* stroke,
                          float width) = 0;
};

// The calls as an SVG document.
class SvgCanvas final : public Canvas {
 public:
  void page(int width, int height) override;
  void rect(int x, int y, int width, int height, const char* fill, const char* stroke = nullptr, float strokeWidth = 1,
            int radius = 0) override;
  void text(int x, int y, const std::string& s, int size = 13, const char* anchor = "middle",
            const char* weight = "normal", const char* fill = "#222") override;
  void line(int x1, int y1, int x2, int y2, const char* stroke, float width = 1, bool dashed = false,
            bool arrow = false) override;
  void arrowCurve(int x1, int y1, int cx1, int cy1, int cx2, int cy2, int x2, int y2, const char* stroke,
                  float width) override;
  // The document, closed.
  std::string svg() const { return out_.str() + "</svg>\n"; }

 private:
  std::ostringstream out_;
};

// A picture drawn by `draw` as SVG text.
std::string svgOf(const std::function<void(Canvas&)>& draw);
// Step k (0-based) of `steps` drawn by `draw`, written as FOLDER/NAME-step-NN.svg for every
// step (each file whole or not at all); the paths, in step order.
std::vector<std::filesystem::path> writeStepPictures(const std::filesystem::path& folder, const std::string& name,
                                                     int steps, const std::function<void(Canvas&, int)>& draw);

// `text` broken at spaces into lines of at most `chars` (a longer word stands alone).
std::vector<std::string> wrapText(const std::string& text, std::size_t chars);

// A line of a picture's heading.
struct TextLine {
  std::string text;
  int size = 13;
  const char* weight = "normal";
  const char* colour = "#222";
};
// `line` broken at spaces to fit `width` pixels, appended to `lines`: in the SVG's DejaVu
// Sans (about 0.52 of the font size a character, bold 0.57) and in the window's built-in
// font (7 pixels a character; it draws 11 to 13 pixels at 13).
void appendWrapped(std::vector<TextLine>& lines, const TextLine& line, int width);

// "t3", "s17", "b5" (built in place: GCC 12 warns, wrongly, about `"t" + std::to_string(n)`).
std::string label(char letter, int value);

}  // namespace satdof::lesson
