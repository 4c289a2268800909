// app/ui/widgets.h — the panel's small building blocks, so that every section lays out the
// same way: a label that is never cut (beside its control when the panel is wide enough,
// above it, wrapped, when not) and a one-line tooltip on every control.
#pragma once

namespace satdof::widgets {

// Draws `text` and prepares the next control to fill the rest of the row (or the next
// row). Give the control a hidden label ("##id"). `tip` shows when the label is hovered.
void label(const char* text, const char* tip);
// A one-line tooltip on the last item, shown while it is hovered (even when disabled).
void tooltip(const char* tip);

}  // namespace satdof::widgets
