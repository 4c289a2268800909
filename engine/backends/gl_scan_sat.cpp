// engine/backends/gl_scan_sat.cpp — the gl-compute backend's SAT registries and passes
// (gl_scan_sat.h). Every pass ends with a shader-storage barrier before the next reads;
// the last one's output is for the caller to fence.
#include "engine/backends/gl_scan_sat.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

#include "engine/gl/program.h"

namespace satdof {
namespace {

constexpr std::array kScanVariants{
    GlScanVariant{"hillis-steele", "naive double-buffered block scan (n log n adds, 9 steps), 2 per invocation",
                  "compute/block_scan_hillis_steele.glsl", false},
    GlScanVariant{"blelloch", "work-efficient up-sweep/down-sweep tree in shared memory, bank conflicts and all",
                  "compute/block_scan_blelloch.glsl", false},
    GlScanVariant{"blelloch-conflict-free", "Blelloch tree with shared-memory padding against bank conflicts",
                  "compute/block_scan_blelloch_conflict_free.glsl", false},
    GlScanVariant{"blelloch-8-per-thread",
                  "8 consecutive per invocation scanned in registers, padded tree over the 64 invocation totals",
                  "compute/block_scan_blelloch_8_per_thread.glsl", false},
    GlScanVariant{"subgroup",
                  "KHR_shader_subgroup inclusive adds (the warp-shuffle scan in GLSL; needs that GL extension)",
                  "compute/block_scan_subgroup.glsl", true},
    GlScanVariant{"decoupled-lookback",
                  "reduce-then-scan without its carries pass: each tile takes the column sums of the bands above "
                  "by decoupled look-back (subgroup block scan inside where the GL has it, else the padded tree)",
                  "compute/block_scan_decoupled_lookback.glsl", false},
};

constexpr std::array kSatAlgorithms{
    GlSatAlgorithm{"reduce-then-scan",
                   "tiles of 512 x 16: tile sums, carries, then the table in its format; image read twice, "
                   "table written once"},
    GlSatAlgorithm{"rows-columns",
                   "multi-block scans of the rows, then of the columns in place, in uint32; then a format pass"},
};

constexpr int kLookBack = 5;   // kScanVariants' decoupled-lookback
constexpr int kRowsColumns = 1;
constexpr int kBlock = 512;      // every block scan's kScanElements
constexpr int kTileRows = 16;    // sat_tile.glsl
constexpr int kGroup = 256;      // sat_add, sat_format, sat_pack, sat_tile_carries
constexpr int kColumnLanes = 8;  // sat_tile_carries.comp's columns per work group

int ceilDiv(int a, int b) { return (a + b - 1) / b; }

template <class List>
int indexOf(const List& list, std::string_view name) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].name == name) return int(i);
  return -1;
}

struct Tiles {
  int x, y;
  static Tiles of(Extent e) { return {ceilDiv(e.width, kBlock), ceilDiv(e.height, kTileRows)}; }
};

}  // namespace

std::span<const GlScanVariant> glScanVariants() { return kScanVariants; }
std::span<const GlSatAlgorithm> glSatAlgorithms() { return kSatAlgorithms; }
int glScanVariantIndex(std::string_view name) { return indexOf(kScanVariants, name); }
int glSatAlgorithmIndex(std::string_view name) { return indexOf(kSatAlgorithms, name); }

GlSat::GlSat(std::filesystem::path shaderDir, std::optional<std::string> noSubgroups)
    : shaderDir_(std::move(shaderDir)), noSubgroups_(std::move(noSubgroups)), programs_(kScanVariants.size()) {
  lineAdd_ = gl::loadProgram(shaderDir_, {{GL_COMPUTE_SHADER, "compute/sat_add.comp"}});
  lineFormat_ = gl::loadProgram(shaderDir_, {{GL_COMPUTE_SHADER, "compute/sat_format.comp"}});
  linePack_ = gl::loadProgram(shaderDir_, {{GL_COMPUTE_SHADER, "compute/sat_pack.comp"}});
  tileCarries_ = gl::loadProgram(shaderDir_, {{GL_COMPUTE_SHADER, "compute/sat_tile_carries.comp"}});
}

std::optional<std::string> GlSat::whyNotHere(int scan) const {
  const GlScanVariant& v = kScanVariants.at(std::size_t(scan));
  if (v.subgroups && noSubgroups_) return std::string(v.name) + ": " + *noSubgroups_;
  return std::nullopt;
}

