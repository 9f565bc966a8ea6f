// Sampling::Auto's calibration: what each water surface Keel ships costs
// per query, as QueryCost defines it, in nanoseconds on one core of this
// machine. It ends by printing the rows of lib/src/water/query_costs.hpp,
// so a maintainer can paste them in (docs/performance.md, "Choosing the
// sampling"). Noisy: run with repetitions, the rows are then the medians:
//   build/float/tests/keel_bench_query_cost --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
//
// The queries, each at the real sea of the substep benchmarks (JONSWAP
// Hs 2 m, Tp 7 s; 64 components for the sums of waves, which the table
// gives per component):
// - height, velocity, heightAndVelocity: heights(), velocities(),
//   heightsAndVelocities() of 256 points under a 8 m x 3 m footprint, per
//   point;
// - gridNode: a boat's 7 x 7 patch of 1 m cells (the 972-triangle box's),
//   gridHeights() per node, or heights() at the nodes when the surface has
//   no grid query;
// - gridNodeVelocity: gridHeightsAndVelocities() at WaterPatch's six depths
//   less gridHeights(), per node and depth (0 when there is no such query).
// And, printed after the rows, a node's velocity at the surface alone (one
// depth), per node: what a boat's one water velocity from its patch costs,
// which the first depth dominates on the spectral ocean.
// The thread's CPU time; every call a substep (1/240 s) after the last,
// the grids with the patch's GridHistory, as a boat asks them.
#include "test_hulls.hpp"

