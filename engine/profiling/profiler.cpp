// engine/profiling/profiler.cpp — see profiler.h.
#include "engine/profiling/profiler.h"

#include <algorithm>

namespace satdof {
namespace {

// The median of `v` (the mean of the middle two for an even count); `v` is reordered.
float medianOf(std::vector<float> v) {
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(mid), v.end());
  float m = v[mid];
  if (v.size() % 2 == 0) m = (m + *std::max_element(v.begin(), v.begin() + std::ptrdiff_t(mid))) / 2;
  return m;
}

}  // namespace

// --- GlTimestamps ---------------------------------------------------------------------

int GlTimestamps::mark(int frame) {
  auto& q = queries_[frame];
  if (used_[frame] == int(q.size())) q.push_back(gl::createQuery(GL_TIMESTAMP));
  glQueryCounter(q[std::size_t(used_[frame])].get(), GL_TIMESTAMP);
  return used_[frame]++;
}

std::optional<float> GlTimestamps::elapsed(int frame, int from, int to, bool wait) {
  const GLuint a = queries_[frame][std::size_t(from)].get();
  const GLuint b = queries_[frame][std::size_t(to)].get();
  if (!wait) {
    GLint available = 0;
    glGetQueryObjectiv(b, GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) return std::nullopt;
  }
  GLuint64 t0 = 0, t1 = 0;
  glGetQueryObjectui64v(a, GL_QUERY_RESULT, &t0);
  glGetQueryObjectui64v(b, GL_QUERY_RESULT, &t1);
  return float(double(t1 - t0) * 1e-6);
}

// --- HostClock ------------------------------------------------------------------------

int HostClock::mark(int frame) {
  marks_[frame].push_back(std::chrono::steady_clock::now());
  return int(marks_[frame].size()) - 1;
}

std::optional<float> HostClock::elapsed(int frame, int from, int to, bool) {
  const auto& m = marks_[frame];
  return std::chrono::duration<float, std::milli>(m[std::size_t(to)] - m[std::size_t(from)]).count();
}

// --- Profiler -------------------------------------------------------------------------

Profiler::Section Profiler::section(TimestampSource& clock, std::string_view name,
                                    std::string_view tag) {
  Frame& f = frames_[current_];
  f.sections.push_back({std::string(name), std::string(tag), &clock, clock.mark(current_)});
  return Section(this, int(f.sections.size()) - 1);
}

void Profiler::Section::end() {
  if (!profiler_) return;
  Open& s = profiler_->frames_[profiler_->current_].sections[std::size_t(index_)];
  s.end = s.clock->mark(profiler_->current_);
  profiler_ = nullptr;
}

bool Profiler::collect(Frame& f, int slot, ProfileHistory& history, bool wait) {
  if (!f.pending) return true;
  std::vector<float> ms;
  for (const Open& s : f.sections) {
    if (s.end < 0) continue;  // never closed (an exception left its scope): skipped
    const auto t = s.clock->elapsed(slot, s.begin, s.end, wait);
    if (!t) return false;  // not finished yet: try again next frame
    ms.push_back(*t);
  }
  std::size_t k = 0;
  for (const Open& s : f.sections)
    if (s.end >= 0) history.add(s.name, ms[k++], s.tag);
  for (const Open& s : f.sections) s.clock->reset(slot);
  f.sections.clear();
  f.pending = false;
  return true;
}

void Profiler::endFrame(ProfileHistory& history) {
  frames_[current_].pending = true;
  current_ = (current_ + 1) % TimestampSource::kRing;
  for (int k = 1; k < TimestampSource::kRing; ++k) {
    const int slot = (current_ + k) % TimestampSource::kRing;
    if (!collect(frames_[slot], slot, history, false)) break;  // keep frames in order
  }
  // The slot about to be reused must be finished: wait for it (it is kRing frames old).
  collect(frames_[current_], current_, history, true);
}

