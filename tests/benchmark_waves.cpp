// The batch wave queries alone (docs/waves.md, "Batches"): GerstnerSurface
// heights, velocities, and both at once (heightsAndVelocities) for 256
// points of a 6-component sea, the hull of one boat of the fleet benchmark.
// Run:
//   build/tests/keel_bench_waves --benchmark_min_time=1 --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
// or count instructions per call (repeatable on a noisy machine):
//   valgrind --tool=callgrind --callgrind-out-file=cg.out build/tests/keel_bench_waves
//   --benchmark_min_time=0.05
//   callgrind_annotate --inclusive=yes cg.out | grep GerstnerSurface
#include "test_hulls.hpp"

#include <benchmark/benchmark.h>

#include <vector>

namespace keel::test {
namespace {

constexpr std::size_t kPoints = 256;
/// Every call asks for the same instant, so each does the same work and
/// instruction counts per call are exact.
constexpr btScalar kTime_s = btScalar(12.5);

/// Vertices of a 10 m x 4 m hull footprint: a 16 x 16 grid, 0.5 m to 1.5 m
/// deep, 100 m from the origin (phases of tens of radians, as in a harbour).
struct Points {
  std::vector<btScalar> u_m, v_m, w_m;
  Points() {
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t j = 0; j < 16; ++j) {
        u_m.push_back(btScalar(100 + 10.0 * double(i) / 15));
        v_m.push_back(btScalar(-40 + 4.0 * double(j) / 15));
        w_m.push_back(btScalar(-0.5 - double(j) / 15));
      }
  }
};

/// The fleet benchmark's sea: JONSWAP Hs 1.5 m, Tp 6 s, 6 components.
std::shared_ptr<const GerstnerSurface> sea() { return gerstnerSea(1.5, 6.0, 6, 5, 0.7); }

void gerstnerHeights(benchmark::State& state) {
  const auto surface = sea();
  const Points p;
  std::vector<btScalar> h(kPoints);
  for (auto _ : state) {
    surface->heights(p.u_m.data(), p.v_m.data(), kPoints, kTime_s, h.data());
    benchmark::DoNotOptimize(h.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

void gerstnerVelocities(benchmark::State& state) {
  const auto surface = sea();
  const Points p;
  std::vector<WaterVelocity> v(kPoints);
  for (auto _ : state) {
    surface->velocities(p.u_m.data(), p.v_m.data(), p.w_m.data(), kPoints, kTime_s, v.data());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

/// One solve per point for both, against gerstnerHeights + gerstnerVelocities.
void gerstnerHeightsAndVelocities(benchmark::State& state) {
  const auto surface = sea();
  const Points p;
  std::vector<btScalar> h(kPoints);
  std::vector<WaterVelocity> v(kPoints);
  for (auto _ : state) {
    surface->heightsAndVelocities(p.u_m.data(), p.v_m.data(), p.w_m.data(), kPoints, kTime_s, h.data(), v.data());
    benchmark::DoNotOptimize(h.data());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

BENCHMARK(gerstnerHeights)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstnerVelocities)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstnerHeightsAndVelocities)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace keel::test

BENCHMARK_MAIN();
