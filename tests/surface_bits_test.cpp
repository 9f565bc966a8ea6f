// Every shipped surface gives the same bits on every instruction set
// Highway compiled in and on every x86 CPU: heights, velocities, pressure
// heads at depth, grids with and without history, and the spectral ocean's
// tiles, hashed per instruction set. Each hash must equal the first and the
// constant recorded below for the precision. ctest runs this test again as
// a CPU without FMA (glibc's FMA variants of sin, cos, exp, pow and log
// switched off: surface_bits_without_fma in tests/CMakeLists.txt), which
// must give the same constant (docs/determinism.md).
#include <keel/spectral_ocean.hpp>
#include <keel/surface_authoring.hpp>
#include <keel/waves.hpp>

#include "bit_hash.hpp"
#include "water/spectral_detail.hpp"
#include "water/wave_detail.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

namespace keel::test {
namespace {

/// Points scattered over a few hundred metres, far ones too, and heights
/// from above the waves to 20 m below.
struct Points {
  std::vector<btScalar> u, v, w;
  Points() {
    for (int i = 0; i < 97; ++i) {
      const double a = 0.7 * i, r = 3.0 * i + (i % 7 == 0 ? 5e4 : 0);
      u.push_back(btScalar(r * std::cos(a))), v.push_back(btScalar(r * std::sin(a)));
      w.push_back(btScalar(2.0 - 0.23 * i));
    }
  }
  [[nodiscard]] std::size_t size() const { return u.size(); }
};

/// Every query of `s` at time t [s], hashed into `h`.
void hashQueries(const WaterSurface& s, double t_s, Fnv1a& h) {
  const Points p;
  const std::size_t n = p.size();
  std::vector<btScalar> heights(n), heads(n);
  std::vector<WaterVelocity> velocities(n);
  s.heights(p.u.data(), p.v.data(), n, t_s, heights.data());
  h.addAll(heights);
  s.velocities(p.u.data(), p.v.data(), p.w.data(), n, t_s, velocities.data());
  h.addAll(velocities);
  s.heightsAndVelocities(p.u.data(), p.v.data(), p.w.data(), n, t_s, heights.data(), velocities.data());
  h.addAll(heights), h.addAll(velocities);
  s.pressureHeads(p.u.data(), p.v.data(), p.w.data(), n, t_s, heads.data());
  h.addAll(heads);
  for (std::size_t i = 0; i < n; i += 10)
    h.add(s.height(p.u[i], p.v[i], t_s)), h.add(s.velocity(p.u[i], p.v[i], p.w[i], t_s));
  // A patch's grid, then the same grid a substep later from its history.
  const WaterGrid grid{0.75, -13, 40, 23, 17};
  const auto nodes = std::size_t(grid.nodesU) * std::size_t(grid.nodesV);
  std::vector<btScalar> gridHeights(nodes);
  if (s.gridHeights(grid, t_s, gridHeights.data())) h.addAll(gridHeights);
  const std::vector<double> depths = {0.0, 0.5, 3.0};
  std::vector<WaterVelocity> gridVelocities(nodes * depths.size());
  GridHistory history;
  for (const double t : {t_s, t_s + 1.0 / 240}) {
    const GridVelocities asked{depths, gridVelocities.data(), &history};
    if (s.gridHeightsAndVelocities(grid, asked, t, gridHeights.data())) h.addAll(gridHeights), h.addAll(gridVelocities);
  }
}

std::vector<WaveComponent> sea() {
  SeaStateSettings s;
  s.componentCount = 40;
  s.seed = 11;
  return sampleSeaState(WaveSpectrum::jonswap(2.0, 7.0), s);
}

/// Numbers in double before they are rounded to a surface's btScalar
/// answers, where a libm's last bit shows in float builds too: the scalar
/// pressure head and the spectral ocean's drawn waves.
void hashDoubles(Fnv1a& h) {
  const std::vector<WaveComponent> waves = sea();
  // Enough points that some of glibc's results differ between its variants
  // (about 7 in 10,000 of sin, cos, exp and expm1's do).
  for (int i = 0; i < 2000; ++i)
    h.add(detail::airyPressureHead_m(waves, 0.3, -0.01 * i, 0.7 * i, -0.3 * i, 1234.5 + 0.1 * i, {0.4, -0.3}));
  const detail::SpectralWaves drawn = detail::drawSpectralWaves(
      WaveSpectrum::jonswap(2.0, 7.0), {.tileSize_m = 150, .nodesPerSide = 64, .velocityBands = 2, .seed = 5});
  h.addAll(drawn.amplitude_m), h.addAll(drawn.angularFrequency_radps), h.addAll(drawn.bandWavenumber_radpm);
}

/// The hash of every surface's queries, and of the spectral ocean's tiles.
std::uint64_t surfacesHash() {
  Fnv1a h;
  hashDoubles(h);
  const UniformCurrent current{0.4, -0.3};
  const double t = 1234.5;
  hashQueries(FlatSurface(0.5, current), t, h);
  hashQueries(SineSumSurface(sea(), {0.1, current}), t, h);
  GerstnerSettings g;
  g.current = current;
  g.steepness = std::min(0.8, 0.9 * gerstnerSteepnessLimit(sea()));
  hashQueries(GerstnerSurface(sea(), g), t, h);
  for (const SpectralQuery query : {SpectralQuery::FixedPointTiles, SpectralQuery::ParticleSolve}) {
    SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0),
                        {.nodesPerSide = 32, .velocityBands = 2, .query = query, .seed = 5});
    ocean.update(t, t + 1.0 / 60);
    h.addAll(detail::elevationTile_m(ocean));
    hashQueries(ocean, t + 1.0 / 120, h);
  }
  return h.hash;
}

#if defined(BT_USE_DOUBLE_PRECISION)
constexpr std::uint64_t kRecorded = 0xc1b8fbba27a96e8bull;
#else
constexpr std::uint64_t kRecorded = 0xd4f9b46e11831942ull;
#endif

TEST(SurfaceBits, AreTheSameOnEveryInstructionSetAndCpu) {
  std::uint64_t first = 0;
  bool haveFirst = false;
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);  // the next dispatch chooses `target`
    const std::uint64_t hash = surfacesHash();
    std::printf("[  hash    ] %s: 0x%016" PRIx64 "\n", hwy::TargetName(target), hash);
    if (!haveFirst) first = hash, haveFirst = true;
    EXPECT_EQ(hash, first) << hwy::TargetName(target) << " differs from the first instruction set";
    EXPECT_EQ(hash, kRecorded) << hwy::TargetName(target) << " differs from the recorded constant";
  }
  hwy::SetSupportedTargetsForTest(0);
}

}  // namespace
}  // namespace keel::test
