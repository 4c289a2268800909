// lesson/lookback_trace.cpp — see lookback_trace.h. Within one moment every tile acts on
// what the others had published before it (a read sees the last moment's stores), as the
// relaxed status words of the kernel allow at least.
#include "lesson/lookback_trace.h"

#include <algorithm>
#include <random>
#include <sstream>
#include <stdexcept>

namespace satdof::lesson {
namespace {

using lookback::TileFlag;

enum class Phase { Adding, LookingBack, Scanning, Done };

const char* letter(TileFlag f) { return f == TileFlag::Prefix ? "P" : f == TileFlag::Aggregate ? "A" : "X"; }

}  // namespace

LookbackTrace traceLookback(std::span<const std::uint32_t> input, int tileItems, unsigned seed) {
  if (input.empty() || tileItems < 1) throw std::invalid_argument("the look-back needs elements and tiles of at least one");
  LookbackTrace t;
  t.n = static_cast<int>(input.size());
  t.tileItems = tileItems;
  t.tiles = (t.n + tileItems - 1) / tileItems;
  if (t.tiles > 16) throw std::invalid_argument("at most 16 tiles: " + std::to_string(t.tiles) + " asked for");
  t.input.assign(input.begin(), input.end());
  t.result.assign(input.size(), 0);
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> work(1, 4);
  for (int b = 0; b < t.tiles; ++b) t.workTime.push_back(work(random));

  std::vector<LookbackTile> tiles(static_cast<std::size_t>(t.tiles));
  std::vector<Phase> phase(tiles.size(), Phase::Adding);
  std::vector<std::uint32_t> total(tiles.size(), 0), exclusive(tiles.size(), 0);
  std::vector<long long> window(tiles.size());
  for (int b = 0; b < t.tiles; ++b) {
    const int first = b * tileItems, count = std::min(tileItems, t.n - first);
    for (int i = 0; i < count; ++i) total[std::size_t(b)] += input[std::size_t(first + i)];
    window[std::size_t(b)] = b - 1;
    tiles[std::size_t(b)].doing = "adding up its " + std::to_string(count) + (count == 1 ? " element" : " elements");
  }
  t.steps.push_back({0, "every tile starts at once, its id from a counter in launch order; every status is NotReady (X)",
                     tiles, {}});

  for (int time = 1; std::any_of(phase.begin(), phase.end(), [](Phase p) { return p != Phase::Done; }); ++time) {
    const std::vector<LookbackTile> seen = tiles;  // what the reads of this moment find
    LookbackStep step{time, "", {}, {}};
    int published = 0, prefixes = 0, waited = 0, stored = 0;
    for (int b = 0; b < t.tiles; ++b) {
      const std::size_t k = std::size_t(b);
      LookbackTile& tile = tiles[k];
      if (phase[k] == Phase::Adding) {
        if (time < t.workTime[k]) continue;
        // A row's first tile knows its prefix (nothing) and publishes a Prefix at once.
        tile.flag = b == 0 ? TileFlag::Prefix : TileFlag::Aggregate;
        tile.value = total[k];
        tile.doing = std::string("published its total: ") + letter(tile.flag) + " " + std::to_string(total[k]);
        phase[k] = b == 0 ? Phase::Scanning : Phase::LookingBack;
        ++published;
      } else if (phase[k] == Phase::LookingBack) {
        // One window: lane l reads the tile windowPredecessor(window, l); before the row, a
        // virtual Prefix of 0.
        unsigned prefixLanes = 0;
        int notReady = -1;
        std::vector<int> lanesTile(lookback::kWindow);
        for (int lane = 0; lane < lookback::kWindow; ++lane) {
          const long long p = lookback::windowPredecessor(window[k], lane);
          lanesTile[std::size_t(lane)] = static_cast<int>(p);
          if (p < 0) {
            prefixLanes |= 1u << lane;
            continue;
          }
          ++t.statusReads;
          const TileFlag f = seen[std::size_t(p)].flag;
          if (f == TileFlag::NotReady && notReady < 0) notReady = static_cast<int>(p);
          if (f == TileFlag::Prefix) prefixLanes |= 1u << lane;
        }
        if (notReady >= 0) {
          ++t.waits, ++waited;
          tile.doing = "waits: tile " + std::to_string(notReady) + " is not ready (X); it reads again";
        } else {
          const int last = lookback::lastCombinedLane(prefixLanes);
          std::uint32_t sum = 0;
          std::string terms;
          for (int lane = last; lane >= 0; --lane) {  // furthest first, as the tiles lie
            const int p = lanesTile[std::size_t(lane)];
            if (p < 0) continue;
            sum += seen[std::size_t(p)].value;
            terms += (terms.empty() ? "" : " + ") + std::string(letter(seen[std::size_t(p)].flag)) + " " +
                     std::to_string(seen[std::size_t(p)].value) + " (tile " + std::to_string(p) + ")";
          }
          exclusive[k] = sum + exclusive[k];
          if (prefixLanes != 0) {
            tile.flag = TileFlag::Prefix;
            tile.value = exclusive[k] + total[k];
            tile.doing = "looked back: " + terms + " = " + std::to_string(exclusive[k]) + "; published P " +
                         std::to_string(tile.value);
            phase[k] = Phase::Scanning;
            ++prefixes;
          } else {
            window[k] -= lookback::kWindow;
            tile.doing = "no Prefix in the window: " + terms + "; it looks 32 tiles further back";
          }
        }
      } else if (phase[k] == Phase::Scanning) {
        std::uint32_t running = exclusive[k];
        const int first = b * tileItems, count = std::min(tileItems, t.n - first);
        for (int i = 0; i < count; ++i) {
          t.result[std::size_t(first + i)] = running;
          running += input[std::size_t(first + i)];
        }
        tile.done = true;
        tile.doing = "scanned its elements from its prefix " + std::to_string(exclusive[k]) + " and stored them";
        phase[k] = Phase::Done;
        ++stored;
      } else {
        continue;
      }
      step.acted.push_back(b);
    }
    if (step.acted.empty()) continue;
    std::ostringstream what;
    auto part = [&](int count, const char* one, const char* many) {
      if (count == 0) return;
      if (!what.str().empty()) what << "; ";
      what << count << " " << (count == 1 ? one : many);
    };
    part(published, "tile publishes its total", "tiles publish their totals");
    part(prefixes, "tile finds its prefix and publishes P", "tiles find their prefixes and publish P");
    part(waited, "tile waits on a predecessor", "tiles wait on predecessors");
    part(stored, "tile scans and stores its elements", "tiles scan and store their elements");
    step.what = what.str();
    step.tiles = tiles;
    t.steps.push_back(std::move(step));
  }
  return t;
}

std::string lookbackLessonText(const LookbackTrace& t) {
  std::ostringstream o;
  for (std::size_t k = 0; k < t.steps.size(); ++k) o << "  step " << k + 1 << " of " << t.steps.size() << ": " << t.steps[k].what << "\n";
  o << "satdof: lesson: decoupled-lookback, n = " << t.n << " in " << t.tiles << " tiles of " << t.tileItems << ": "
    << t.statusReads << " status words read, " << t.waits << " windows read again; each element read once and written "
    << "once (2n accesses; reduce-then-scan: 3n)\n";
  return o.str();
}

}  // namespace satdof::lesson
