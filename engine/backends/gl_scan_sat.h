// engine/backends/gl_scan_sat.h — the gl-compute backend's summed-area tables: its two
// registries (the block-scan variants, the SAT algorithms) and GlSat, which owns their
// programs and scratch and builds a table of an RGBA8 texture in any SAT format.
//
// Scan variants (shaders/compute/block_scan_<name>.glsl, one file each, one contract: a
// work group scans a block of 512 uvec4 elements), in the CUDA backend's teaching order
// and under its names where the idea is the same: hillis-steele, blelloch,
// blelloch-conflict-free, blelloch-8-per-thread, subgroup (the GLSL counterpart of
// warp-shuffle: KHR_shader_subgroup arithmetic, only where the GL offers it),
// decoupled-lookback (reduce-then-scan's carries passed between bands by look-back; its
// block scan is subgroup's where the GL has it, else blelloch-conflict-free's).
// SAT algorithms:
//   reduce-then-scan  tiles of 512 x 16: tile sums, carries, then the table in its final
//                     format (sat_tile_*.comp): the image read twice, the table written once;
//   rows-columns      the multi-block scan of every row, then of every column in place,
//                     in uint32, then a format pass (sat_scan.comp, sat_add.comp,
//                     sat_format.comp, sat_pack.comp).
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/context/context.h"
#include "engine/frame/frame_targets.h"
#include "engine/gl/handles.h"

namespace satdof {

struct GlScanVariant {
  std::string_view name;
  std::string_view description;
  std::string_view blockScan;  // what "compute/block_scan.glsl" stands for
  bool subgroups;              // needs GL_KHR_shader_subgroup arithmetic
};
std::span<const GlScanVariant> glScanVariants();

struct GlSatAlgorithm {
  std::string_view name;
  std::string_view description;
};
std::span<const GlSatAlgorithm> glSatAlgorithms();

// Index in its list, or -1.
int glScanVariantIndex(std::string_view name);
int glSatAlgorithmIndex(std::string_view name);

// Why subgroup arithmetic cannot run in compute shaders on this GL, or nullopt.
std::optional<std::string> whyNoSubgroups(const Context& context);
// The GL's subgroup width (GL_SUBGROUP_SIZE_KHR), or 0 without GL_KHR_shader_subgroup: what
// the lesson's trace of the subgroup scan takes.
int glSubgroupSize();

class GlSat {
 public:
  // `noSubgroups`: why the subgroup variants cannot run here (nullopt: they can).
  GlSat(std::filesystem::path shaderDir, std::optional<std::string> noSubgroups);

  // Why scan variant `scan` cannot run here, or nullopt; compiles its programs (a
  // compile error is the reason).
  std::optional<std::string> prepare(int scan);
  // Why it cannot run on this GL, known without compiling (nullopt: it may).
  std::optional<std::string> whyNotHere(int scan) const;

  // Scratch for the frame's table (`frame` in `format`; the field tables are as large).
  // Throws std::runtime_error, with what to do instead, for what the passes cannot build.
  void attach(Extent frame, SatFormat format);
  void detach();

  // The SAT of `texture` (extent e, RGBA8) into `table` in `format`, by SAT algorithm
  // `sat` with scan variant `scan` (prepared); binds what it needs, leaves the program,
  // texture unit 0 and buffer bindings 0-4 changed. A caller reading the table issues
  // its own barrier.
  void build(GLuint texture, Extent e, SatFormat format, GLuint table, int sat, int scan);

  // Several tables of extent e at once (the layered DoF's field SATs), as build would make
  // them one by one. Reduce-then-scan without look-back interleaves them: each of its
  // three passes runs for every table before one barrier, on scratch of each table's own.
  struct Job {
    GLuint texture, table;
    SatFormat format;
  };
  void buildAll(std::span<const Job> jobs, Extent e, int sat, int scan);

 private:
  struct Programs {
    gl::Program lineScan, tileReduce, tileScan;
  };
  void rowsColumns(Extent e, SatFormat format, GLuint table, const Programs& p, bool lookBack);
  void lineScans(GLuint scan, int mode, int lines, int length, int lineStride, int elementStride, bool lookBack);
  void toFloatFormat(Extent e, SatFormat format, GLuint table);
  void carriesFor(std::size_t tables);
  void reduceThenScan(std::span<const Job> jobs, Extent e, const Programs& p, bool lookBack);

  std::filesystem::path shaderDir_;
  std::optional<std::string> noSubgroups_;
  std::vector<std::optional<Programs>> programs_;  // per scan variant, compiled on first use
  gl::Program lineAdd_, lineFormat_, linePack_, tileCarries_;
  gl::Buffer blockSums_;  // rows-columns: the blocks' totals
  gl::Buffer exactSat_;   // rows-columns, uint21x3: the uint32 table it packs
  struct CarryBuffers {
    gl::Buffer rows, columns;
  };
  Extent extent_{};                               // attach's
  std::vector<CarryBuffers> carries_;          // reduce-then-scan (sat_tile.glsl): one set a table
  gl::Buffer lookBackFlags_, colInclusive_;    // its look-back (sat_tile_lookback.glsl)
  gl::Buffer linePublished_, lineInclusive_;   // rows-columns' look-back (sat_scan.comp)
};

}  // namespace satdof
