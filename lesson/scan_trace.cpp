// lesson/scan_trace.cpp — see scan_trace.h. Each block scan is run here on the host, thread
// by thread, with the index functions of satdof/scan_tree.h that its kernel calls; the
// values are uint32 sums (wrapping, as on the GPU).
#include "lesson/scan_trace.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "lesson/scan_steps.h"
#include "satdof/scan_tree.h"

namespace satdof::lesson {
namespace steps {

int log2Exact(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}

std::string rangeText(const std::string& what, int first, int last) {
  return first == last ? what + " " + std::to_string(first)
                       : what + "s " + std::to_string(first) + ".." + std::to_string(last);
}

}  // namespace steps

namespace {

using scan_tree::BankPadding;
using scan_tree::NoPadding;
using steps::Block;
using steps::BlockScan;
using steps::BlockStep;
using steps::log2Exact;
using steps::threadsText;

constexpr int kWarp = 32;

// Extra wavefronts of one instruction over all its warps (degree - 1 each).
long long extraOf(const SharedInstruction& instruction, int& worst) {
  std::map<int, std::vector<SharedAccess>> warps;
  for (const SharedAccess& a : instruction.accesses) warps[a.thread / kWarp].push_back(a);
  long long extra = 0;
  for (const auto& [warp, accesses] : warps) {
    const int degree = conflictDegree(accesses);
    worst = std::max(worst, degree);
    extra += degree - 1;
  }
  return extra;
}

// The GLSL block scans' work group against the CUDA kernel's (ScanTarget::glsl).
std::string glslBlockText(const std::string& cudaBlock) {
  return "the GLSL block: 256 invocations of 2 elements (t and t + 256), a tile of 512 uvec4, scanned inclusive (each "
         "element's sum includes it, as a SAT keeps it; the row shows the exclusive scan); the CUDA kernel's: " + cudaBlock;
}

// " (element one)" for an instruction of a thread's k-th element where a thread has two.
std::string elementTag(int items, int k) { return items == 1 ? "" : k == 0 ? ", element one" : ", element two"; }

// ---- hillis-steele: double-buffered, log2 n steps; the CUDA kernel has an element a thread,
// the GLSL one two (one from each half of the tile) ------------------------------------------
class HillisSteele final : public BlockScan {
 public:
  explicit HillisSteele(bool glsl) : items_(glsl ? 2 : 1) {}
  BlockShape shape(int n) const override { return {std::max(1, n / items_), std::min(items_, n), 0}; }
  std::string shapeText(int) const override {
    return items_ == 1 ? std::string() : glslBlockText("512 threads of 1, a tile of 512");
  }
  int slots(int n) const override { return 2 * n; }
  long long formulaAdditions(int n) const override { return static_cast<long long>(n) * log2Exact(n) - (n - 1); }
  int formulaSteps(int n) const override { return log2Exact(n); }
  std::string formula() const override { return "n log2 n - (n - 1) additions, log2 n steps"; }

