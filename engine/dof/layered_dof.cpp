// engine/dof/layered_dof.cpp — the `layered` DoF entry (satdof/reference/layered_dof.h):
//   split    each pixel into the near or far field, each tile's near radius, dilated;
//   SATs     of the two fields, by the compute backend;
//   reach    how far the near blur reaches each pixel: two passes over the split's near
//            radii (rows, columns) into the near reach image;
//   compose  near over far into the DoF output (GL compute, dof_layered.comp).
// On the cuda backend the split is a CUDA kernel (satdof/dof.h) and the SATs the backend's
// algorithm, inside the backend's own mapping of the frame (engine/interop/stage_host.h): one
// GL-CUDA hand-over per frame, and the reach is a CUDA kernel there too, before the field
// SATs on the frame's one stream (stage_host.h says why one): the CUDA part's
// LayeredCudaPath (layered_cuda_path.h, layered_dof_cuda.cpp). Elsewhere the split is two GL
// compute passes, the SATs ComputeBackend::buildFieldSats (the CPU by default) and the reach
// dof_layers_reach.comp's two passes. All give the same bytes.
//
// The `see-through` entry is the same class with the scene's second layer
// (DofInputs::behind): the GL split fills the far field under near
// pixels and writes the far side, a third field SAT, and the composite replaces what a
// blurred near pixel's box shows of the far side by what lies behind it. Its split is the
// GL one on every backend (the CUDA split knows one layer); on the cuda backend it runs
// before the backend's stage when no filter is on (beforeBackend: it reads only the
// scene), so the fields and their tables join the backend's mapping and the frame keeps
// one hand-over, and its CUDA reach is queued as soon as the backend maps the frame
// (StageHost::onFrameMapped), ahead of the frame's SAT; with a filter on, the fields are
// mapped a second time for their SATs.
// Without a second layer (a photo) it runs as layered.
//
// `see-through-linear` is see-through in linear light (reference "Linear light"): the GL
// split writes every field, and the image itself, in dithered linear bytes (a fourth field
// SAT), and the composite works in light and encodes the result back, with the tables of
// reference::linearLightTables in a buffer both passes read.
#include <array>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/backends/compute_backend.h"
#include "engine/dof/coc_uniforms.h"
#include "engine/dof/dof_implementation.h"
#include "engine/dof/layered_cuda_path.h"
#include "engine/gl/handles.h"
#include "engine/gl/program.h"
#include "engine/parts/optional_parts.h"
#include "satdof/reference/layered_dof.h"

namespace satdof {
namespace {

using reference::kLayerTile;

class LayeredDof final : public DofImplementation {
 public:
  LayeredDof(const std::filesystem::path& shaderDir, ComputeBackend& backend, bool seeThrough, bool linear)
      : backend_(backend), seeThrough_(seeThrough), linear_(linear) {
    reloadShaders(shaderDir);
    linearTables_ = createLinearLightTables();
    // On the cuda backend the fields and their SATs join the backend's mapping of the
    // frame: one GL-CUDA hand-over (layered_cuda_path.h).
    cuda_ = createLayeredCudaPath(backend, {seeThrough_, linear_, targets_, splitAhead_});
  }

  void attach(const Targets& t) override {
    const bool formatChanged = t.satFormat != targets_.satFormat;
    targets_ = t;
    if (formatChanged) reloadShaders(shaderDir_);
    const int tx = (t.extent.width + kLayerTile - 1) / kLayerTile, ty = (t.extent.height + kLayerTile - 1) / kLayerTile;
    tileMax_ = gl::createTexture2D(GL_R32I, tx, ty);
    rowReach_ = gl::createTexture2D(GL_R16I, t.extent.width, t.extent.height);
  }

