// lesson/conv_trace_sat_box.cpp — sat-box (cuda/conv/sat_box.cu) followed step by step with
// satdof/conv_tiles.h's arithmetic: a block's rows loaded a step ahead, each row's prefix
// sums and row windows (the window's left and right corners) into the shared-memory ring,
// and each column's running window sum (its top and bottom corners). The kernel packs two
// channels into a 32-bit word as 16-bit fields; the trace runs channels 0 and 1 that way,
// carries between the fields included, and keeps channel 0's mean.
#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "lesson/conv_trace_detail.h"
#include "satdof/conv_tiles.h"

namespace satdof::lesson::conv_detail {
namespace {

namespace ct = conv_tiles;

constexpr int kLanes = ct::kSatSpan / ct::kSatLaneWords;  // 32
constexpr int kThreads = ct::kSatStripWidth;               // a column each in the column pass

std::uint32_t umulhi(std::uint32_t a, std::uint32_t b) { return std::uint32_t((std::uint64_t(a) * b) >> 32); }

// One row's prefix sums along the span as the warp makes them: a serial scan of each
// lane's 5 words, a (Hillis-Steele, shuffle-up) scan of the lane totals, each lane's
// exclusive prefix added. prefix[pos] is P(pos); exclusive[l] is P(5l - 1).
struct RowPrefix {
  std::vector<std::uint32_t> prefix, exclusive;
};

RowPrefix scanRow(const std::vector<std::uint32_t>& field) {
  RowPrefix p{field, std::vector<std::uint32_t>(kLanes)};
  std::vector<std::uint32_t> total(kLanes);
  for (int l = 0; l < kLanes; ++l) {
    for (int k = 1; k < ct::kSatLaneWords; ++k)
      p.prefix[std::size_t(5 * l + k)] += p.prefix[std::size_t(5 * l + k - 1)];
    total[std::size_t(l)] = p.prefix[std::size_t(5 * l + 4)];
  }
  std::vector<std::uint32_t> inclusive = total;
  for (int d = 1; d < kLanes; d *= 2) {
    const std::vector<std::uint32_t> before = inclusive;
    for (int l = d; l < kLanes; ++l) inclusive[std::size_t(l)] += before[std::size_t(l - d)];
  }
  for (int l = 0; l < kLanes; ++l) {
    p.exclusive[std::size_t(l)] = inclusive[std::size_t(l)] - total[std::size_t(l)];
    for (int k = 0; k < ct::kSatLaneWords; ++k) p.prefix[std::size_t(5 * l + k)] += p.exclusive[std::size_t(l)];
  }
  return p;
}

// The four corners of output (x, y)'s window as the kernel meets them, labelled by sign;
// a corner left of the span or above the chunk's first input row is nothing there: "0".
void corners(std::vector<ConvMark>& marks, const ConvTrace& t, int x, int y, const char* colour) {
  const int r = t.filter.radius;
  const int leftOfSpan = t.outX0 - r - 1, aboveChunk = t.outY0 - r - 1;
  for (const int cy : {y + r, y - r - 1})
    for (const int cx : {x + r, x - r - 1}) {
      const bool zero = cx == leftOfSpan || cy == aboveChunk;
      const bool plus = (cx == x + r) == (cy == y + r);
      marks.push_back({cx, cy, 1, 1, colour, zero ? "0" : plus ? "+" : "-"});
    }
}

}  // namespace

BlockShape satBoxBlockShape() { return {ct::kSatStripWidth, ct::kSatChunkRows}; }

void traceSatBox(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size(), step = ct::kSatStepRows;
  const int ringRows = ct::satRingRows(r);
  // The image's top-left block: its windows run past the image's top and left edges.
  const int x0 = 0, y0 = 0;
  const int yEnd = std::min(y0 + ct::kSatChunkRows, t.imageHeight);
  const int inRows = yEnd - y0 + 2 * r;  // input row t: image row satInputRow(y0, r, t)
  const int stepRows = (inRows + step - 1) / step * step;  // the rows the steps run through
  const int fetchedRows = stepRows + step;                  // and each step loads the next step's
  t.outX0 = x0, t.outY0 = y0, t.outW = ct::kSatStripWidth, t.outH = yEnd - y0;
  // A column left of the span and a row above the chunk: where corners are nothing (0).
  t.grids.push_back(makeGrid("the input image", ct::satSpanColumn(x0, r, 0) - 1, ct::satInputRow(y0, r, 0) - 1,
                             ct::kSatStripWidth + 2 * r + 1, fetchedRows + 1));
  t.grids.push_back(makeGrid("the row windows h (the ring in shared memory)", x0, ct::satInputRow(y0, r, 0) - 1,
                             ct::kSatStripWidth, stepRows + 1));
  t.passes.push_back({"load the rows", {}});
  t.passes.push_back({"row pass", {}});
  t.passes.push_back({"column pass", {}});
  ConvGrid &in = t.grids[0], &mid = t.grids[1];
  ConvCounts &load = t.passes[0].counts, &rowPass = t.passes[1].counts, &columnPass = t.passes[2].counts;
  t.result.assign(std::size_t(t.outW) * std::size_t(t.outH), 0);

  // A row's span under the border rule (laneColumns and fetchRow): field a of each word,
  // channel 0 | channel 1 << 16; positions not loaded are 0.
  auto fetchRow = [&](int tRow) {
    const int y = ct::satInputRow(y0, r, tRow);
    std::vector<std::uint32_t> field(std::size_t(ct::kSatSpan), 0u);
    for (int pos = 0; pos < ct::kSatSpan; ++pos) {
      const int x = ct::satSpanColumn(x0, r, pos);
      if (!ct::satSpanLoads(pos, r) || !loads.loads(x, y)) continue;
      bump(in, &ConvGrid::tileLoads, x, y);
      in.inTile[in.at(x, y)] = 1;
      if (tRow < inRows) markUsed(in, x, y);
      const std::uint32_t word = loads.load(x, y, load);
      field[std::size_t(pos)] = (word & 0xffu) | (word >> 8 & 0xffu) << 16;
    }
    return field;
  };

  const std::vector<std::uint32_t> zeros(std::size_t(kThreads), 0u);
  std::vector<std::vector<std::uint32_t>> ring(std::size_t(ringRows), zeros);
  std::vector<std::uint32_t> packed(std::size_t(kThreads), ct::satHalf(r) << 16 | ct::satHalf(r));
  std::vector<std::uint32_t> high(std::size_t(kThreads), ct::satHalf(r));
  auto slot = [&](int tRow) { return std::size_t(((tRow % ringRows) + ringRows) % ringRows); };
  std::vector<std::vector<std::uint32_t>> ahead;
  for (int k = 0; k < step; ++k) ahead.push_back(fetchRow(k));
  for (int t0 = 0; t0 < inRows; t0 += step) {
    // Row pass: the step's rows into the ring; the next step's rows loaded meanwhile.
    for (int k = 0; k < step; ++k) {
      const int tRow = t0 + k, y = ct::satInputRow(y0, r, tRow);
      const RowPrefix p = scanRow(ahead[std::size_t(k)]);
      for (int c = 0; c < kThreads; ++c) {
        const int lane = c / ct::kSatLaneWords, word = c % ct::kSatLaneWords;
        const int right = ct::satRightCorner(c, r), left = ct::satLeftCorner(c);
        // P(c - 1): the lane's word before, or its exclusive prefix (0 in lane 0).
        const std::uint32_t near = word == 0 ? p.exclusive[std::size_t(lane)] : p.prefix[std::size_t(left)];
        ring[slot(tRow)][std::size_t(c)] = p.prefix[std::size_t(right)] - near;
        for (const int pos : {right, left}) bump(in, &ConvGrid::registerReads, ct::satSpanColumn(x0, r, pos), y);
        rowPass.registerReads += 2;
        bump(mid, &ConvGrid::writes, x0 + c, y);
        if (tRow < inRows) markUsed(mid, x0 + c, y);
        ++rowPass.sharedWrites;
      }
    }
    for (int k = 0; k < step; ++k) ahead[std::size_t(k)] = fetchRow(t0 + step + k);
    // Column pass: each thread its column's running sums, a row at a time.
    for (int c = 0; c < kThreads; ++c) {
      const int x = x0 + c;
      for (int k = 0; k < step; ++k) {
        const int tRow = t0 + k, leaving = ct::satLeavingRow(tRow, r);
        const std::uint32_t add = ring[slot(tRow)][std::size_t(c)];
        bump(mid, &ConvGrid::sharedReads, x, ct::satInputRow(y0, r, tRow));
        ++columnPass.sharedReads;
        std::uint32_t sub = 0;
        if (leaving >= 0) {
          sub = ring[slot(leaving)][std::size_t(c)];
          bump(mid, &ConvGrid::sharedReads, x, ct::satInputRow(y0, r, leaving));
          ++columnPass.sharedReads;
        }
        packed[std::size_t(c)] += add - sub;
        high[std::size_t(c)] += (add >> 16) - (sub >> 16);
        if (tRow >= 2 * r && tRow < inRows && x < t.imageWidth) {
          const std::uint32_t low = packed[std::size_t(c)] - (high[std::size_t(c)] << 16);
          const int y = ct::satOutputRow(y0, r, tRow);
          t.result[std::size_t(y - t.outY0) * std::size_t(t.outW) + std::size_t(c)] =
              static_cast<std::uint8_t>(umulhi(low, ct::satMagic(r)));
        }
      }
    }
  }

  // The top-left output, and one inside the block: their windows and corners.
  const int bx = x0 + ct::kSatStripWidth / 2, by = y0 + ct::kSatChunkRows / 2;
  std::vector<ConvMark> windows{{x0 - r, y0 - r, n, n, "#c62828", ""}, {bx - r, by - r, n, n, "#6a1b9a", ""}};
  std::vector<ConvMark> rowMarks = windows, columnMarks;
  corners(rowMarks, t, x0, y0, "#c62828");
  corners(rowMarks, t, bx, by, "#6a1b9a");
  for (const auto& [x, y, colour] : {std::tuple{x0, y0, "#c62828"}, std::tuple{bx, by, "#6a1b9a"}}) {
    columnMarks.push_back({x, y - r, 1, n, colour, ""});
    columnMarks.push_back({x, y + r, 1, 1, colour, "+"});
    columnMarks.push_back({x, y - r - 1, 1, 1, colour, y - r - 1 == ct::satInputRow(y0, r, 0) - 1 ? "0" : "-"});
  }
  const std::string who = "the block's top-left output (red) and one inside it (purple)";
  const std::string ringText = std::to_string(ringRows) + " rows";
  t.path = "one pass";
  t.block = "128 threads, a strip 128 wide and " + std::to_string(ct::kSatChunkRows) + " rows tall";
  t.weightsFrom = "are not read: the mean of the window's sum, (2 sum + n^2) / (2 n^2), is a multiply-high";
  t.steps.push_back({"load the rows",
                     "the block's 128 threads walk down a strip 128 columns wide, " + std::to_string(step) +
                         " input rows a step; each warp loads 4 of the step's rows, a lane 5 consecutive words of each "
                         "(128 + 2r columns from x - r), into registers a step ahead (the last step's are never used). "
                         "Past the image: zero border, nothing loaded; clamp, the edge pixel again",
                     false, 0, 0, windows, "the windows of " + who});
  t.steps.push_back({"row pass",
                     "P, each row's prefix sum: a serial scan of a lane's 5 words, a warp scan (shuffles) of the lane "
                     "totals. The row window of column x is h(x) = P(x + r) - P(x - r - 1), two prefix reads (a register, or "
                     "a shuffle from the lane 2r words on): the window's right and left corners. P(x0 - r - 1) = 0: the span "
                     "starts r left of the strip. h goes into a ring of " + ringText + " in shared memory",
                     true, 0, 1, rowMarks, "the windows of " + who + ", and their corners: + added, - subtracted, 0 nothing there"});
  t.steps.push_back({"column pass",
                     "each thread keeps its column's running window sum: + h(y + r) - h(y - r - 1), two ring reads, is the "
                     "next output row's (the sum starts at zero above the chunk's first input row); the mean is a "
                     "multiply-high. 4 reads an output at any radius: 2 prefix reads, 2 ring reads (here " +
                         fixed(double(rowPass.registerReads + columnPass.sharedReads) / double(t.outW * t.outH)) +
                         ": the chunk's 2r extra rows, and the rows its last step runs past them)",
                     true, 1, 2, columnMarks, "the columns of " + who + ", and the rows added (+) and taken away (-)"});
  t.chapter = "the chapter's summed-area table: 4 table reads per output at any radius, S(x+r, y+r) - S(x-r-1, y+r) - "
              "S(x+r, y-r-1) + S(x-r-1, y-r-1), against (2r+1)^2 = " + std::to_string(n * n) +
              " taps; here the table is never whole, its corners taken a direction at a time (glsl-sat-box reads a "
              "whole-image table and clamps its corners to the image)";
}

}  // namespace satdof::lesson::conv_detail
