#pragma once
// The seas and points the wave benchmarks share (benchmark_waves*.cpp): the
// fleet benchmark's sea as Gerstner waves and as a spectral ocean, a
// 64-component Gerstner sea, and the vertices of one hull's footprint.
#include "test_hulls.hpp"

#include <keel/spectral_ocean.hpp>

#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace keel::test {

inline constexpr std::size_t kPoints = 256;
/// Every call asks for the same instant, so each does the same work and
/// instruction counts per call are exact.
inline constexpr btScalar kTime_s = btScalar(12.5);

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
inline std::shared_ptr<const GerstnerSurface> sea() { return gerstnerSea(1.5, 6.0, 6, 5, 0.7); }

/// JONSWAP Hs 1.5 m, Tp 6 s, 64 components, Gerstner at 0.7 of its fold limit.
inline std::shared_ptr<const GerstnerSurface> sea64() { return gerstnerSea(1.5, 6.0, 64, 5, 0.7); }

/// The fleet benchmark's sea as a spectral ocean; arg 0 bicubic, 1 bilinear,
/// 2 and 3 the same with SpectralQuery::ParticleSolve (a Newton solve per
/// point, as before the fixed-point tiles).
inline std::unique_ptr<SpectralOcean> spectralSea(const benchmark::State& state, int nodes = 128) {
  auto ocean = std::make_unique<SpectralOcean>(
      WaveSpectrum::jonswap(1.5, 6.0),
      SpectralOceanSettings{
          .nodesPerSide = nodes,
          .interpolation = state.range(0) % 2 == 1 ? SpectralInterpolation::Bilinear : SpectralInterpolation::Bicubic,
          .query = state.range(0) >= 2 ? SpectralQuery::ParticleSolve : SpectralQuery::FixedPointTiles,
          .seed = 5});
  ocean->update(double(kTime_s) - 0.01, double(kTime_s) + 0.01);
  return ocean;
}

}  // namespace keel::test