  // The split and the composite are built for each mode this entry runs (a frame with or
  // without the second layer; in linear light, the image's table packed or not; the
  // composite for each aperture), the mode as the shaders' defines, so that a program holds
  // only its own branches (at 4K on the H200 see-through-linear's split took 0.006 ms less
  // and its composite 0.012 less, layered's composite 0.058 less, than with the mode as
  // uniforms: docs/PERFORMANCE.md). The splits are built here; the composites as a frame
  // first needs them (composite()), but one here, which checks the source and gives the
  // workgroup size.
  void reloadShaders(const std::filesystem::path& dir) override {
    std::array<gl::Program, 2> splits;
    for (const bool behind : {false, true})
      if (!behind || seeThrough_)
        splits[behind] = gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "dof_layers_split.comp"}}, {},
                                         {{"SEE_THROUGH", behind}, {"LINEAR", linear_}});
    std::array<gl::Program, kComposites> composites;
    const std::size_t first = compositeIndex(seeThrough_, false, reference::Aperture::Box);
    composites[first] = loadComposite(dir, first);
    auto dilate = gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "dof_layers_dilate.comp"}}, {});
    auto reach = gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "dof_layers_reach.comp"}}, {});
    std::array<GLint, 3> composeGroup{};
    glGetProgramiv(composites[first].get(), GL_COMPUTE_WORK_GROUP_SIZE, composeGroup.data());
    shaderDir_ = dir;
    splits_ = std::move(splits);  // all or none
    dilate_ = std::move(dilate);
    reachProgram_ = std::move(reach);
    composites_ = std::move(composites);
    composeGroup_ = {composeGroup[0], composeGroup[1]};
  }

  // See-through on the cuda backend, on a frame without a filter: the GL split now, so
  // that the backend maps the fields with its own targets (the CUDA split knows one layer).
  void beforeBackend(const DofSettings& s, const DofInputs& in, Profiler& profiler) override {
    if (!cuda_ || !seeThrough_ || !targets_.nearField) return;
    const Frame f = frameOf(s, in);
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 3, -1, f.names.dof);
    splitOnGl(in, f, profiler);
    glPopDebugGroup();
    splitAhead_ = true;
  }

  void run(const DofSettings& s, const DofInputs& in, Profiler& profiler) override {
    const Targets& t = targets_;
    if (!t.nearField) throw std::logic_error("layered DoF attached to targets without fields");
    const Extent e = t.extent;
    const Frame f = frameOf(s, in);
    const reference::CocRamp& ramp = f.ramp;
    const bool behind = f.behind;
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 3, -1, f.names.dof);
    Targets fields = t;
    if (!behind) fields.farSide = fields.farSideSat = 0;  // no far side this frame
    if (!linear_) fields.linearColour = fields.linearColourSat = 0;  // held for another DoF
    // The linear image's table in half the bytes where the cuda backend builds it (its SAT
    // kernels write uint21x3 directly; gl-compute would pack a uint32 table in a second
    // pass) and every box the composite reads of it is exact in that format.
    if (linear_ && onCuda() && ramp.maxRadius <= kUint21x3MaxRadius) fields.linearColourSatFormat = SatFormat::Uint21x3;
    const bool linearPacked = fields.linearColourSatFormat == SatFormat::Uint21x3;
    // The backend ran onFrameMapped on the mapping it left open: after a split ahead, the
    // reach started there.
    const bool reachStarted = cuda_ && cuda_->takeFrameMapping();
    if (!std::exchange(splitAhead_, false) &&
        (behind || linear_ || !cuda_ || !cuda_->split(in.source == t.filtered, ramp, profiler))) {
      if (cuda_) cuda_->closeFrameMapping(profiler);  // GL writes the fields next
      splitOnGl(in, f, profiler);
    }
    if (!buildFieldSatsAndReach(fields, reachStarted, profiler)) {
      // R(p) on GL: the rows' reach over the split's near radii into rowReach_, the
      // columns' over that into the near reach image.
      auto timed = profiler.section(profiler.gl(), "dof reach", "layered (GL)");
      setCocUniforms(reachProgram_.get(), ramp, e);
      glBindImageTexture(3, t.nearTileRadius, 0, GL_FALSE, 0, GL_READ_ONLY, GL_R32I);
      for (int pass = 1; pass <= 2; ++pass) {
        gl::uniform1i(reachProgram_.get(), "uPass", pass);
        glBindImageTexture(2, pass == 1 ? t.nearRadius : rowReach_.get(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_R16I);
        glBindImageTexture(4, pass == 1 ? rowReach_.get() : t.nearReach, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R16I);
        glDispatchCompute(GLuint((e.width + 15) / 16), GLuint((e.height + 15) / 16), 1);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
      }
    }
    {
      const GLuint compose = composite(behind, linearPacked, s.params.aperture);  // a first use builds it: untimed
      auto timed = profiler.section(profiler.gl(), "dof", f.names.dof);
      setCocUniforms(compose, ramp, e);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, linearTables_.get());  // the SATs' passes rebind 4
      if (linear_) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, linearPacked ? 6 : 5, t.linearColourSat);
      glBindTextureUnit(0, t.depth);
      if (behind) {
        glBindTextureUnit(1, in.behind.colour);
        glBindTextureUnit(2, in.behind.depth);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, t.farSideSat);
      }
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, t.sat);
      glBindImageTexture(0, t.dofOutput, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
      glBindImageTexture(3, t.nearReach, 0, GL_FALSE, 0, GL_READ_ONLY, GL_R16I);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, t.nearSat);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, t.farSat);
      glDispatchCompute(GLuint((e.width + composeGroup_[0] - 1) / composeGroup_[0]),
                        GLuint((e.height + composeGroup_[1] - 1) / composeGroup_[1]), 1);
      glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 5, 0);
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 6, 0);
      for (GLuint unit : {0u, 1u, 2u, 3u, 4u, 5u}) glBindImageTexture(unit, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA8);
    }
    glPopDebugGroup();
  }

 private:
  bool onCuda() const { return cuda_ != nullptr; }

  // What a frame runs: its ramp, whether see-through has a second layer (else it runs as
  // layered), the names for the debug group and the profiler's tags.
  struct Names {
    const char *dof, *glSplit;
  };
  struct Frame {
    reference::CocRamp ramp;
    bool behind;
    Names names;
  };
  Frame frameOf(const DofSettings& s, const DofInputs& in) const {
    static constexpr Names kNames[2][2] = {{{"layered", "layered (GL)"}, {"see-through", "see-through (GL)"}},
                                           {{"layered, linear", "layered, linear (GL)"},
                                            {"see-through, linear", "see-through, linear (GL)"}}};
    const bool behind = seeThrough_ && in.behind.colour && in.behind.depth;
    return {reference::cocRamp(s.params, targets_.extent.width), behind, kNames[linear_][behind]};
  }

  // The split and the tile dilation as GL compute passes (every field, both layers,
  // either light).
  void splitOnGl(const DofInputs& in, const Frame& f, Profiler& profiler) {
    const Targets& t = targets_;
    const Extent e = t.extent;
    const GLuint groupsX = GLuint((e.width + kLayerTile - 1) / kLayerTile);
    const GLuint groupsY = GLuint((e.height + kLayerTile - 1) / kLayerTile);
    auto timed = profiler.section(profiler.gl(), "dof split", f.names.glSplit);
    const GLuint split = splits_[f.behind].get();
    setCocUniforms(split, f.ramp, e);
    gl::uniform1f(split, "uBehindEmpty", in.behind.emptyDepth);
    glBindTextureUnit(0, t.depth);
    glBindTextureUnit(1, in.source ? in.source : t.sceneColour);
    glBindImageTexture(0, t.nearField, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindImageTexture(1, t.farField, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindImageTexture(2, tileMax_.get(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32I);
    glBindImageTexture(4, t.nearRadius, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R16I);
    if (f.behind) {
      glBindTextureUnit(2, in.behind.colour);
      glBindTextureUnit(3, in.behind.depth);
      glBindImageTexture(3, t.farSide, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    }
    if (linear_) glBindImageTexture(5, t.linearColour, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 4, linearTables_.get());
    glDispatchCompute(groupsX, groupsY, 1);
    glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    setCocUniforms(dilate_.get(), f.ramp, e);
    glBindImageTexture(2, tileMax_.get(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_R32I);
    glBindImageTexture(3, t.nearTileRadius, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32I);
    glDispatchCompute((groupsX + 7) / 8, (groupsY + 7) / 8, 1);
    // The fields are read next by the backend: CUDA (mapping orders it), a read back or
    // a GL compute pass.
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
  }

  // The fields' SATs: inside the frame's mapping where one is open, after the reach on the
  // cuda backend's stream (then the mapping closed: true); else by the backend on its own
  // (on cuda a mapping of the fields alone), the reach left to GL (false).
  bool buildFieldSatsAndReach(const Targets& fields, bool reachStarted, Profiler& profiler) {
    if (cuda_ && cuda_->buildFieldSatsAndReach(fields, reachStarted, profiler)) return true;
    backend_.buildFieldSats(fields, profiler);
    return false;
  }

  ComputeBackend& backend_;
  bool seeThrough_, linear_;
  bool splitAhead_ = false;  // beforeBackend split this frame's fields
  gl::Buffer linearTables_;  // reference::linearLightTables: decode, threshold, bucketStart
  std::filesystem::path shaderDir_;
  Targets targets_;
  static constexpr std::size_t kComposites = 8;
  static constexpr std::size_t compositeIndex(bool behind, bool linearPacked, reference::Aperture aperture) {
    return behind + 2 * linearPacked + 4 * (aperture == reference::Aperture::Disc);
  }
  gl::Program loadComposite(const std::filesystem::path& dir, std::size_t index) const {
    const bool behind = index & 1, packed = index & 2, disc = index & 4;
    if ((behind && !seeThrough_) || (packed && !linear_))
      throw std::logic_error("the layered composite asked for a mode its entry never runs");
    return gl::loadProgram(dir, {{GL_COMPUTE_SHADER, "dof_layered.comp"}},
                           {{"sat_format.glsl", std::string(satFormatInfo(targets_.satFormat).shaderInclude)}},
                           {{"SEE_THROUGH", behind}, {"LINEAR", linear_}, {"LINEAR_PACKED", packed}, {"APERTURE", disc}});
  }
  // The composite of that mode, built on first use.
  GLuint composite(bool behind, bool linearPacked, reference::Aperture aperture) {
    const std::size_t index = compositeIndex(behind, linearPacked, aperture);
    if (!composites_[index]) composites_[index] = loadComposite(shaderDir_, index);
    return composites_[index].get();
  }
  std::array<gl::Program, 2> splits_;  // by whether the frame has a second layer (none built if it cannot)
  std::array<gl::Program, kComposites> composites_;  // by compositeIndex; those not yet used empty
  gl::Program dilate_, reachProgram_;
  std::array<GLint, 2> composeGroup_{};  // the composite's workgroup size, as its shader declares it
  gl::Texture tileMax_;                   // the GL path's undilated tile maxima
  gl::Texture rowReach_;                  // the GL reach's rows pass (the columns' input)
  std::unique_ptr<LayeredCudaPath> cuda_;  // on the cuda backend; declared last: destroyed first
};

// The CUDA part's factory (null: none registered).
LayeredCudaPathFactory& registeredFactory() {
  static LayeredCudaPathFactory factory = nullptr;
  return factory;
}

}  // namespace

void registerLayeredCudaPath(LayeredCudaPathFactory factory) { registeredFactory() = factory; }

std::unique_ptr<LayeredCudaPath> createLayeredCudaPath(ComputeBackend& backend, const LayeredDofView& dof) {
  ensureOptionalParts();
  return registeredFactory() ? registeredFactory()(backend, dof) : nullptr;
}

gl::Buffer createLinearLightTables() {
  const reference::LinearLightTables& tables = reference::linearLightTables();
  static_assert(sizeof(tables.decode) == 1024 && sizeof(tables.threshold) == 1024);
  static_assert(sizeof(tables.bucketStart) == 672 * 4, "linear_light.glsl's bucketStart[672]");
  // std430: decode[256], threshold[256], then the bucket bytes, four to a uint
  std::array<std::uint8_t, 2048 + sizeof(tables.bucketStart)> bytes;
  std::memcpy(bytes.data(), tables.decode.data(), 1024);
  std::memcpy(bytes.data() + 1024, tables.threshold.data(), 1024);
  std::memcpy(bytes.data() + 2048, tables.bucketStart.data(), sizeof(tables.bucketStart));
  return gl::createBuffer(GLsizeiptr(bytes.size()), bytes.data(), 0);
}

std::unique_ptr<DofImplementation> createLayeredDof(const std::filesystem::path& shaderDir, ComputeBackend& backend) {
  return std::make_unique<LayeredDof>(shaderDir, backend, false, false);
}

std::unique_ptr<DofImplementation> createSeeThroughDof(const std::filesystem::path& shaderDir, ComputeBackend& backend) {
  return std::make_unique<LayeredDof>(shaderDir, backend, true, false);
}

std::unique_ptr<DofImplementation> createSeeThroughLinearDof(const std::filesystem::path& shaderDir,
                                                             ComputeBackend& backend) {
  return std::make_unique<LayeredDof>(shaderDir, backend, true, true);
}

}  // namespace satdof
