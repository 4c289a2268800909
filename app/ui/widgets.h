// app/ui/widgets.h — the panel's small building blocks, so that every section lays out the
// same way: a label that is never cut (beside its control when the panel is wide enough,
// above it, wrapped, when not) and a one-line tooltip on every control.
#pragma once

#include <limits>
#include <optional>
#include <string>

namespace satdof {
struct LiveOption;
}

namespace satdof::widgets {

// The controls that end past the visible right edge of their window (a cut label or
// button), counted by tooltip(), which follows every control. The Ui owns one per frame.
struct LayoutCheck {
  int cut = 0;
  std::string first;  // the first cut control's tooltip (what it is)
  // For this frame, every header() opens (true) or folds (false) its section; none: each
  // keeps its state.
  std::optional<bool> openAll;
};
// Where tooltip() counts, for the current ImGui context (null: nowhere).
void checkLayout(LayoutCheck* check);
// Puts the next radio button (or checkbox) labelled `text` on this row where it fits.
void sameLineIfFits(const char* text);
// A checkbox whose label wraps beside it where it does not fit the row.
bool checkbox(const char* text, bool* value);
// A radio button setting `value` to `choice`, its label wrapping likewise.
bool radio(const char* text, int* value, int choice);
// A collapsing header (ImGui flags) titled `text`, or `shortText` where `text` does not fit.
bool header(const char* text, const char* shortText, int flags = 0);
// A small button showing `text`, or `shortText` where `text` does not fit the row.
bool smallButton(const char* text, const char* shortText);

// Draws `text` and prepares the next control to fill the rest of the row (or the next
// row). Give the control a hidden label ("##id"). `tip` shows when the label is hovered.
void label(const char* text, const char* tip);
// A one-line tooltip on the last item, shown while it is hovered (even when disabled);
// counts the item in the LayoutCheck when it is cut.
void tooltip(const char* tip);

// A live option's slider (settings/live_options.h): its label, its help as the tooltip, its
// panel range and format, from the one declaration. `hi` narrows the range (a SAT format's
// bound on the blur); NaN: the declared one.
bool optionSlider(const LiveOption& option, float* value, float hi = std::numeric_limits<float>::quiet_NaN());
bool optionSlider(const LiveOption& option, int* value);

}  // namespace satdof::widgets