std::optional<std::string> GlSat::prepare(int scan) {
  if (auto why = whyNotHere(scan)) return why;
  const GlScanVariant& v = kScanVariants.at(std::size_t(scan));
  if (programs_[std::size_t(scan)]) return std::nullopt;
  try {
    // decoupled-lookback's own block scan: the fastest that runs here.
    const gl::IncludeAliases block{{"compute/block_scan.glsl", std::string(v.blockScan)},
                                   {"compute/lookback_block_scan.glsl", noSubgroups_
                                                                            ? "compute/block_scan_blelloch_conflict_free.glsl"
                                                                            : "compute/block_scan_subgroup.glsl"}};
    Programs p;
    p.lineScan = gl::loadProgram(shaderDir_, {{GL_COMPUTE_SHADER, "compute/sat_scan.comp"}}, block);
    p.tileReduce = gl::loadProgram(shaderDir_, {{GL_COMPUTE_SHADER, "compute/sat_tile_reduce.comp"}}, block);
    p.tileScan = gl::loadProgram(shaderDir_, {{GL_COMPUTE_SHADER, "compute/sat_tile_scan.comp"}}, block);
    programs_[std::size_t(scan)] = std::move(p);
  } catch (const std::exception& e) {
    return std::string(v.name) + ": its shaders did not build here: " + e.what();
  }
  return std::nullopt;
}

void GlSat::attach(Extent frame, SatFormat format) {
  detach();
  // The float formats are rounded from exact uint32 sums, exact while the image's total
  // fits an int32.
  constexpr std::int64_t kFloatFormatPixels = ((std::int64_t(1) << 31) - 1) / 255;
  if (!satFormatInfo(format).exact && std::int64_t(frame.width) * frame.height > kFloatFormatPixels)
    throw std::runtime_error("the gl-compute backend builds the " + std::string(satFormatInfo(format).name) +
                             " SAT format up to " + std::to_string(kFloatFormatPixels) +
                             " pixels (the sums must fit an int32), not " + std::to_string(frame.width) + "x" +
                             std::to_string(frame.height) + ": use --sat-format uint32, or --backend cuda or cpu");
  if (format == SatFormat::Uint21x3) {
    try {
      FrameTargets::checkExtent(frame, SatFormat::Uint32);  // rows-columns' exactSat_
    } catch (const std::runtime_error& error) {
      throw std::runtime_error(std::string("the gl-compute backend packs uint21x3 from a uint32 table: ") +
                               error.what());
    }
  }
  GLint maxGroups = 0;
  glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 1, &maxGroups);
  if (ceilDiv(frame.width, kBlock) > kBlock || ceilDiv(frame.height, kBlock) > kBlock ||
      std::max(frame.width, frame.height) > maxGroups)
    throw std::runtime_error("the gl-compute SAT handles up to " + std::to_string(std::min(kBlock * kBlock, maxGroups)) +
                             " pixels on a side, not " + std::to_string(frame.width) + "x" +
                             std::to_string(frame.height));
  const Tiles t = Tiles::of(frame);
  const std::size_t blocks = std::max(std::size_t(frame.height) * ceilDiv(frame.width, kBlock),
                                      std::size_t(frame.width) * ceilDiv(frame.height, kBlock));
  const std::size_t inclusive = std::size_t(t.y) * frame.width, flags = std::size_t(t.x) * t.y;
  extent_ = frame;
  blockSums_ = gl::createBuffer(GLsizeiptr(blocks * 16), nullptr, 0);
  carriesFor(1);
  colInclusive_ = gl::createBuffer(GLsizeiptr(inclusive * 16), nullptr, 0);
  lookBackFlags_ = gl::createBuffer(GLsizeiptr(16 + flags * 4), nullptr, 0);  // the image's total, then the flags
  linePublished_ = gl::createBuffer(GLsizeiptr(blocks * 4), nullptr, 0);
  lineInclusive_ = gl::createBuffer(GLsizeiptr(blocks * 16), nullptr, 0);
}

// Carry buffers for `tables` tables of attach's extent (made on first use).
void GlSat::carriesFor(std::size_t tables) {
  const Tiles t = Tiles::of(extent_);
  const std::size_t rows = std::size_t(extent_.height) * t.x, columns = std::size_t(t.y + 1) * extent_.width;
  while (carries_.size() < tables)
    carries_.push_back(
        {gl::createBuffer(GLsizeiptr(rows * 16), nullptr, 0), gl::createBuffer(GLsizeiptr(columns * 16), nullptr, 0)});
}

