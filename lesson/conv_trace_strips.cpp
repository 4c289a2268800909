// lesson/conv_trace_strips.cpp — the strip engine (cuda/conv/strip_engine.cuh), which runs
// radius 1 and 2 of tiled-halo, tiled-cached-halo and separable, and separable's own
// kernel for r >= 3 (cuda/conv/separable.cu), followed warp by warp and lane by lane with
// satdof/conv_tiles.h's arithmetic. A block's warps work alone (no block barrier); the
// trace runs them one after the other, each through its input rows in order, on channel 0.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lesson/conv_trace_detail.h"
#include "satdof/conv_tiles.h"

namespace satdof::lesson::conv_detail {
namespace {

namespace ct = conv_tiles;

// separable's segment: the launch makes it whole chunks, as tall as lets every warp of the
// image be resident at once; the lesson's block takes three chunks.
constexpr int kSeparableLessonChunks = 3;
constexpr int kSeparableLessonRows = kSeparableLessonChunks * ct::kSeparableChunkRows;

// The strip engine's source of a row's window (the lane's 4 pixels and r on each side):
// tiled-halo's shared row tile (SharedRowSource) or the lane's own pixels through the ring
// and the halo from global memory (CachedSource: tiled-cached-halo, separable).
class StripRows {
 public:
  StripRows(ConvTrace& t, ImageLoads& loads, int blockX) : t_(t), loads_(loads), blockX_(blockX) {
    sharedRow_ = t.variant == "tiled-halo";
  }

  // fetch(): input row y's copies into the ring (pass 0); the words are kept per lane.
  void fetch(int y) {
    ConvCounts& pass = t_.passes[0].counts;
    ConvGrid& g = t_.grids[0];
    auto copy = [&](int x) {
      if (loads_.loads(x, y)) bump(g, &ConvGrid::tileLoads, x, y);
      g.inTile[g.at(x, y)] = 1;
      return loads_.load(x, y, pass);
    };
    if (sharedRow_) {
      // Lane l copies group stripOwnGroup(l); lane 0 also group 0, the last lane the last.
      const int xStrip = ct::stripLaneColumn(blockX_, 0);
      groups_.assign(std::size_t(ct::kStripRowGroups) * ct::kStripPixelsPerLane, 0u);
      auto group = [&](int g0) {
        for (int e = 0; e < ct::kStripPixelsPerLane; ++e)
          groups_[std::size_t(g0) * ct::kStripPixelsPerLane + std::size_t(e)] = copy(xStrip - 4 + 4 * g0 + e);
      };
      for (int lane = 0; lane < ct::kStripLanes; ++lane) {
        group(ct::stripOwnGroup(lane));
        if (lane == 0) group(0);
        if (lane == ct::kStripLanes - 1) group(ct::kStripRowGroups - 1);
      }
    } else {
      own_.assign(std::size_t(ct::kStripWidth), 0u);
      for (int lane = 0; lane < ct::kStripLanes; ++lane)
        for (int e = 0; e < ct::kStripPixelsPerLane; ++e)
          own_[std::size_t(lane * ct::kStripPixelsPerLane + e)] = copy(ct::stripLaneColumn(blockX_, lane) + e);
    }
  }

  // CachedSource's halo of row y, loaded (a row ahead of its use) from global memory.
  void loadHalo(int y) {
    if (sharedRow_) return;
    const int r = t_.filter.radius;
    ConvGrid& g = t_.grids[0];
    halo_.assign(std::size_t(ct::kStripLanes) * std::size_t(2 * r), 0u);
    for (int lane = 0; lane < ct::kStripLanes; ++lane) {
      const int x = ct::stripLaneColumn(blockX_, lane);
      for (int k = 0; k < r; ++k) {
        const int left = ct::stripHaloLeft(x, r, k), right = ct::stripHaloRight(x, k);
        for (const int column : {left, right})
          if (loads_.loads(column, y)) bump(g, &ConvGrid::globalReads, column, y);
        halo_[std::size_t(lane * 2 * r + k)] = loads_.load(left, y, t_.passes[1].counts);
        halo_[std::size_t(lane * 2 * r + r + k)] = loads_.load(right, y, t_.passes[1].counts);
      }
    }
  }