void Profiler::drain(ProfileHistory& history) {
  for (int k = 0; k < TimestampSource::kRing; ++k) {
    const int slot = (current_ + k) % TimestampSource::kRing;
    collect(frames_[slot], slot, history, true);
  }
}

void Profiler::forgetOtherClocks() {
  for (Frame& f : frames_)
    std::erase_if(f.sections, [&](const Open& s) { return s.clock != &gl_ && s.clock != &host_; });
}

// --- ProfileHistory -------------------------------------------------------------------

void ProfileHistory::add(const std::string& name, float ms, const std::string& tag) {
  auto [it, inserted] = stats_.try_emplace(name);
  if (inserted) order_.push_back(name);
  Stats& s = it->second;
  s.smoothed = s.samples.empty() ? ms : s.smoothed * 0.9f + ms * 0.1f;
  s.samples.push_back(ms);
  if (!tag.empty()) {
    auto [t, fresh] = s.tags.try_emplace(tag, ms);
    if (!fresh) t->second = t->second * 0.9f + ms * 0.1f;
    Stats::TagSamples& recent = s.tagSamples[tag];
    if (recent.last.size() == kTagRecent) recent.last.erase(recent.last.begin());
    recent.last.push_back(ms);
    ++recent.count;
  }
}

std::size_t ProfileHistory::tagCount(const std::string& name, const std::string& tag) const {
  const auto it = stats_.find(name);
  if (it == stats_.end()) return 0;
  const auto t = it->second.tagSamples.find(tag);
  return t == it->second.tagSamples.end() ? 0 : t->second.count;
}

std::optional<float> ProfileHistory::tagRecentMedian(const std::string& name, const std::string& tag,
                                                     std::size_t n) const {
  const auto it = stats_.find(name);
  if (it == stats_.end()) return std::nullopt;
  const auto t = it->second.tagSamples.find(tag);
  if (t == it->second.tagSamples.end() || t->second.last.empty() || n == 0) return std::nullopt;
  const std::vector<float>& last = t->second.last;
  return medianOf({last.end() - std::ptrdiff_t(std::min(n, last.size())), last.end()});
}

std::optional<float> ProfileHistory::median(const std::string& name) const {
  const auto it = stats_.find(name);
  if (it == stats_.end() || it->second.samples.empty()) return std::nullopt;
  return medianOf(it->second.samples);
}

std::vector<float> ProfileHistory::recent(const std::string& name, std::size_t n) const {
  const auto it = stats_.find(name);
  if (it == stats_.end()) return {};
  const std::vector<float>& v = it->second.samples;
  return {v.end() - std::ptrdiff_t(std::min(n, v.size())), v.end()};
}

std::optional<float> ProfileHistory::smoothed(const std::string& name) const {
  const auto it = stats_.find(name);
  if (it == stats_.end() || it->second.samples.empty()) return std::nullopt;
  return it->second.smoothed;
}

std::size_t ProfileHistory::count(const std::string& name) const {
  const auto it = stats_.find(name);
  return it == stats_.end() ? 0 : it->second.samples.size();
}

const std::map<std::string, float>& ProfileHistory::tagTimes(const std::string& name) const {
  static const std::map<std::string, float> none;
  const auto it = stats_.find(name);
  return it == stats_.end() ? none : it->second.tags;
}

bool isHandOver(std::string_view section) {
  return section == "map" || section == "unmap" || section.ends_with(" map") || section.ends_with(" unmap");
}

std::optional<ProfileHistory::Budget> ProfileHistory::budget(const std::string& frameSection,
                                                             bool smoothedValues) const {
  const auto value = [&](const std::string& n) { return smoothedValues ? smoothed(n) : median(n); };
  const auto frame = value(frameSection);
  if (!frame) return std::nullopt;
  Budget b;
  b.frame = *frame;
  for (const std::string& n : order_) {
    if (n == frameSection) continue;
    const float ms = value(n).value_or(0.0f);
    (isHandOver(n) ? b.handOvers : b.stages) += ms;
  }
  return b;
}

}  // namespace satdof
