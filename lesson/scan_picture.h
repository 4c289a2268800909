// lesson/scan_picture.h — a scan trace's steps as pictures, one per step, labelled with the
// variant, the step and the counts, drawn on a Canvas (canvas.h): SVG files, or the window. Each picture shows the array after the step (cells
// written in this step outlined), the threads that worked, the shared-memory slot and
// bank of every element, arrows for the step's reads into its writes, and the step's
// bank-conflict degree; the block sums row once the hierarchy writes it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "lesson/canvas.h"
#include "lesson/scan_trace.h"

namespace satdof::lesson {

// Step `step` (0-based) of `trace` drawn on `canvas`; the SVG text of it.
void drawScanStep(Canvas& canvas, const ScanTrace& trace, int step);
std::string scanStepSvg(const ScanTrace& trace, int step);

// Writes every step as FOLDER/VARIANT-step-NN.svg (each file whole or not at all) and
// returns the paths, in step order.
std::vector<std::filesystem::path> writeScanLesson(const ScanTrace& trace, const std::filesystem::path& folder);

// The trace's summary, one line per step and a last line with the totals against the
// chapter's formulas.
std::string scanLessonText(const ScanTrace& trace);

}  // namespace satdof::lesson