  // The lane's window of row y, columns x - r .. x + 3 + r, as the kernel's window() reads it.
  std::vector<std::uint32_t> window(int lane, int y) {
    const int r = t_.filter.radius, x = ct::stripLaneColumn(blockX_, lane);
    ConvGrid& g = t_.grids[0];
    ConvCounts& pass = t_.passes[1].counts;
    std::vector<std::uint32_t> w(std::size_t(ct::kStripPixelsPerLane + 2 * r));
    if (sharedRow_) {
      // Groups lane, lane + 1, lane + 2: 3 x 16 bytes, columns x - 4 .. x + 7.
      for (int c = x - 4; c < x + 8; ++c) bump(g, &ConvGrid::sharedReads, c, y);
      pass.sharedReads += 3 * ct::kStripPixelsPerLane;
      for (std::size_t q = 0; q < w.size(); ++q)
        w[q] = groups_[std::size_t(lane * ct::kStripPixelsPerLane + ct::stripTileWord(int(q), r))];
    } else {
      for (int e = 0; e < ct::kStripPixelsPerLane; ++e) {
        bump(g, &ConvGrid::sharedReads, x + e, y);
        w[std::size_t(r + e)] = own_[std::size_t(lane * ct::kStripPixelsPerLane + e)];
      }
      pass.sharedReads += ct::kStripPixelsPerLane;
      for (int k = 0; k < r; ++k) {
        w[std::size_t(k)] = halo_[std::size_t(lane * 2 * r + k)];
        w[std::size_t(r + ct::kStripPixelsPerLane + k)] = halo_[std::size_t(lane * 2 * r + r + k)];
      }
    }
    for (int q = 0; q < ct::kStripPixelsPerLane + 2 * r; ++q) markUsed(g, x - r + q, y);
    return w;
  }