  std::vector<BlockStep> steps(int n) const override {
    const int p = shape(n).threads, items = shape(n).itemsPerThread;
    std::vector<BlockStep> s;
    BlockStep load{"load", items == 1 ? "every thread stores its element in buffer 0"
                                      : "invocation t stores elements t and t + n/2 in buffer 0", {}, {}, {}, 0, false};
    for (int k = 0; k < items; ++k) {
      SharedInstruction store{"store to buffer 0" + std::string(items == 1 ? "" : k == 0 ? " (element one)" : " (element two)"), {}};
      for (int t = 0; t < p; ++t) store.accesses.push_back({t, element(t, k, n)});
      load.instructions.push_back(store);
    }
    for (int t = 0; t < p; ++t) load.active.push_back(t);
    for (int i = 0; i < n; ++i) load.written.push_back(i);
    s.push_back(load);
    int pout = 0;
    for (int offset = 1; offset < n; offset <<= 1) {
      pout = 1 - pout;
      const int pin = 1 - pout;
      BlockStep st{"step", "", {}, {}, {}, 0, true};
      st.what = (items == 1 ? threadsText(offset, n - 1) : steps::rangeText("element", offset, n - 1)) +
                " add the element " + std::to_string(offset) + " to the left (buffer " + std::to_string(pin) +
                " into buffer " + std::to_string(pout) + "); " +
                (items == 1 ? (offset > 1 ? threadsText(0, offset - 1) : std::string("thread 0")) + " copy theirs"
                            : steps::rangeText("element", 0, offset - 1) + (offset == 1 ? " is copied" : " are copied"));
      std::set<int> active;
      for (int k = 0; k < items; ++k) {
        const std::string tag = elementTag(items, k);
        SharedInstruction own{"read own (buffer " + std::to_string(pin) + tag + ")", {}};
        SharedInstruction left{tag.empty() ? "read left neighbour" : "read left neighbour (" + tag.substr(2) + ")", {}};
        SharedInstruction write{"write (buffer " + std::to_string(pout) + tag + ")", {}};
        for (int t = 0; t < p; ++t) {
          const int i = element(t, k, n);
          own.accesses.push_back({t, pin * n + i});
          if (scan_tree::hillisSteeleAdds(i, offset)) {
            left.accesses.push_back({t, pin * n + scan_tree::hillisSteeleSource(i, offset)});
            active.insert(t);
            st.written.push_back(i);
          }
          write.accesses.push_back({t, pout * n + i});
        }
        st.instructions.insert(st.instructions.end(), {own, left, write});
      }
      std::sort(st.written.begin(), st.written.end());
      st.active.assign(active.begin(), active.end());
      st.additionsPerBlock = n - offset;
      s.push_back(st);
    }
    BlockStep out{"store", items == 1 ? "thread t stores the inclusive sum of thread t-1: the exclusive scan"
                                      : "element i takes the inclusive sum of element i-1: the exclusive scan (the GLSL "
                                        "scan reads slot i itself, the inclusive sum)", {}, {}, {}, 0, false};
    const int result = scan_tree::hillisSteeleResultBuffer(n);
    for (int k = 0; k < items; ++k) {
      SharedInstruction read{"read left neighbour's result" + std::string(items == 1 ? "" : k == 0 ? " (element one)" : " (element two)"), {}};
      for (int t = 0; t < p; ++t)
        if (const int i = element(t, k, n); i > 0) read.accesses.push_back({t, result * n + i - 1});
      out.instructions.push_back(read);
    }
    for (int t = 0; t < p; ++t) out.active.push_back(t);
    for (int i = 0; i < n; ++i) out.written.push_back(i);
    s.push_back(out);
    return s;
  }

  void apply(int step, Block& b) const override {
    const int n = b.tileItems;
    if (step == 0) {
      std::fill(b.shared.begin(), b.shared.end(), 0u);
      for (int t = 0; t < n; ++t) b.shared[t] = b.out[t];  // out holds the input before the store
      return;
    }
    const int levels = log2Exact(n);
    if (step <= levels) {
      const int offset = 1 << (step - 1);
      const int pout = step % 2, pin = 1 - pout;
      for (int t = 0; t < n; ++t) {
        std::uint32_t v = b.shared[pin * n + t];
        if (scan_tree::hillisSteeleAdds(t, offset)) v += b.shared[pin * n + scan_tree::hillisSteeleSource(t, offset)];
        b.shared[pout * n + t] = v;
      }
      return;
    }
    const int result = scan_tree::hillisSteeleResultBuffer(n);
    b.total = b.shared[result * n + n - 1];
    for (int t = 0; t < n; ++t) b.out[t] = t > 0 ? b.shared[result * n + t - 1] : 0u;
  }

  std::vector<std::uint32_t> view(int step, const Block& b) const override {
    const int n = b.tileItems, levels = log2Exact(n);
    if (step > levels) return b.out;
    const int buffer = step % 2;
    return {b.shared.begin() + buffer * n, b.shared.begin() + (buffer + 1) * n};
  }
  int slotOf(int step, int element, int n) const override {
    return step > log2Exact(n) ? -1 : (step % 2) * n + element;
  }

