// lesson/scan_picture.cpp — see scan_picture.h. Layout, top to bottom: the title and counts; the
// threads row (active ones filled); arrows from the cells a step read to the cells it
// wrote; the array (written cells outlined, padding of a partial tile greyed); each
// element's shared-memory slot and bank, banks coloured; the block sums row.
#include "lesson/scan_picture.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <utility>
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

// The rows of registers and shared words beside the elements (the register variants), from
// `y` down, kRowHeight each: value i of a block under the block's thread i, a shared word
// coloured by its bank with its slot and bank below; arrows within a row curve above it, and
// between rows run straight from one cell to the other.
constexpr int kRowHeight = 112, kRowCells = 50;

void drawRows(Canvas& c, const ScanTrace& t, const TraceStep& s, int y) {
  const int span = t.itemsPerThread * kCell;  // a thread's width
  auto cellX = [&](int block, int i) { return kLeft + block * t.tileItems * kCell + i * span; };
  auto cellsY = [&](int row) { return y + row * kRowHeight + kRowCells; };
  for (int r = 0; r < static_cast<int>(s.rows.size()); ++r) {
    const ValueRow& row = s.rows[r];
    const int cy = cellsY(r);
    const std::set<int> written(row.written.begin(), row.written.end());
    for (int b = 0; b < t.blocks; ++b)
      for (int i = 0; i < row.perBlock; ++i) {
        const int x = cellX(b, i);
        const bool known = !row.values.empty(), shared = i < static_cast<int>(row.slots.size());
        const int bank = shared ? scan_tree::bankOf(row.slots[i]) : 0;
        const bool mark = known && written.count(i) > 0;
        c.rect(x + 2, cy, span - 4, 30, !known ? "#fafafa" : shared ? bankColour(bank) : "#f1f8e9",
               mark ? "#c62828" : known ? "#90a4ae" : "#cfd8dc", mark ? 3 : 1, 3);
        if (known)
          c.text(x + span / 2, cy + 20, std::to_string(row.values[static_cast<std::size_t>(b * row.perBlock + i)]), 13,
                 "middle", "bold");
        if (shared)
          c.text(x + span / 2, cy + 44, label('s', row.slots[i]) + " " + label('b', bank), 10, "middle", "normal",
                 "#455a64");
      }
  }
  for (int b = 0; b < t.blocks; ++b)
    for (const RowArrow& a : s.arrows) {
      const int x1 = cellX(b, a.from) + span / 2, x2 = cellX(b, a.to) + span / 2;
      if (a.fromRow == a.toRow) {
        const int top = cellsY(a.fromRow) - 4, lift = 14 + std::min(14, std::abs(x2 - x1) / 24);
        c.arrowCurve(x1, top, x1, top - lift, x2, top - lift, x2, top - 2, "#c62828", 1.4f);
      } else if (a.fromRow < a.toRow) {
        const bool shared = !s.rows[static_cast<std::size_t>(a.fromRow)].slots.empty();
        c.line(x1, cellsY(a.fromRow) + (shared ? 50 : 32), x2, cellsY(a.toRow) - 6, "#c62828", 1.2f, false, true);
      } else {
        const bool shared = !s.rows[static_cast<std::size_t>(a.toRow)].slots.empty();
        c.line(x1, cellsY(a.fromRow) - 2, x2, cellsY(a.toRow) + (shared ? 50 : 34), "#c62828", 1.2f, false, true);
      }
    }
  // The labels last, on white, over any arrow that crosses them.
  for (int r = 0; r < static_cast<int>(s.rows.size()); ++r) {
    const int ly = cellsY(r) - kRowCells + 14;
    c.rect(kLeft - 2, ly - 11, static_cast<int>(s.rows[r].label.size()) * 6 + 8, 15, "white", "white");
    c.text(kLeft, ly, s.rows[r].label, 11, "start", "bold", "#37474f");
  }
}

}  // namespace

