// The batch wave queries alone (docs/waves.md, "Batches"): GerstnerSurface
// heights, velocities, and both at once (heightsAndVelocities) for 256
// points of a 6-component sea, the hull of one boat of the fleet benchmark;
// the same for 64 components and for the spectral ocean, and its update().
// Run:
//   build/tests/keel_bench_waves --benchmark_min_time=1 --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
// or count instructions per call (repeatable on a noisy machine):
//   valgrind --tool=callgrind --callgrind-out-file=cg.out build/tests/keel_bench_waves
//   --benchmark_min_time=0.05
//   callgrind_annotate --inclusive=yes cg.out | grep GerstnerSurface
// benchmark_waves_grids.cpp times the grid queries (a boat's water patch),
// benchmark_waves_ocean.cpp the spectral ocean's update() and a height
// grid's publish(); one executable, keel_bench_waves, runs them all.
#include "wave_bench_seas.hpp"

#include <keel/spectral_ocean.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace keel::test {
namespace {

/// Times `surface`'s heights() at the Points.
template <class Surface>
void timeHeights(benchmark::State& state, const Surface& surface) {
  const Points p;
  std::vector<btScalar> h(kPoints);
  for (auto _ : state) {
    surface.heights(p.u_m.data(), p.v_m.data(), kPoints, kTime_s, h.data());
    benchmark::DoNotOptimize(h.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

/// Times `surface`'s heightsAndVelocities() at the Points.
template <class Surface>
void timeHeightsAndVelocities(benchmark::State& state, const Surface& surface) {
  const Points p;
  std::vector<btScalar> h(kPoints);
  std::vector<WaterVelocity> v(kPoints);
  for (auto _ : state) {
    surface.heightsAndVelocities(p.u_m.data(), p.v_m.data(), p.w_m.data(), kPoints, kTime_s, h.data(), v.data());
    benchmark::DoNotOptimize(h.data());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

void gerstnerHeights(benchmark::State& state) { timeHeights(state, *sea()); }

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
void gerstnerHeightsAndVelocities(benchmark::State& state) { timeHeightsAndVelocities(state, *sea()); }

// The spectral ocean (docs/waves.md, "Spectral ocean") on the same sea, 128
// nodes, against a Gerstner sea of 64 components (sampleSeaState's default):
// per-point cost of the queries (benchmark_waves_ocean.cpp times update()).

void gerstner64Heights(benchmark::State& state) { timeHeights(state, *sea64()); }

void gerstner64HeightsAndVelocities(benchmark::State& state) { timeHeightsAndVelocities(state, *sea64()); }

void spectralHeights(benchmark::State& state) { timeHeights(state, *spectralSea(state)); }

void spectralHeightsAndVelocities(benchmark::State& state) { timeHeightsAndVelocities(state, *spectralSea(state)); }

void spectralAccelerations(benchmark::State& state) {
  const auto ocean = spectralSea(state);
  const Points p;
  std::vector<WaterAcceleration> a(kPoints);
  for (auto _ : state) {
    ocean->accelerations(p.u_m.data(), p.v_m.data(), p.w_m.data(), kPoints, kTime_s, a.data());
    benchmark::DoNotOptimize(a.data());
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(kPoints));
}

BENCHMARK(gerstnerHeights)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstnerVelocities)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstnerHeightsAndVelocities)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstner64Heights)->Unit(benchmark::kMicrosecond);
BENCHMARK(gerstner64HeightsAndVelocities)->Unit(benchmark::kMicrosecond);
BENCHMARK(spectralHeights)->ArgName("mode")->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);
BENCHMARK(spectralHeightsAndVelocities)->ArgName("mode")->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);
BENCHMARK(spectralAccelerations)->ArgName("mode")->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace keel::test

BENCHMARK_MAIN();