void GlSat::detach() {
  blockSums_.reset();
  exactSat_.reset();
  carries_.clear();
  extent_ = {};
  colInclusive_.reset();
  lookBackFlags_.reset();
  linePublished_.reset();
  lineInclusive_.reset();
}

void GlSat::build(GLuint texture, Extent e, SatFormat format, GLuint table, int sat, int scan) {
  const Job job{texture, table, format};
  buildAll({&job, 1}, e, sat, scan);
}

void GlSat::buildAll(std::span<const Job> jobs, Extent e, int sat, int scan) {
  const Programs& p = *programs_.at(std::size_t(scan));
  const bool lookBack = scan == kLookBack;
  if (sat != kRowsColumns && !lookBack) {
    reduceThenScan(jobs, e, p, false);
    return;
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {  // one after another on the same scratch
    if (i > 0) glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glBindTextureUnit(0, jobs[i].texture);  // both algorithms read the image on unit 0
    if (sat == kRowsColumns)
      rowsColumns(e, jobs[i].format, jobs[i].table, p, lookBack);
    else
      reduceThenScan(jobs.subspan(i, 1), e, p, lookBack);
  }
}

// ---- reduce-then-scan ------------------------------------------------------------------
// Each pass runs for every job, then one barrier: the jobs' dispatches may overlap.
void GlSat::reduceThenScan(std::span<const Job> jobs, Extent e, const Programs& p, bool lookBack) {
  const Tiles tiles = Tiles::of(e);
  for (GLuint program : {p.tileReduce.get(), tileCarries_.get(), p.tileScan.get()}) {
    gl::uniform2i(program, "uExtent", e.width, e.height);
    gl::uniform2i(program, "uTiles", tiles.x, tiles.y);
  }
  carriesFor(jobs.size());
  auto bindCarries = [&](std::size_t i) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, carries_[i].rows.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, carries_[i].columns.get());
  };
  if (lookBack) {  // one job (buildAll); the image's total and every tile's "published" flag start at zero
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);  // after the last build's use
    const std::uint32_t zero = 0;
    glClearNamedBufferSubData(lookBackFlags_.get(), GL_R32UI, 0, GLsizeiptr(16 + std::size_t(tiles.x) * tiles.y * 4),
                              GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, lookBackFlags_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, colInclusive_.get());
  }
  glUseProgram(p.tileReduce.get());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    glBindTextureUnit(0, jobs[i].texture);
    bindCarries(i);
    glDispatchCompute(GLuint(tiles.x), GLuint(tiles.y), 1);
  }
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  if (!lookBack) {
    const int rowGroups = ceilDiv(e.height, kGroup);
    gl::uniform1i(tileCarries_.get(), "uRowGroups", rowGroups);
    glUseProgram(tileCarries_.get());
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      bindCarries(i);
      glDispatchCompute(GLuint(rowGroups + ceilDiv(e.width, kColumnLanes)), 1, 1);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  glUseProgram(p.tileScan.get());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const SatFormat format = jobs[i].format;
    const int mode = format == SatFormat::Uint32 ? 0 : format == SatFormat::Float32 ? 1
                     : format == SatFormat::Float32Offset ? 2 : 3;
    gl::uniform1i(p.tileScan.get(), "uFormat", mode);
    glBindTextureUnit(0, jobs[i].texture);
    bindCarries(i);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, jobs[i].table);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, jobs[i].table);  // uint21x3's view of it
    glDispatchCompute(GLuint(tiles.x), GLuint(tiles.y), 1);
  }
}

// ---- rows-columns ----------------------------------------------------------------------
void GlSat::rowsColumns(Extent e, SatFormat format, GLuint table, const Programs& p, bool lookBack) {
  // uint21x3 is packed from a uint32 table built first (16 B/pixel, made on first use).
  if (format == SatFormat::Uint21x3 && !exactSat_)
    exactSat_ = gl::createBuffer(GLsizeiptr(satTableBytes(SatFormat::Uint32, e.width, e.height)), nullptr, 0);
  const GLuint exact = format == SatFormat::Uint21x3 ? exactSat_.get() : table;
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, exact);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, blockSums_.get());
  lineScans(p.lineScan.get(), 0, e.height, e.width, e.width, 1, lookBack);
  lineScans(p.lineScan.get(), 1, e.width, e.height, 1, e.width, lookBack);
  if (format == SatFormat::Uint21x3) {
    const GLuint program = linePack_.get();
    gl::uniform1i(program, "uPixels", e.width * e.height);
    glUseProgram(program);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, exact);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, table);
    glDispatchCompute(GLuint(ceilDiv(e.width * e.height, kGroup)), 1, 1);
  } else if (format != SatFormat::Uint32) {
    toFloatFormat(e, format, table);
  }
}