 private:
  ConvTrace& t_;
  ImageLoads& loads_;
  int blockX_;
  bool sharedRow_ = false;
  std::vector<std::uint32_t> groups_, own_, halo_;
};

// The block's grey outlines: each warp's output rows (the strip engine) or columns
// and chunks (separable).
ConvMark outline(int x, int y, int w, int h) { return {x, y, w, h, "#607d8b", "", true}; }

}  // namespace

BlockShape stripBlockShape(int radius) { return {ct::kStripWidth, ct::kStripWarpsPerBlock * ct::stripRows(radius)}; }
BlockShape separableBlockShape() { return {ct::kSeparableWarpsPerBlock * ct::kSeparableStripWidth, kSeparableLessonRows}; }

void traceStrips(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size();
  const bool separable = t.variant == "separable", sharedRow = t.variant == "tiled-halo";
  const int blockX = 1, blockY = 1;  // the middle block
  t.outX0 = ct::stripLaneColumn(blockX, 0), t.outY0 = ct::stripFirstRow(blockY, 0, r);
  t.outW = ct::kStripWidth, t.outH = stripBlockShape(r).outH;
  const int reach = sharedRow ? ct::kStripPixelsPerLane : r;  // the columns read past the strip's ends
  // CachedSource loads the halo of the row after a strip's last one too (never used).
  t.grids.push_back(makeGrid("the input image", t.outX0 - reach, t.outY0 - r, t.outW + 2 * reach,
                             t.outH + 2 * r + (sharedRow ? 0 : 1)));
  if (separable)
    t.grids.push_back(makeGrid("the row pass's values (registers)", t.outX0, t.outY0 - r, t.outW, t.outH + 2 * r));
  t.passes.push_back({"copy rows into the ring", {}});
  t.passes.push_back({separable ? "row pass" : "compute", {}});
  if (separable) t.passes.push_back({"column pass", {}});
  t.result.assign(std::size_t(t.outW) * std::size_t(t.outH), 0);

  StripRows rows(t, loads, blockX);
  std::vector<ConvMark> strips;
  for (int warp = 0; warp < ct::kStripWarpsPerBlock; ++warp) {
    const int y0 = ct::stripFirstRow(blockY, warp, r);
    const int outRows = std::min(ct::stripRows(r), t.imageHeight - y0), inRows = outRows + 2 * r;
    strips.push_back(outline(t.outX0, y0, t.outW, outRows));
    // acc[slot][column of the strip]: the 2r + 1 output rows in progress.
    std::vector<std::vector<float>> acc(std::size_t(n), std::vector<float>(std::size_t(t.outW), 0.0f));
    int stored = 0;
    for (int tRow = 0; tRow < inRows; ++tRow) {
      const int k = tRow % n, y = y0 - r + tRow;  // t = p n + k
      rows.fetch(y);
      rows.loadHalo(y);  // (loaded while the row before was computed, or by prime())
      for (int lane = 0; lane < ct::kStripLanes; ++lane) {
        const std::vector<std::uint32_t> w = rows.window(lane, y);
        const int c0 = lane * ct::kStripPixelsPerLane;
        for (int m = 0; m < ct::kStripPixelsPerLane; ++m) acc[std::size_t(k)][std::size_t(c0 + m)] = 0.0f;
        if (!separable) {
          // Pixel q feeds output column m through filter column j = q - m.
          for (int q = 0; q < int(w.size()); ++q)
            for (int m = 0; m < ct::kStripPixelsPerLane; ++m) {
              const int j = q - m;
              if (j < 0 || j >= n) continue;
              for (int i = 0; i < n; ++i) {
                float& a = acc[std::size_t(ct::stripSlot(k, i, n))][std::size_t(c0 + m)];
                a = std::fma(t.filter.at(i, j), channel0(w[std::size_t(q)]), a);
                ++t.passes[1].counts.fmas;
              }
            }
        } else {
          // Row pass into a float a pixel, then each added to the output rows in progress.
          float h[ct::kStripPixelsPerLane] = {};
          for (int q = 0; q < int(w.size()); ++q)
            for (int m = 0; m < ct::kStripPixelsPerLane; ++m) {
              const int j = q - m;
              if (j < 0 || j >= n) continue;
              h[m] = std::fma(t.filter.rowWeights[std::size_t(j)], channel0(w[std::size_t(q)]), h[m]);
              ++t.passes[1].counts.fmas;
            }
          ConvGrid& mid = t.grids[1];
          for (int m = 0; m < ct::kStripPixelsPerLane; ++m) {
            const int x = t.outX0 + c0 + m;
            bump(mid, &ConvGrid::writes, x, y);
            markUsed(mid, x, y);
            for (int i = 0; i < n; ++i) {
              float& a = acc[std::size_t(ct::stripSlot(k, i, n))][std::size_t(c0 + m)];
              a = std::fma(t.filter.colWeights[std::size_t(i)], h[m], a);
              bump(mid, &ConvGrid::registerReads, x, y);
              ++t.passes[2].counts.registerReads;
              ++t.passes[2].counts.fmas;
            }
          }
        }
      }
      // The output row using this input row as filter row 2r is complete.
      if (tRow >= 2 * r) {
        const std::vector<float>& done = acc[std::size_t(ct::stripDoneSlot(k, n))];
        const std::size_t row = std::size_t(y0 + stored - t.outY0) * std::size_t(t.outW);
        for (int c = 0; c < t.outW; ++c) t.result[row + std::size_t(c)] = reference::roundToByte(done[std::size_t(c)]);
        ++stored;
      }
    }
    rows.loadHalo(y0 - r + inRows);  // the halo of the row past the strip: loaded, never used
  }

  const std::string walk = "each of the block's 4 warps walks down its own strip (128 columns, " +
                           std::to_string(ct::stripRows(r)) + " output rows) an input row at a time, ";
  const std::string ring = "a lane copies its own 4 pixels of the row (16 bytes, asynchronously, up to " +
                           std::to_string(ct::kStripStages - 1) + " rows ahead) into the warp's ring of " +
                           std::to_string(ct::kStripStages) + " row tiles in shared memory";
  const ConvMark window{t.outX0 - r, t.outY0 - r, n, n, "#c62828", ""};
  const std::string note = "each warp's strip (grey) and the window of the block's top-left output (red)";
  std::vector<ConvMark> marks = strips;
  marks.push_back(window);
  t.path = "the strip engine";
  t.block = "4 warps, a strip each";
  t.weightsFrom = kParameterWeights;
  if (sharedRow) {
    t.steps.push_back({"copy rows into the ring",
                       walk + ring + ", the first and last lane also the 4 pixels past each end of the strip", false, 0, 0,
                       marks, note});
    t.steps.push_back({"compute",
                       "each lane reads its 4 pixels and the 4 on each side from the row tile (3 x 16 bytes, of which 4 + 2r "
                       "words are taps) and adds them to the 2r + 1 output rows in progress, in registers; a row is rounded "
                       "and stored as soon as its last input row has come",
                       true, 0, 1, marks, note});
    t.chapter = tiledChapter(r);
    return;
  }
  std::vector<ConvMark> columnMarks = strips;
  columnMarks.push_back({t.outX0, t.outY0 - r, 1, n, "#c62828", ""});
  const std::string halo = "its halo, r words on each side, from global memory a row ahead (L1 holds them: the "
                           "neighbouring lanes' copies brought those lines; the row past the strip's last is loaded too, never used)";
  t.steps.push_back({"copy rows into the ring", walk + ring, false, 0, 0, marks, note});
  if (!separable) {
    t.steps.push_back({"compute",
                       "each lane reads its own 4 pixels from the ring and " + halo +
                           ", and adds them to the 2r + 1 output rows in progress, in registers",
                       true, 0, 1, marks, note});
    t.chapter = cachedChapter(r);
    return;
  }
  t.steps.push_back({"row pass",
                     "each lane reads its own 4 pixels from the ring and " + halo +
                         "; the row pass makes them 4 values (2r + 1 multiply-adds each), kept in registers",
                     true, 0, 1, marks, note});
  t.steps.push_back({"column pass",
                     "each row's 4 values are added to the 2r + 1 output rows in progress (a multiply-add each): the "
                     "intermediate never leaves registers; the rows where two warps' strips meet are computed by both",
                     true, 1, 2, columnMarks, "each warp's strip (grey) and the column of the block's top-left output (red)"});
  t.chapter = separableChapter(n);
}

void traceSeparable(ConvTrace& t, ImageLoads& loads) {
  const int r = t.filter.radius, n = t.filter.size();
  const int apron = ct::separableApron(r), skip = ct::separableSkip(r), window = ct::separableWindow(r);
  const int vecs = ct::separableWindowVecs(r), chunks = ct::separableRingChunks(r);
  const int chunk = ct::kSeparableChunkRows, stripW = ct::kSeparableStripWidth;
  const int segRows = kSeparableLessonRows, stripsX = t.imageWidth / stripW;
  // The middle block: segment 1, strips 4 .. 7 (stripsX is 12: blocks of 4 warps never
  // straddle two segments).
  const int block = (stripsX + ct::kSeparableWarpsPerBlock) / ct::kSeparableWarpsPerBlock;
  const int g0 = block * ct::kSeparableWarpsPerBlock;
  t.outX0 = ct::separableWarpColumn(g0, stripsX), t.outY0 = ct::separableWarpRow(g0, stripsX, segRows);
  t.outW = ct::kSeparableWarpsPerBlock * stripW, t.outH = segRows;
  const int steps = ct::separableSteps(segRows, r);
  t.grids.push_back(makeGrid("the input image", t.outX0 - apron, t.outY0 - r, t.outW + 2 * apron, steps * chunk));
  t.grids.push_back(makeGrid("the intermediate rows (each warp's ring in shared memory)", t.outX0, t.outY0 - r, t.outW,
                             steps * chunk));
  t.passes.push_back({"row pass", {}});
  t.passes.push_back({"column pass", {}});
  ConvCounts &rowPass = t.passes[0].counts, &columnPass = t.passes[1].counts;
  ConvGrid &in = t.grids[0], &mid = t.grids[1];
  t.result.assign(std::size_t(t.outW) * std::size_t(t.outH), 0);

  // A warp's columns in each step's chunk of rows.
  std::vector<ConvMark> cells;
  for (int c = 0; c < steps; ++c)
    for (int w = 0; w < ct::kSeparableWarpsPerBlock; ++w)
      cells.push_back(outline(t.outX0 + w * stripW, t.outY0 - r + c * chunk, stripW, chunk));
  for (int warp = 0; warp < ct::kSeparableWarpsPerBlock; ++warp) {
    const int g = g0 + warp;
    const int x0 = ct::separableWarpColumn(g, stripsX), y0 = ct::separableWarpRow(g, stripsX, segRows);
    const int outRows = std::min(segRows, t.imageHeight - y0), warpSteps = ct::separableSteps(outRows, r);
    // ring[slot][row of the chunk][column of the strip]
    std::vector<float> ring(std::size_t(chunks) * std::size_t(chunk) * std::size_t(stripW));
    auto ringAt = [&](int slot, int row, int column) -> float& {
      return ring[(std::size_t(slot) * std::size_t(chunk) + std::size_t(row)) * std::size_t(stripW) + std::size_t(column)];
    };
    for (int c = 0; c < warpSteps; ++c) {
      // Row pass: lane l's intermediate row 16c + l % 16, columns l / 16 * 16 .. + 15.
      for (int lane = 0; lane < 32; ++lane) {
        const int hr = ct::separableTaskRow(lane), c0 = ct::separableTaskColumn(lane);
        const int tRow = c * chunk + hr, y = y0 - r + tRow, xw = x0 - apron + c0;
        const bool usedRow = tRow < outRows + 2 * r;
        float acc[ct::kSeparableChunkRows] = {};
        const bool ghost = loads.border() == Border::Zero && !ct::insideAxis(y, t.imageHeight);
        if (!ghost)  // a ghost row's intermediate is +0, its words not loaded
          for (int p = 0; p < vecs; ++p)
            for (int e = 0; e < 4; ++e) {
              const int x = xw + 4 * p + e, q = 4 * p + e - skip;
              if (loads.loads(x, y)) bump(in, &ConvGrid::globalReads, x, y);
              const float v = channel0(loads.load(x, y, rowPass));
              if (q < 0 || q >= window) continue;
              if (usedRow) markUsed(in, x, y);
              for (int m = 0; m < chunk; ++m) {
                const int j = q - m;
                if (j < 0 || j >= n) continue;
                acc[m] = std::fma(t.filter.rowWeights[std::size_t(j)], v, acc[m]);
                ++rowPass.fmas;
              }
            }
        for (int m = 0; m < chunk; ++m) {
          ringAt(ct::separableRingSlot(c, r), hr, c0 + m) = acc[m];
          bump(mid, &ConvGrid::writes, x0 + c0 + m, y);
          ++rowPass.sharedWrites;
        }
      }
      // Column pass, from step chunks - 1 on: output rows 16b .. 16b + 15 of every column.
      const int b = c - (chunks - 1);
      if (b < 0) continue;
      for (int lane = 0; lane < 32; ++lane) {
        float acc[ct::kSeparableChunkRows] = {};
        for (int rr = 0; rr < chunk + 2 * r; ++rr) {
          const int tRow = b * chunk + rr, y = y0 - r + tRow;
          const float v = ringAt(ct::separableRingSlot(b + rr / chunk, r), rr % chunk, lane);
          bump(mid, &ConvGrid::sharedReads, x0 + lane, y);
          ++columnPass.sharedReads;
          if (tRow < outRows + 2 * r) markUsed(mid, x0 + lane, y);
          for (int k = 0; k < chunk; ++k) {
            const int i = rr - k;
            if (i < 0 || i >= n) continue;
            acc[k] = std::fma(t.filter.colWeights[std::size_t(i)], v, acc[k]);
            ++columnPass.fmas;
          }
        }
        for (int k = 0; k < std::min(chunk, outRows - b * chunk); ++k) {
          const int y = y0 + b * chunk + k, x = x0 + lane;
          t.result[std::size_t(y - t.outY0) * std::size_t(t.outW) + std::size_t(x - t.outX0)] = reference::roundToByte(acc[k]);
        }
      }
    }
  }

  const ConvMark windowMark{t.outX0 - r, t.outY0 - r, n, n, "#c62828", ""};
  std::vector<ConvMark> rowMarks = cells, columnMarks = cells;
  rowMarks.push_back(windowMark);
  columnMarks.push_back({t.outX0, t.outY0 - r, 1, n, "#c62828", ""});
  const std::string cellsNote = "a warp's 32 columns in one step's chunk of 16 rows (grey)";
  t.path = "its own kernel, strips 32 columns wide";
  t.block = "4 warps on adjacent strips, a segment of " + std::to_string(segRows) + " rows each";
  t.weightsFrom = kParameterWeights;
  t.steps.push_back(
      {"row pass",
       "each warp walks down its strip of 32 columns, 16 rows a step; in a step lane l computes 16 values of intermediate "
       "row l % 16 (columns l / 16 * 16 ..), from " + std::to_string(vecs) + " 16-byte loads straight from global memory (" +
           std::to_string(4 * vecs) + " words for its 16 + 2r window, from column x - " + std::to_string(apron) +
           "), and writes them into the warp's ring of " + std::to_string(chunks) +
           " chunks in shared memory. The segment (its length is chosen at launch) needs its 2r rows above and below too, "
           "as whole chunks",
       true, 0, 0, rowMarks, cellsNote + " and the window of the block's top-left output (red)"});
  t.steps.push_back({"column pass",
                     "from the ring's last chunk on, each step lane l also slides down column l: 16 + 2r intermediate rows "
                     "(one 16-byte shared read each) for 16 outputs, rounded and stored; the ring's slot is free again "
                     "for the next step",
                     true, 1, 1, columnMarks, cellsNote + " and the column of the block's top-left output (red)"});
  t.chapter = separableChapter(n);
}

}  // namespace satdof::lesson::conv_detail
