// lesson/scan_picture.cpp — see scan_picture.h. Layout, top to bottom: the title and counts; the
// threads row (active ones filled); arrows from the cells a step read to the cells it
// wrote; the array (written cells outlined, padding of a partial tile greyed); each
// element's shared-memory slot and bank, banks coloured; the block sums row.
#include "lesson/scan_picture.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "lesson/canvas.h"
#include "satdof/scan_tree.h"

namespace satdof::lesson {
namespace {

constexpr int kCell = 44, kLeft = 16, kTop = 108;

// Eight bank colours, repeating: neighbouring banks differ.
const char* bankColour(int bank) {
  static const char* kColours[] = {"#e3f2fd", "#fff3e0", "#e8f5e9", "#fce4ec", "#ede7f6", "#e0f7fa", "#f9fbe7", "#efebe9"};
  return kColours[bank % 8];
}

std::string ordinalLabel(const ScanTrace& t, int step) {
  return "step " + std::to_string(step + 1) + " of " + std::to_string(t.steps.size());
}

}  // namespace

void drawScanStep(Canvas& c, const ScanTrace& t, int stepIndex) {
  const TraceStep& s = t.steps.at(stepIndex);
  const int cells = static_cast<int>(s.values.size());
  const int width = std::max(kLeft * 2 + cells * kCell, 1060);
  const bool sums = !s.blockSums.empty();
  const int height = kTop + 200 + (sums ? 70 : 0);

  long long additionsSoFar = 0;
  int treeStepsSoFar = 0;
  long long extraSoFar = 0;
  for (int k = 0; k <= stepIndex; ++k) {
    additionsSoFar += t.steps[k].additions;
    extraSoFar += t.steps[k].extraWavefronts;
    if (t.steps[k].phase == "step" || t.steps[k].phase == "up-sweep" || t.steps[k].phase == "down-sweep") ++treeStepsSoFar;
  }

  c.page(width, height);
  c.text(kLeft, 24, t.variant + " — " + ordinalLabel(t, stepIndex) + ": " + s.phase, 18, "start", "bold");
  c.text(kLeft, 46, s.what, 13, "start");
  std::ostringstream counts;
  counts << "n = " << t.n << ", " << t.blocks << (t.blocks == 1 ? " block" : " blocks") << " of " << t.tileItems
         << " elements, " << t.threads << " threads each. Additions so far " << additionsSoFar << " of " << t.additions
         << " (one block: " << t.formulaAdditions << "), tree steps " << treeStepsSoFar << " of " << t.treeSteps
         << " (" << t.formulaSteps << "); " << t.formula << ".";
  c.text(kLeft, 66, counts.str(), 12, "start", "normal", "#444");
  std::ostringstream conflicts;
  if (s.conflictDegree == 0)
    conflicts << "No shared-memory access in this step";
  else
    conflicts << "Bank conflicts: worst instruction " << s.conflictDegree << "-way"
              << (s.conflictDegree == 1 ? " (none)" : "") << ", " << s.extraWavefronts << " extra wavefronts this step, "
              << extraSoFar << " so far";
  c.text(kLeft, 84, conflicts.str(), 12, "start", "bold", s.conflictDegree > 1 ? "#c62828" : "#2e7d32");
  if (s.adjacentPairs)
    c.text(kLeft, 100, "A thread touches two neighbouring words here: the compiler may fuse them into one 64-bit "
                       "access, which a warp serves without these conflicts.", 11, "start", "normal", "#6a1b9a");

  // Threads row (block 0's threads; each thread over the element it starts from).
  const int threadsY = kTop + 14;
  const std::set<int> active(s.activeThreads.begin(), s.activeThreads.end());
  const int shownThreads = std::min(t.threads, cells);
  const int threadWidth = std::max(1, (t.tileItems * kCell) / std::max(1, t.threads));
  for (int th = 0; th < shownThreads; ++th) {
    const int x = kLeft + th * threadWidth;
    const bool on = active.count(th) > 0;
    c.rect(x + 2, threadsY, threadWidth - 4, 18, on ? "#1565c0" : "#eceff1", nullptr, 1, 4);
    c.text(x + threadWidth / 2, threadsY + 13, label('t', th), 10, "middle", "normal", on ? "white" : "#90a4ae");
  }

  // The array.
  const int arrayY = kTop + 86;
  const std::set<int> written(s.written.begin(), s.written.end());
  for (int i = 0; i < cells; ++i) {
    const int x = kLeft + i * kCell;
    const bool padding = i >= t.n;
    const int slot = i < static_cast<int>(s.slotOfElement.size()) ? s.slotOfElement[i] : -1;
    const char* fill = padding ? "#f5f5f5" : slot >= 0 ? bankColour(scan_tree::bankOf(slot)) : "#ffffff";
    c.rect(x + 1, arrayY, kCell - 2, 34, fill, written.count(i) ? "#c62828" : "#90a4ae", written.count(i) ? 3 : 1);
    c.text(x + kCell / 2, arrayY + 22, std::to_string(s.values[i]), 13, "middle", "bold", padding ? "#9e9e9e" : "#222");
    c.text(x + kCell / 2, arrayY - 6, std::to_string(i % t.tileItems), 9, "middle", "normal", "#78909c");
    if (slot >= 0) {
      c.text(x + kCell / 2, arrayY + 50, label('s', slot), 10, "middle", "normal", "#455a64");
      c.text(x + kCell / 2, arrayY + 64, label('b', scan_tree::bankOf(slot)), 10, "middle", "normal", "#455a64");
    }
  }
  for (int b = 1; b < t.blocks; ++b) {
    const int x = kLeft + b * t.tileItems * kCell;
    c.line(x, threadsY, x, arrayY + 70, "#37474f", 1, true);
  }
  c.text(kLeft, arrayY + 88, "element (its index in the tile above it), shared-memory slot s and bank b below; "
                                "outlined: written in this step; grey: the identity a partial tile is padded with",
            10, "start", "normal", "#607d8b");

  // Arrows: within block 0, from each element an active thread read to the element it wrote.
  if (!s.instructions.empty() && s.phase != "load" && s.phase != "store") {
    std::vector<int> elementOfSlot(4096, -1);
    for (int i = 0; i < std::min(cells, t.tileItems); ++i)
      if (i < static_cast<int>(s.slotOfElement.size()) && s.slotOfElement[i] >= 0 && s.slotOfElement[i] < 4096)
        elementOfSlot[s.slotOfElement[i]] = i;
    for (const SharedInstruction& in : s.instructions) {
      if (in.what.rfind("read", 0) != 0) continue;
      for (const SharedAccess& a : in.accesses) {
        for (const SharedInstruction& w : s.instructions) {
          if (w.what.rfind("write", 0) != 0) continue;
          for (const SharedAccess& wa : w.accesses) {
            if (wa.thread != a.thread) continue;
            // Hillis-Steele reads buffer `pin` and writes `pout`: map both to elements by
            // their position in the buffer.
            int from = a.slot < 4096 ? elementOfSlot[a.slot] : -1;
            int to = wa.slot < 4096 ? elementOfSlot[wa.slot] : -1;
            if (t.variant == "hillis-steele") from = a.slot % t.tileItems, to = wa.slot % t.tileItems;
            if (from < 0 || to < 0 || from == to) continue;
            const int x1 = kLeft + from * kCell + kCell / 2, x2 = kLeft + to * kCell + kCell / 2;
            const int lift = 18 + std::min(36, std::abs(to - from) * 3);
            c.arrowCurve(x1, arrayY - 12, x1, arrayY - 12 - lift, x2, arrayY - 12 - lift, x2, arrayY - 14, "#c62828", 1.4f);
          }
        }
      }
    }
  }

  if (sums) {
    const int sumsY = arrayY + 118;
    c.text(kLeft, sumsY - 6, "block sums", 11, "start", "bold", "#37474f");
    for (int b = 0; b < static_cast<int>(s.blockSums.size()); ++b) {
      const int x = kLeft + b * t.tileItems * kCell;
      c.rect(x + 1, sumsY, kCell * 2 - 2, 30, "#fffde7", "#f9a825");
      c.text(x + kCell, sumsY + 20, std::to_string(s.blockSums[b]), 13, "middle", "bold");
    }
  }
}

std::string scanStepSvg(const ScanTrace& t, int step) {
  return svgOf([&](Canvas& c) { drawScanStep(c, t, step); });
}

std::vector<std::filesystem::path> writeScanLesson(const ScanTrace& t, const std::filesystem::path& folder) {
  return writeStepPictures(folder, t.variant, static_cast<int>(t.steps.size()),
                           [&](Canvas& c, int k) { drawScanStep(c, t, k); });
}

std::string scanLessonText(const ScanTrace& t) {
  std::ostringstream o;
  for (int k = 0; k < static_cast<int>(t.steps.size()); ++k) {
    const TraceStep& s = t.steps[k];
    o << "  " << ordinalLabel(t, k) << ": " << s.phase << ": " << s.what << "; " << s.additions << " additions";
    if (s.conflictDegree > 0) o << ", worst bank conflict " << s.conflictDegree << "-way";
    if (s.adjacentPairs) o << " (neighbouring words: may be one 64-bit access)";
    o << "\n";
  }
  o << "satdof: lesson: " << t.variant << ", n = " << t.n << " in " << t.blocks << " block(s) of " << t.tileItems << ": "
    << t.additions << " additions and " << t.treeSteps << " tree steps in all; one block of " << t.tileItems
    << " by the chapter's formula (" << t.formula << "): " << t.formulaAdditions << " and " << t.formulaSteps << "; "
    << t.extraWavefronts << " extra shared-memory wavefronts (bank conflicts)\n";
  if (t.adjacentPairs)
    o << "satdof: lesson: the count is the source's 32-bit accesses; in the steps marked, a thread touches two "
         "neighbouring words, which the compiled kernel may fuse into one 64-bit access that a warp serves without "
         "a conflict, so Nsight Compute can count fewer (docs/PERFORMANCE.md, the lesson against Nsight Compute)\n";
  return o.str();
}

}  // namespace satdof::lesson