// One multi-block scan of `lines` lines of `length` elements (sat_scan.comp's modes).
// With `lookBack` (the decoupled-lookback variant) the blocks of a line pass their sums by
// look-back: a dispatch of aggregates, then one that scans and looks back (sat_scan.comp).
void GlSat::lineScans(GLuint scan, int mode, int lines, int length, int lineStride, int elementStride,
                      bool lookBack) {
  const int blocks = ceilDiv(length, kBlock);
  for (GLuint program : {scan, lineAdd_.get()}) {
    gl::uniform1i(program, "uLength", length);
    gl::uniform1i(program, "uLineStride", lineStride);
    gl::uniform1i(program, "uElementStride", elementStride);
    gl::uniform1i(program, "uBlocks", blocks);
  }
  gl::uniform1i(scan, "uMode", mode);
  glUseProgram(scan);
  if (lookBack) {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);  // after the last scan's use
    const std::uint32_t zero = 0;
    glClearNamedBufferSubData(linePublished_.get(), GL_R32UI, 0, GLsizeiptr(std::size_t(lines) * blocks * 4),
                              GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, linePublished_.get());
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, lineInclusive_.get());
    for (int pass : {1, 2}) {
      if (pass == 1 && blocks == 1) continue;  // no predecessor to read an aggregate of
      gl::uniform1i(scan, "uLookBack", pass);
      glDispatchCompute(GLuint(blocks), GLuint(lines), 1);
      glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    return;
  }
  glDispatchCompute(GLuint(blocks), GLuint(lines), 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  if (blocks == 1) return;
  // The blocks' totals of every line, scanned (exclusive), then added to the blocks.
  gl::uniform1i(scan, "uMode", 2);
  gl::uniform1i(scan, "uLength", blocks);
  glDispatchCompute(1, GLuint(lines), 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  glUseProgram(lineAdd_.get());
  glDispatchCompute(GLuint(ceilDiv(length - kBlock, kGroup)), GLuint(lines), 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

// The float formats from the uint32 table, in place (sat_format.comp's modes).
void GlSat::toFloatFormat(Extent e, SatFormat format, GLuint table) {
  const int pixels = e.width * e.height;
  const GLuint p = lineFormat_.get();
  gl::uniform1i(p, "uWidth", e.width);
  gl::uniform1i(p, "uPixels", pixels);
  glUseProgram(p);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, table);
  const bool offset = format == SatFormat::Float32Offset;
  if (offset) {
    gl::uniform1i(p, "uMode", 0);
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  }
  gl::uniform1i(p, "uMode", offset ? 2 : 1);
  glDispatchCompute(GLuint(ceilDiv(pixels, kGroup)), 1, 1);
}

// ---- capability ------------------------------------------------------------------------
namespace {
bool hasExtension(std::string_view name) {
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i)
    if (const auto* e = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, GLuint(i))); e && name == e)
      return true;
  return false;
}
}  // namespace

int glSubgroupSize() {
  if (!hasExtension("GL_KHR_shader_subgroup")) return 0;
  GLint size = 0;
  glGetIntegerv(GL_SUBGROUP_SIZE_KHR, &size);
  return int(size);
}

std::optional<std::string> whyNoSubgroups(const Context& context) {
  if (!hasExtension("GL_KHR_shader_subgroup"))
    return "this GL (" + context.renderer + ") lacks GL_KHR_shader_subgroup; use another --scan";
  GLint stages = 0, features = 0;
  glGetIntegerv(GL_SUBGROUP_SUPPORTED_STAGES_KHR, &stages);
  glGetIntegerv(GL_SUBGROUP_SUPPORTED_FEATURES_KHR, &features);
  if (!(stages & GL_COMPUTE_SHADER_BIT) || !(features & GL_SUBGROUP_FEATURE_ARITHMETIC_BIT_KHR))
    return "this GL (" + context.renderer + ") has no subgroup arithmetic in compute shaders; use another --scan";
  return std::nullopt;
}

}  // namespace satdof