#include <keel/height_grid.hpp>
#include <keel/spectral_ocean.hpp>
#include <keel/wake_field.hpp>
#include <keel/water_sampling.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cstdio>
#include <ctime>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace keel::test {
namespace {

constexpr std::size_t kFootprintSide = 16, kPointCount = kFootprintSide * kFootprintSide;
constexpr int kPatchSide = 7;
constexpr double kSubstep_s = 1.0 / 240;
constexpr int kCallsPerTiming = 32;  // so the clock's own cost is a small share

/// QueryCost's figures, in its order.
enum Query { kHeight, kGridNode, kVelocity, kHeightAndVelocity, kGridNodeVelocity, kGridNodeSurfaceVelocity, kQueries };
constexpr std::array<const char*, kQueries> kQueryNames = {
    "height", "gridNode", "velocity", "heightAndVelocity", "gridNodeVelocity", "gridNodeSurfaceVelocity"};

/// A surface of the table: its row's name and how many components its
/// figures are divided by.
struct Sea {
  const char* row;
  double components;
  std::shared_ptr<const WaterSurface> (*make)();
};

std::vector<WaveComponent> benchmarkSea() {
  return sampleSeaState(WaveSpectrum::jonswap(2.0, 7.0), {.meanDirection_rad = 0.3, .componentCount = 64, .seed = 5});
}

std::shared_ptr<const WaterSurface> sines() { return std::make_shared<SineSumSurface>(benchmarkSea()); }

std::shared_ptr<const WaterSurface> gerstner() {
  const auto components = benchmarkSea();
  return std::make_shared<GerstnerSurface>(
      components, GerstnerSettings{.steepness = std::min(1.0, 0.9 * gerstnerSteepnessLimit(components))});
}

std::shared_ptr<const WaterSurface> spectral(SpectralQuery query) {
  auto ocean = std::make_shared<SpectralOcean>(WaveSpectrum::jonswap(2.0, 7.0), SpectralOceanSettings{.query = query});
  // The longest window it takes; a query's cost does not depend on where
  // its time falls.
  ocean->update(0, ocean->longestUpdateWindow_s());
  return ocean;
}

std::shared_ptr<const WaterSurface> spectralFixedPoints() { return spectral(SpectralQuery::FixedPointTiles); }
std::shared_ptr<const WaterSurface> spectralParticleSolve() { return spectral(SpectralQuery::ParticleSolve); }

/// The sines' heights on a 64 m square of 0.5 m cells, two snapshots 0.1 s
/// apart: a game's ocean handed to Keel as heights, with a velocity.
std::shared_ptr<const WaterSurface> heightGrid() {
  const SineSumSurface sea(benchmarkSea());
  constexpr int kNodes = 129;
  auto grid = std::make_shared<HeightGridSurface>(HeightGridLayout{
      .originEast_m = 68, .originNorth_m = -72, .cellSize_m = 0.5, .nodesEast = kNodes, .nodesNorth = kNodes});
  std::vector<btScalar> u, v, h(std::size_t(kNodes * kNodes));
  for (std::size_t k = 0; k < h.size(); ++k) {
    u.push_back(btScalar(68 + 0.5 * double(k % kNodes)));
    v.push_back(btScalar(-72 + 0.5 * double(k / kNodes)));
  }
  for (const double t_s : {0.0, 0.1}) {
    sea.heights(u.data(), v.data(), h.size(), btScalar(t_s), h.data());
    grid->setHeights(h, t_s);
  }
  return grid;
}

/// A WakeField of two depth bands over flat water (its own share of each
/// query), 1 m cells around the probe: the patch's nodes are the field's,
/// as a boat's are with the default cells (0.5 m, both).
std::shared_ptr<const WaterSurface> wakeField() {
  auto field = std::make_shared<WakeField>(
      std::make_shared<FlatSurface>(),
      WakeFieldSettings{.size_m = 64, .cellSize_m = 1, .centreEast_m = 104, .centreNorth_m = -38, .depthBands = 2});
  field->update(0, 1);
  return field;
}

constexpr std::array<Sea, 6> kSeas = {Sea{"kSineSumPerComponent", 64, sines},
                                      Sea{"kGerstnerPerComponent", 64, gerstner},
                                      Sea{"kSpectralFixedPoints", 1, spectralFixedPoints},
                                      Sea{"kSpectralParticleSolve", 1, spectralParticleSolve},
                                      Sea{"kHeightGrid", 1, heightGrid},
                                      Sea{"kWakeFieldTwoBands", 1, wakeField}};

/// The points and the patch a boat asks, and the buffers for the answers.
struct Probe {
  std::vector<btScalar> u_m, v_m, w_m, h_m;
  std::vector<WaterVelocity> velocity;
  WaterGrid grid{.cellSize_m = 1, .originI = 101, .originJ = -42, .nodesU = kPatchSide, .nodesV = kPatchSide};
  std::vector<btScalar> nodeU_m, nodeV_m;
  std::array<double, WaterPatch::kVelocityLevels> depths_m{0, 0.5, 1, 2, 4, 8};
  GridHistory history, heightsHistory;  // the velocities' grid's, the heights'
  double t_s = 0.2;

  Probe() : h_m(kPointCount), velocity(kPointCount * WaterPatch::kVelocityLevels) {
    for (std::size_t k = 0; k < kPointCount; ++k) {
      const auto along = double(k / kFootprintSide) / double(kFootprintSide - 1);
      const auto across = double(k % kFootprintSide) / double(kFootprintSide - 1);
      u_m.push_back(btScalar(100 + 8 * along));
      v_m.push_back(btScalar(-40 + 3 * across));
      w_m.push_back(btScalar(-0.3 - across));
    }
    nodesOf(grid, nodeU_m, nodeV_m);
  }

  /// Heights of the patch's nodes, as WaterPatch asks them: the grid, or
  /// the grid with no velocities (and a history), or the points.
  void gridHeights(const WaterSurface& s) {
    const auto t = btScalar(t_s);
    if (s.gridHeights(grid, t, h_m.data())) return;
    if (s.gridHeightsAndVelocities(grid, {.depths_m = {}, .out = nullptr, .history = &heightsHistory}, t, h_m.data()))
      return;
    s.heights(nodeU_m.data(), nodeV_m.data(), nodeU_m.size(), t, h_m.data());
  }