 private:
  int element(int thread, int k, int n) const {
    return items_ == 1 ? thread : scan_tree::tileHalvesElement(thread, k, n);
  }
  int items_;
};

// ---- the Blelloch trees: two elements per thread, up-sweep, clear, down-sweep ---------------
template <class Pad, class Load>
class Blelloch final : public BlockScan {
 public:
  explicit Blelloch(std::string glslShape = {}) : glslShape_(std::move(glslShape)) {}
  BlockShape shape(int n) const override { return {n / 2, 2, 0}; }
  std::string shapeText(int) const override { return glslShape_; }
  int slots(int n) const override { return Pad::size(n); }
  long long formulaAdditions(int n) const override { return 2LL * (n - 1); }
  int formulaSteps(int n) const override { return 2 * log2Exact(n); }
  std::string formula() const override { return "2(n - 1) additions, 2 log2 n steps"; }

  std::vector<BlockStep> steps(int n) const override {
    std::vector<BlockStep> s;
    BlockStep load{"load", "", {}, {}, {}, 0, false};
    load.what = std::string("thread t stores elements ") + (Load::element(1, 0, n) == 2 ? "2t and 2t+1" : "t and t + n/2") +
                (Pad::index(32) != 32 ? " at slot i + i/32" : "");
    for (int k = 0; k < 2; ++k) {
      SharedInstruction store{"store element " + std::string(k == 0 ? "one" : "two"), {}};
      for (int t = 0; t < n / 2; ++t) store.accesses.push_back({t, Pad::index(Load::element(t, k, n))});
      load.instructions.push_back(store);
    }
    for (int t = 0; t < n / 2; ++t) load.active.push_back(t);
    for (int i = 0; i < n; ++i) load.written.push_back(i);
    s.push_back(load);
    for (BlockStep& st : steps::treeSteps<Pad>(n)) s.push_back(std::move(st));
    BlockStep out{"store", "every thread reads its two elements' exclusive sums back", {}, {}, {}, 0, false};
    for (int k = 0; k < 2; ++k) {
      SharedInstruction read{"read element " + std::string(k == 0 ? "one" : "two"), {}};
      for (int t = 0; t < n / 2; ++t) read.accesses.push_back({t, Pad::index(Load::element(t, k, n))});
      out.instructions.push_back(read);
    }
    for (int t = 0; t < n / 2; ++t) out.active.push_back(t);
    s.push_back(out);
    return s;
  }

  void apply(int step, Block& b) const override {
    const int n = b.tileItems, levels = log2Exact(n);
    auto at = [&](int i) -> std::uint32_t& { return b.shared[Pad::index(i)]; };
    if (step == 0) {
      std::fill(b.shared.begin(), b.shared.end(), 0u);
      for (int t = 0; t < n / 2; ++t)
        for (int k = 0; k < 2; ++k) at(Load::element(t, k, n)) = b.out[Load::element(t, k, n)];
    } else if (step <= 2 * levels + 1) {
      steps::applyTreeStep(step - 1, n, at, b.total);
    } else {
      for (int i = 0; i < n; ++i) b.out[i] = at(i);
    }
  }

  std::vector<std::uint32_t> view(int, const Block& b) const override {
    std::vector<std::uint32_t> v(b.tileItems);
    for (int i = 0; i < b.tileItems; ++i) v[i] = b.shared[Pad::index(i)];
    return v;
  }
  int slotOf(int, int element, int) const override { return Pad::index(element); }