void drawScanStep(Canvas& c, const ScanTrace& t, int stepIndex) {
  const TraceStep& s = t.steps.at(stepIndex);
  const int cells = static_cast<int>(s.values.size());
  const int width = std::max(kLeft * 2 + cells * kCell, 1060);
  const bool sums = !s.blockSums.empty();
  const bool registers = t.elementsInRegisters;

  long long additionsSoFar = 0;
  int treeStepsSoFar = 0;
  long long extraSoFar = 0;
  for (int k = 0; k <= stepIndex; ++k) {
    additionsSoFar += t.steps[k].additions;
    extraSoFar += t.steps[k].extraWavefronts;
    if (t.steps[k].treeStep) ++treeStepsSoFar;
  }

  // The header: title, what the step does, the counts, the formula, the conflicts, the
  // notes; every line but the title wrapped to the picture's width.
  std::ostringstream counts;
  counts << "n = " << t.n << ", " << t.blocks << (t.blocks == 1 ? " block" : " blocks") << " of " << t.tileItems
         << " elements, " << t.threads << " threads each. Additions so far " << additionsSoFar << " of " << t.additions
         << " (one block: " << t.formulaAdditions << "), " << t.stepsName << " " << treeStepsSoFar << " of " << t.treeSteps
         << " (" << t.formulaSteps << ").";
  std::ostringstream conflicts;
  if (s.conflictDegree == 0)
    conflicts << "No shared-memory access in this step";
  else
    conflicts << "Bank conflicts: worst instruction " << s.conflictDegree << "-way"
              << (s.conflictDegree == 1 ? " (none)" : "") << ", " << s.extraWavefronts << " extra wavefronts this step, "
              << extraSoFar << " so far";
  std::vector<TextLine> header;
  const int textWidth = width - 2 * kLeft;
  appendWrapped(header, {s.what, 13, "normal", "#222"}, textWidth);
  appendWrapped(header, {counts.str(), 12, "normal", "#444"}, textWidth);
  appendWrapped(header, {"One block by the formula: " + t.formula + ".", 12, "normal", "#444"}, textWidth);
  appendWrapped(header, {conflicts.str(), 12, "bold", s.conflictDegree > 1 ? "#c62828" : "#2e7d32"}, textWidth);
  if (!t.shape.empty()) appendWrapped(header, {"Block: " + t.shape + ".", 11, "normal", "#37474f"}, textWidth);
  if (s.adjacentPairs)
    appendWrapped(header, {"A thread touches two neighbouring words here: the compiler may fuse them into one 64-bit "
                           "access, which a warp serves without these conflicts.", 11, "normal", "#6a1b9a"}, textWidth);
  // Four lines fit above kTop; each further one moves the rest down.
  const int top = kTop + 17 * std::max(0, static_cast<int>(header.size()) - 4);
  const int rowsHeight = kRowHeight * static_cast<int>(s.rows.size());
  const int height = top + 200 + rowsHeight + (sums ? 70 : 0);

  c.page(width, height);
  c.text(kLeft, 24, t.variant + " — " + ordinalLabel(t, stepIndex) + ": " + s.phase, 18, "start", "bold");
  int y = 46;
  for (std::size_t i = 0; i < header.size(); ++i) {
    c.text(kLeft, y, header[i].text, header[i].size, "start", header[i].weight, header[i].colour);
    if (i + 1 < header.size()) y += i == 0 ? 20 : header[i + 1].size + (header[i + 1].size >= 12 ? 6 : 5);
  }

  // Threads row (block 0's threads; each thread over the element it starts from), and the
  // warps they form.
  const int threadsY = top + 14;
  const std::set<int> active(s.activeThreads.begin(), s.activeThreads.end());
  const int shownThreads = std::min(t.threads, cells);
  const int threadWidth = std::max(1, (t.tileItems * kCell) / std::max(1, t.threads));
  for (int th = 0; th < shownThreads; ++th) {
    const int x = kLeft + th * threadWidth;
    const bool on = active.count(th) > 0;
    c.rect(x + 2, threadsY, threadWidth - 4, 18, on ? "#1565c0" : "#eceff1", nullptr, 1, 4);
    const std::string name = t.warpLanes > 0 && threadWidth >= 100
                                 ? label('t', th) + " lane " + std::to_string(th % t.warpLanes)
                                 : label('t', th);
    c.text(x + threadWidth / 2, threadsY + 13, name, 10, "middle", "normal", on ? "white" : "#90a4ae");
  }
  if (t.warpLanes > 0 && registers)
    for (int w = 0; w * t.warpLanes < shownThreads; ++w) {
      const int x0 = kLeft + w * t.warpLanes * threadWidth + 4, x1 = x0 + t.warpLanes * threadWidth - 8;
      c.line(x0, threadsY + 24, x1, threadsY + 24, "#5c6bc0", 2);
      c.text((x0 + x1) / 2, threadsY + 38, t.warpWord + " " + std::to_string(w) + " (lanes 0.." + std::to_string(t.warpLanes - 1) + ")",
             10, "middle", "bold", "#3949ab");
    }

  // The array.
  const int arrayY = top + 86;
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
    c.line(x, threadsY, x, arrayY + 70 + rowsHeight, "#37474f", 1, true);
  }
  c.text(kLeft, arrayY + 88,
         registers ? "element (its index in the tile above it), held in registers: no shared-memory slot; outlined: "
                     "written in this step; grey: the identity a partial tile is padded with"
                   : "element (its index in the tile above it), shared-memory slot s and bank b below; "
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
          // A thread with two elements (the GLSL hillis-steele) reads and writes each in its own
          // instructions, tagged "element one" / "element two".
          auto tag = [](const std::string& what) {
            const std::size_t at = what.find("element ");
            return at == std::string::npos ? std::string() : what.substr(at, 11);
          };
          if (tag(in.what) != tag(w.what)) continue;
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

  drawRows(c, t, s, arrayY + 104);

  if (sums) {
    const int sumsY = arrayY + 118 + rowsHeight;
    c.text(kLeft, sumsY - 6, t.reduceThenScan && stepIndex > 1 ? "block sums, scanned: each block's seed" : "block sums",
           11, "start", "bold", "#37474f");
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
    << t.additions << " additions and " << t.treeSteps << " " << t.stepsName << " in all; one block of " << t.tileItems
    << " by the chapter's formula (" << t.formula << "): " << t.formulaAdditions << " and " << t.formulaSteps << "; "
    << t.extraWavefronts << " extra shared-memory wavefronts (bank conflicts)\n";
  if (t.adjacentPairs)
    o << "satdof: lesson: the count is the source's 32-bit accesses; in the steps marked, a thread touches two "
         "neighbouring words, which the compiled kernel may fuse into one 64-bit access that a warp serves without "
         "a conflict, so Nsight Compute can count fewer (docs/PERFORMANCE.md, the lesson against Nsight Compute)\n";
  return o.str();
}

}  // namespace satdof::lesson