  /// One call of `query`; false when the surface has no such query.
  bool ask(const WaterSurface& s, Query query) {
    const auto t = btScalar(t_s += kSubstep_s);
    switch (query) {
      case kHeight: s.heights(u_m.data(), v_m.data(), kPointCount, t, h_m.data()); return true;
      case kVelocity: s.velocities(u_m.data(), v_m.data(), w_m.data(), kPointCount, t, velocity.data()); return true;
      case kHeightAndVelocity:
        s.heightsAndVelocities(u_m.data(), v_m.data(), w_m.data(), kPointCount, t, h_m.data(), velocity.data());
        return true;
      case kGridNode: gridHeights(s); return true;
      default: {
        const std::size_t depths = query == kGridNodeSurfaceVelocity ? 1 : depths_m.size();
        return s.gridHeightsAndVelocities(
            grid, {.depths_m = std::span(depths_m.data(), depths), .out = velocity.data(), .history = &history}, t,
            h_m.data());
      }
    }
  }
};

/// This thread's CPU time [ns]: on a shared machine, not the time other
/// processes took the core.
double threadTime_ns() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) * 1e9 + double(now.tv_nsec);
}

/// CPU time of kCallsPerTiming calls of `call` [ns per call].
template <class Call>
double timed_ns(Call&& call) {
  const double start_ns = threadTime_ns();
  for (int i = 0; i < kCallsPerTiming; ++i) call();
  return (threadTime_ns() - start_ns) / kCallsPerTiming;
}

void queryCost(benchmark::State& state, const Sea& sea, Query query) {
  const auto surface = sea.make();
  Probe probe;
  bool answered = true;
  double total_ns = 0;
  for (auto _ : state) {
    total_ns += timed_ns([&] { answered = probe.ask(*surface, query); });
    // The grid's velocities are what they add to its heights.
    if (query >= kGridNodeVelocity && answered) total_ns -= timed_ns([&] { probe.gridHeights(*surface); });
    benchmark::DoNotOptimize(probe.h_m.data());
    benchmark::DoNotOptimize(probe.velocity.data());
  }
  const double nodes = double(kPatchSide * kPatchSide);
  const double units = query == kGridNodeVelocity ? nodes * double(WaterPatch::kVelocityLevels)
                       : query == kGridNode || query == kGridNodeSurfaceVelocity ? nodes
                                                                                 : double(kPointCount);
  const double perCall_ns = state.iterations() > 0 ? total_ns / double(state.iterations()) : 0;
  state.counters["ns"] = answered ? perCall_ns / units / sea.components : 0;
}

/// The console's report, keeping each benchmark's figure (the median when
/// there are repetitions) to print as the table's rows at the end.
class TableReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      const auto ns = run.counters.find("ns");
      if ((run.run_type == Run::RT_Iteration || median) && ns != run.counters.end())
        figures_[run.run_name.function_name] = ns->second.value;
    }
  }

  void printRows() const {
    std::printf("\n// keel_bench_query_cost: ns per point, node, or node and depth\n");
    for (const Sea& sea : kSeas) {
      std::printf("inline constexpr QueryCost %s{", sea.row);
      for (int q = 0; q < kQueries; ++q)
        std::printf("%s.%s_ns = %.3g", q == 0 ? "" : ", ", kQueryNames[std::size_t(q)], figure(sea, Query(q)));
      std::printf("};\n");
    }
  }

  [[nodiscard]] double figure(const Sea& sea, Query query) const {
    const auto it = figures_.find(nameOf(sea, query));
    return it == figures_.end() ? 0.0 : it->second;
  }

  static std::string nameOf(const Sea& sea, Query query) {
    return std::string("queryCost/") + sea.row + "/" + kQueryNames[std::size_t(query)];
  }

 private:
  std::map<std::string, double> figures_;
};

}  // namespace
}  // namespace keel::test

int main(int argc, char** argv) {
  using namespace keel::test;
  for (const Sea& sea : kSeas)
    for (int q = 0; q < kQueries; ++q)
      benchmark::RegisterBenchmark(TableReporter::nameOf(sea, Query(q)).c_str(), queryCost, sea, Query(q))
          ->Unit(benchmark::kMicrosecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  TableReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.printRows();
  benchmark::Shutdown();
  return 0;
}