 private:
  std::string glslShape_;  // the GLSL block against the CUDA one (empty: the CUDA trace)
};

// Whether two consecutive instructions of the same kind have every thread touch an even
// word and the next one (TraceStep::adjacentPairs).
bool touchesAdjacentPairs(const std::vector<SharedInstruction>& instructions) {
  auto kind = [](const std::string& what) { return what.substr(0, what.find(' ')); };
  for (std::size_t i = 0; i + 1 < instructions.size(); ++i) {
    const auto& a = instructions[i].accesses;
    const auto& b = instructions[i + 1].accesses;
    if (a.empty() || a.size() != b.size() || kind(instructions[i].what) != kind(instructions[i + 1].what)) continue;
    bool all = true;
    for (std::size_t k = 0; k < a.size() && all; ++k)
      all = a[k].thread == b[k].thread && a[k].slot % 2 == 0 && b[k].slot == a[k].slot + 1;
    if (all) return true;
  }
  return false;
}

// The variant's block scan as `target` runs it; nullptr without a trace. `subgroup` is the
// GLSL one whatever the target says; warp-shuffle the CUDA one (GLSL has subgroup instead).
const BlockScan* blockScanOf(std::string_view variant, const ScanTarget& target = {}) {
  static const HillisSteele hillisSteele(false), glslHillisSteele(true);
  static const Blelloch<NoPadding, scan_tree::AdjacentPairs> blelloch;
  static const Blelloch<BankPadding, scan_tree::TileHalves> conflictFree;
  // The GLSL trees load one element of each half, blelloch too; only the tile differs.
  static const Blelloch<NoPadding, scan_tree::TileHalves> glslBlelloch(
      glslBlockText("512 threads of 2 (elements 2t and 2t+1), a tile of 1024"));
  static const Blelloch<BankPadding, scan_tree::TileHalves> glslConflictFree(
      glslBlockText("512 threads of 2 (elements t and t + 512), a tile of 1024"));
  if (variant == "hillis-steele") return target.glsl ? &glslHillisSteele : &hillisSteele;
  if (variant == "blelloch") return target.glsl ? static_cast<const BlockScan*>(&glslBlelloch) : &blelloch;
  if (variant == "blelloch-conflict-free") return target.glsl ? &glslConflictFree : &conflictFree;
  if (variant == "blelloch-8-per-thread") return &steps::blelloch8PerThreadScan();
  if (variant == "warp-shuffle") return &steps::warpShuffleScan();
  if (variant == "subgroup") return &steps::subgroupScan(target.subgroupSize);
  return nullptr;
}

// A step's shared-memory instructions, run by `blocks` blocks: its worst conflict degree and
// extra wavefronts, and whether it touches neighbouring words; added to the trace's totals
// with its additions, and appended.
void record(ScanTrace& trace, TraceStep step, int blocks) {
  int worst = step.instructions.empty() ? 0 : 1;
  long long extra = 0;
  for (const SharedInstruction& i : step.instructions) extra += extraOf(i, worst);
  step.conflictDegree = worst;
  step.extraWavefronts += extra * blocks;
  step.adjacentPairs = touchesAdjacentPairs(step.instructions);
  trace.adjacentPairs = trace.adjacentPairs || step.adjacentPairs;
  trace.additions += step.additions;
  trace.extraWavefronts += step.extraWavefronts;
  if (step.treeStep) ++trace.treeSteps;
  trace.steps.push_back(std::move(step));
}

// The block sums scanned exclusively by the same variant, in one tile (the kernels recurse
// the same way): the step that shows it, recorded; returns the scanned sums.
std::vector<std::uint32_t> scanBlockSums(ScanTrace& trace, const std::vector<std::uint32_t>& sums,
                                         const std::vector<std::uint32_t>& tiles) {
  int sumsTile = 2;
  while (sumsTile < trace.blocks) sumsTile <<= 1;
  const ScanTrace ofSums = traceScan(trace.variant, sums, sumsTile, trace.target);
  TraceStep scanned;
  scanned.phase = "scan of the block sums";
  scanned.what = "one block scans the " + std::to_string(trace.blocks) + " block sums with the same " +
                 (trace.stepsName == "tree steps" ? "tree" : "scan") + " (" + std::to_string(ofSums.steps.size()) +
                 " steps of their own)";
  scanned.values = tiles;
  scanned.blockSums = ofSums.result;
  scanned.additions = static_cast<int>(ofSums.additions);
  scanned.extraWavefronts = ofSums.extraWavefronts;
  record(trace, scanned, 0);
  return ofSums.result;
}

// The blocks' tiles side by side, each padded with the identity to the tile.
std::vector<std::uint32_t> tilesOf(const std::vector<Block>& blocks) {
  std::vector<std::uint32_t> tiles;
  for (const Block& b : blocks) tiles.insert(tiles.end(), b.out.begin(), b.out.end());
  return tiles;
}

}  // namespace

int conflictDegree(std::span<const SharedAccess> accesses) {
  if (accesses.empty()) return 0;
  std::map<int, std::vector<int>> slotsOfBank;
  for (const SharedAccess& a : accesses) {
    auto& slots = slotsOfBank[scan_tree::bankOf(a.slot)];
    if (std::find(slots.begin(), slots.end(), a.slot) == slots.end()) slots.push_back(a.slot);
  }
  std::size_t worst = 0;
  for (const auto& [bank, slots] : slotsOfBank) worst = std::max(worst, slots.size());
  return static_cast<int>(worst);
}

std::vector<std::string> tracedCudaScanVariants() {
  return {"hillis-steele", "blelloch", "blelloch-conflict-free", "blelloch-8-per-thread", "warp-shuffle"};
}

std::vector<std::string> tracedScanVariants() {
  std::vector<std::string> names = tracedCudaScanVariants();
  names.push_back("subgroup");
  return names;
}

std::string whyNoTrace(std::string_view variant) {
  if (blockScanOf(variant)) return {};
  if (variant == "cub") return "cub is the CUDA library's scan: its steps are CUB's own code, not this program's";
  return "'" + std::string(variant) + "': no step-by-step trace (traced: hillis-steele, blelloch, blelloch-conflict-free, "
         "blelloch-8-per-thread, warp-shuffle, subgroup; decoupled-lookback's tiles: lesson/lookback_trace.h)";
}

BlockShape blockShape(std::string_view variant, int tileItems, const ScanTarget& target) {
  const BlockScan* scan = blockScanOf(variant, target);
  if (!scan) throw std::invalid_argument(whyNoTrace(variant));
  return scan->shape(tileItems);
}

int kernelTile(std::string_view variant, const ScanTarget& target) {
  if (blockScanOf(variant) && (target.glsl || variant == "subgroup")) return 512;  // a work group's 512 uvec4
  if (variant == "hillis-steele" || variant == "blelloch-8-per-thread") return 512;
  if (variant == "blelloch" || variant == "blelloch-conflict-free") return 1024;
  if (variant == "warp-shuffle") return 2048;
  throw std::invalid_argument(whyNoTrace(variant));
}

ScanTrace traceScan(std::string_view variant, std::span<const std::uint32_t> input, int tileItems,
                    const ScanTarget& target) {
  const int w = target.subgroupSize;
  if (variant == "subgroup" && (w < 1 || w > 128 || (w & (w - 1)) != 0))
    throw std::invalid_argument("a subgroup is a power of two from 1 to 128 invocations wide, not " + std::to_string(w));
  const BlockScan* scan = blockScanOf(variant, target);
  if (!scan) throw std::invalid_argument(whyNoTrace(variant));
  if (tileItems < 2 || tileItems > 2048 || (tileItems & (tileItems - 1)) != 0)
    throw std::invalid_argument("a block's tile must be a power of two from 2 to 2048, not " + std::to_string(tileItems));
  if (input.empty()) throw std::invalid_argument("a scan needs at least one element");
  const BlockShape shape = scan->shape(tileItems);
  if (shape.threads > 1024)
    throw std::invalid_argument(std::string(variant) + " scans a tile of " + std::to_string(tileItems) + " with " +
                                std::to_string(shape.threads) + " threads: a block has at most 1024");

  ScanTrace trace;
  trace.variant = std::string(variant);
  trace.target = target;
  trace.target.glsl = target.glsl || variant == "subgroup";
  if (variant == "subgroup") trace.warpWord = "subgroup";
  trace.n = static_cast<int>(input.size());
  trace.tileItems = tileItems;
  trace.threads = shape.threads;
  trace.itemsPerThread = shape.itemsPerThread;
  trace.warpLanes = shape.warpLanes;
  trace.elementsInRegisters = scan->slotOf(0, 0, tileItems) < 0;
  trace.blocks = (trace.n + tileItems - 1) / tileItems;
  trace.input.assign(input.begin(), input.end());
  trace.formulaAdditions = scan->formulaAdditions(tileItems);
  trace.formulaSteps = scan->formulaSteps(tileItems);
  trace.formula = scan->formula();
  trace.stepsName = scan->stepsName();
  trace.shape = scan->shapeText(tileItems);

  std::vector<Block> blocks(trace.blocks);
  for (int b = 0; b < trace.blocks; ++b) {
    Block& block = blocks[b];
    block.tileItems = tileItems;
    block.count = std::min(tileItems, trace.n - b * tileItems);
    block.shared.assign(scan->slots(tileItems), 0u);
    block.out.assign(tileItems, 0u);  // the input until the store step
    for (int i = 0; i < block.count; ++i) block.out[i] = input[b * tileItems + i];
  }

  // Reduce-then-scan: a pass that only reduces every tile, the sums' scan, and every tile's
  // scan seeded with its scanned sum (shown as the block sums row with every step).
  std::vector<std::uint32_t> seeds;
  trace.reduceThenScan = scan->reduceThenScan() && trace.blocks > 1;
  if (trace.reduceThenScan) {
    const BlockStep r = scan->reduceStep(tileItems);
    TraceStep reduce;
    reduce.phase = r.phase;
    reduce.what = r.what;
    reduce.activeThreads = r.active;
    reduce.instructions = r.instructions;
    reduce.values = tilesOf(blocks);
    for (Block& b : blocks) reduce.blockSums.push_back(scan->reduce(b));
    reduce.additions = r.additionsPerBlock * trace.blocks;
    record(trace, reduce, trace.blocks);
    seeds = scanBlockSums(trace, trace.steps.back().blockSums, tilesOf(blocks));
    for (int b = 0; b < trace.blocks; ++b) blocks[b].seed = seeds[b];
  }

  const std::vector<BlockStep> steps = scan->steps(tileItems);
  for (int k = 0; k < static_cast<int>(steps.size()); ++k) {
    const BlockStep& s = steps[k];
    TraceStep step;
    step.phase = s.phase;
    step.what = s.what;
    step.activeThreads = s.active;
    step.instructions = s.instructions;
    step.treeStep = s.treeStep;
    step.rows = s.rows;
    step.arrows = s.arrows;
    step.blockSums = seeds;
    for (Block& b : blocks) {
      scan->apply(k, b);
      const std::vector<std::uint32_t> v = scan->view(k, b);
      step.values.insert(step.values.end(), v.begin(), v.end());
      const std::vector<std::vector<std::uint32_t>> rows = scan->rowValues(k, b);
      for (std::size_t r = 0; r < rows.size() && r < step.rows.size(); ++r)
        step.rows[r].values.insert(step.rows[r].values.end(), rows[r].begin(), rows[r].end());
    }
    for (int i = 0; i < trace.blocks * tileItems; ++i) step.slotOfElement.push_back(scan->slotOf(k, i % tileItems, tileItems));
    for (int b = 0; b < trace.blocks; ++b)
      for (int e : s.written) step.written.push_back(b * tileItems + e);
    step.additions = s.additionsPerBlock * trace.blocks;
    record(trace, std::move(step), trace.blocks);
  }

  std::vector<std::uint32_t> tiles = tilesOf(blocks);
  if (trace.blocks > 1 && seeds.empty()) {
    std::vector<std::uint32_t> sums;
    for (const Block& b : blocks) sums.push_back(b.total);
    TraceStep written;
    written.phase = "block sums";
    written.what = "thread 0 of every block writes its tile's total to the block sums";
    written.values = tiles;
    written.blockSums = sums;
    written.activeThreads = {0};
    record(trace, written, 0);
    const std::vector<std::uint32_t> scannedSums = scanBlockSums(trace, sums, tiles);
    TraceStep add;
    add.phase = "uniform add";
    add.what = "every element of block b > 0 adds the scanned sum of block b";
    add.blockSums = scannedSums;
    for (int b = 0; b < trace.blocks; ++b)
      for (int i = 0; i < tileItems; ++i) {
        const int e = b * tileItems + i;
        if (b > 0 && e < trace.n) tiles[e] += scannedSums[b], ++add.additions, add.written.push_back(e);
      }
    add.values = tiles;
    record(trace, add, 0);
  }
  trace.result.assign(tiles.begin(), tiles.begin() + trace.n);
  return trace;
}

}  // namespace satdof::lesson
