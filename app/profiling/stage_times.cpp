// app/profiling/stage_times.cpp — see stage_times.h.
#include "profiling/stage_times.h"

#include <algorithm>

namespace satdof {

std::string_view stageName(Stage s) {
  switch (s) {
    case Stage::Scene: return "scene";
    case Stage::Filter: return "filter";
    case Stage::MapUnmap: return "map/unmap";
    case Stage::Sat: return "sat";
    case Stage::Dof: return "dof";
    case Stage::Frame: return "frame";
    case Stage::Count: break;
  }
  return "?";
}

void StageHistory::add(Stage s, float ms) {
  samples_[int(s)].push_back(ms);
  auto& sm = smoothed_[int(s)];
  sm = sm ? *sm * 0.9f + ms * 0.1f : ms;
}

void StageHistory::addVariantTime(Stage s, const std::string& variant, float ms, bool countsForStage) {
  if (countsForStage) add(s, ms);
  auto [it, inserted] = variants_[int(s)].try_emplace(variant, ms);
  if (!inserted) it->second = it->second * 0.9f + ms * 0.1f;
}

void StageHistory::clear() {
  for (auto& v : variants_) v.clear();
  for (auto& v : samples_) v.clear();
  smoothed_.fill(std::nullopt);
}

std::optional<float> StageHistory::median(Stage s) const {
  std::vector<float> v = samples_[int(s)];
  if (v.empty()) return std::nullopt;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
  float m = v[mid];
  if (v.size() % 2 == 0) m = (m + *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid))) / 2;
  return m;
}

GlStageTimer::GlStageTimer() {
  for (auto& f : frames_)
    for (int i = 0; i < kStageCount; ++i) {
      f.begin[i] = gl::createQuery(GL_TIMESTAMP);
      f.end[i] = gl::createQuery(GL_TIMESTAMP);
    }
}

void GlStageTimer::begin(Stage s) {
  auto& f = frames_[current_];
  glQueryCounter(f.begin[int(s)].get(), GL_TIMESTAMP);
  f.used[int(s)] = true;
}

void GlStageTimer::end(Stage s) { glQueryCounter(frames_[current_].end[int(s)].get(), GL_TIMESTAMP); }

void GlStageTimer::collect(FrameQueries& f, StageHistory& history, bool wait) {
  if (!f.pending) return;
  for (int i = 0; i < kStageCount; ++i) {
    if (!f.used[i]) continue;
    GLint available = 0;
    glGetQueryObjectiv(f.end[i].get(), GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available && !wait) return;  // try again next frame
  }
  for (int i = 0; i < kStageCount; ++i) {
    if (!f.used[i]) continue;
    GLuint64 t0 = 0, t1 = 0;
    glGetQueryObjectui64v(f.begin[i].get(), GL_QUERY_RESULT, &t0);
    glGetQueryObjectui64v(f.end[i].get(), GL_QUERY_RESULT, &t1);
    history.add(Stage(i), float(double(t1 - t0) * 1e-6));
  }
  f.used.fill(false);
  f.pending = false;
}

void GlStageTimer::endFrame(StageHistory& history) {
  frames_[current_].pending = true;
  current_ = (current_ + 1) % kRing;
  for (int k = 1; k < kRing; ++k) collect(frames_[(current_ + k) % kRing], history, false);
  // The slot about to be reused must be finished: wait for it (rare: kRing frames behind).
  collect(frames_[current_], history, true);
}

void GlStageTimer::drain(StageHistory& history) {
  for (int k = 0; k < kRing; ++k) collect(frames_[(current_ + k) % kRing], history, true);
}

}  // namespace satdof
