// The water patch's velocities on a sum of waves' grid and on the spectral
// ocean (docs/waves.md, "Grids"): against the surfaces' own velocities under
// a hull, the same bits in batches and through the boat's three stages, and
// the surface velocity a far boat reads within its interpolation bound
// (wave_grid_test.cpp: the grid's heights).
#include "grid_sea.hpp"
#include "hull/hull_access.hpp"
#include "kernels/buffers.hpp"
#include "kernels/heights.hpp"
#include "test_hulls.hpp"
#include "water/patch_sampler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

namespace keel::test {
namespace {

/// A patch's velocities against its surface's own, per component [m/s].
struct VelocityErrors {
  double worst_mps = 0, rms_mps = 0;
};

/// Where the velocity tests put their patch: under a hull of radius 5 m
/// about (13.2, -7.9) m, at t = 20 s.
struct UnderTheHull {
  double centreU_m = 13.2, centreV_m = -7.9, radius_m = 5;
  double t_s = 20;
};

/// The 64-component sea with a mean level and a current, as sines.
SineSumSurface sineSeaWithCurrent() { return SineSumSurface(jonswap64(), {.meanLevel_m = 0.1, .current = {0.3, 0.2}}); }

/// At 2,000 random points under the hull: the patch's velocity() at depths
/// 0 to 2 R below its surface against `sea`'s velocities(); or, `atSurface`,
/// at points of the cell under the hull's centre (the one whose corners the
/// patch samples then), its surfaceVelocity() against `sea`'s velocity
/// above the water (Wheeler stretching: the surface's own).
VelocityErrors patchVelocityErrors(const WaterPatch& patch, const WaterSurface& sea, const UnderTheHull& at,
                                   unsigned seed, bool atSurface = false) {
  const double centreU = at.centreU_m, centreV = at.centreV_m, radius = at.radius_m;
  const btScalar t = at.t_s;
  std::mt19937 random(seed);
  const double cell = double(patch.cellSize_m());
  std::uniform_real_distribution<double> along(-radius, radius), across(0, cell), down(0, 2 * radius);
  double worst = 0, squares = 0;
  const int points = 2000;
  for (int n = 0; n < points; ++n) {
    const double u = atSurface ? std::floor(centreU / cell) * cell + across(random) : centreU + along(random);
    const double v = atSurface ? std::floor(centreV / cell) * cell + across(random) : centreV + along(random);
    const btScalar surface = patch.height(u, v);
    const auto w = btScalar(double(surface) - down(random));
    const WaterVelocity p = atSurface ? patch.surfaceVelocity(u, v) : patch.velocity(u, v, w, surface);
    const WaterVelocity e = sea.velocity(btScalar(u), btScalar(v), atSurface ? btScalar(100) : w, t);
    for (const double d :
         {double(p.east_mps - e.east_mps), double(p.north_mps - e.north_mps), double(p.up_mps - e.up_mps)})
      worst = std::max(worst, std::abs(d)), squares += d * d;
  }
  return {worst, std::sqrt(squares / (3 * points))};
}

/// Velocities on the patch against velocity() at points under it, depths
/// 0 to 2 R: within the interpolation bound worked out from the components
/// (docs/waves.md, "Grids").
TEST(SineSumGrid, PatchVelocitiesMatchVelocityUnderTheHull) {
  const auto waves = jonswap64();
  const SineSumSurface sea = sineSeaWithCurrent();
  const UnderTheHull at;
  const double cell = 1;
  detail::PatchSampler patch;
  patch.configure(btScalar(cell), btScalar(at.radius_m));
  patch.sampleWithVelocities(sea, at.centreU_m, at.centreV_m, at.t_s);
  ASSERT_TRUE(patch.hasVelocities());
  const auto depths = patch.velocityDepths_m();
  // Bound per component of speed a omega: the cell's interpolation
  // (second derivatives a omega k^2, error M cell^2 / 4), the interpolated
  // surface's error (sum a k^2 cell^2 / 4) moving the depth, and the
  // linear interpolation in depth of e^{-k d} ((k span)^2 / 8 of its value
  // at the upper level).
  double surfaceError = 0;
  for (const WaveComponent& c : waves) surfaceError += c.amplitude_m * c.wavenumber_radpm * c.wavenumber_radpm;
  surfaceError *= cell * cell / 4;
  double bound = 0, speed = 0;
  for (const WaveComponent& c : waves) {
    const double k = c.wavenumber_radpm, a = c.amplitude_m * c.angularFrequency_radps;
    double depthError = 0;
    for (std::size_t m = 0; m + 1 < depths.size(); ++m) {
      const double span = k * (depths[m + 1] - depths[m]);
      depthError = std::max(depthError, span * span / 8 * std::exp(-k * depths[m]));
    }
    bound += a * (k * k * cell * cell / 4 + k * surfaceError + depthError);
    speed += a;
  }
  const auto [worst, rms] = patchVelocityErrors(patch, sea, at, 5);
  std::printf("[  figure  ] patch velocity: worst %.4f m/s, RMS %.4f m/s, bound %.4f m/s, sum of a omega %.3f m/s\n",
              worst, rms, bound, speed);
  EXPECT_LE(worst, bound);
  // The bound adds every component's worst case; the measured errors
  // (docs/waves.md, "Grids": worst 0.0289 m/s, RMS 0.0071 m/s) with a
  // margin catch a smaller loss of accuracy.
  EXPECT_LE(worst, 0.04);
  EXPECT_LE(rms, 0.01);
  EXPECT_GT(worst, 0);
}

TEST(SineSumGrid, PatchVelocitiesInBatchesAreTheSameBits) {
  // WaterPatch::velocities (SIMD, several points a time) against velocity()
  // at points in and beyond the patch, above the surface, at every depth
  // level and below the deepest, in batches of 1 to 37 (partial vectors).
  const SineSumSurface sea(jonswap64(), {.meanLevel_m = 0.1});
  detail::PatchSampler patch;
  patch.configure(1, 5);
  const double centreU = -41.3, centreV = 17.6;
  patch.sampleWithVelocities(sea, centreU, centreV, 8);
  ASSERT_TRUE(patch.hasVelocities());
  std::mt19937 random(11);
  std::uniform_real_distribution<double> along(-9, 9), down(-1, 12);
  std::vector<btScalar> u, v, w, surface;
  for (int n = 0; n < 37 * 38 / 2; ++n) {
    u.push_back(btScalar(centreU + along(random)));
    v.push_back(btScalar(centreV + along(random)));
    surface.push_back(patch.height(double(u.back()), double(v.back())));
    w.push_back(btScalar(double(surface.back()) - down(random)));
  }
  std::size_t first = 0, differing = 0;
  for (std::size_t batch = 1; batch <= 37; ++batch) {
    std::vector<WaterVelocity> out(batch);
    patch.velocities(&u[first], &v[first], &w[first], &surface[first], batch, out.data());
    for (std::size_t i = 0; i < batch; ++i) {
      const std::size_t k = first + i;
      const WaterVelocity one = patch.velocity(double(u[k]), double(v[k]), w[k], surface[k]);
      differing += one.east_mps != out[i].east_mps || one.north_mps != out[i].north_mps || one.up_mps != out[i].up_mps;
    }
    first += batch;
  }
  EXPECT_EQ(differing, 0u) << "of " << first << " points";
}

TEST(SineSumGrid, PatchVertexVelocitiesAreTheThreeStagesBits) {
  // detail::patchVertexVelocities (one pass over listed vertices) against
  // worldCoordinates, WaterPatch::velocities and velocitiesToBody, which
  // the substep ran before: a tilted hull far from the origin, its water
  // heights from the patch, lists of 1 to 19 vertices (partial vectors)
  // and of every vertex; the cells found again, or read from patchHeights
  // (then at the point of the cell it found, as the vertex's height).
  const SineSumSurface sea(jonswap64(), {.meanLevel_m = 0.1, .current = {0.3, 0.2}});
  const auto hull = hullOf(box(btVector3(4, 1.5f, 2), 5));
  const detail::HullSoA& soa = detail::soaOf(*hull);
  const BodyWaterAxes axes = bodyWaterAxes(btQuaternion(btVector3(1, 0.2f, 0.3f).normalized(), 0.4f));
  const btScalar *e = axes.east, *n = axes.north, *z = axes.up;
  const double centreEast = 12345.6, centreNorth = -789.25;
  const btScalar centreUp = 0.3f;
  detail::PatchSampler patch;
  patch.configure(1, hull->radius_m());
  patch.sampleWithVelocities(sea, centreEast, centreNorth, 17);
  ASSERT_TRUE(patch.hasVelocities());
  ASSERT_EQ(patch.cellSize_m(), 1);
  const std::size_t padded = soa.vertexPadded;
  std::vector<btScalar> water(padded), u(padded), v(padded), w(padded);
  detail::patchHeights(soa, patch, e, n, z, centreEast, centreNorth, centreUp, water.data());
  // The heights again with the vertices' cells and heights, which the one
  // pass then reads instead of finding them: the same water heights at the
  // vertices (the vectors of padding alone are written only with the
  // cells), and worldCoordinates' w.
  std::vector<btScalar> records(detail::PatchCells::kRecord * padded, -1), waterWithCells(padded);
  const detail::PatchCells cells{records.data()};
  detail::patchHeights(soa, patch, e, n, z, centreEast, centreNorth, centreUp, waterWithCells.data(), cells);
  EXPECT_EQ(std::memcmp(water.data(), waterWithCells.data(), soa.vertexCount * sizeof(btScalar)), 0);
  detail::worldCoordinates(soa, e, n, z, centreEast, centreNorth, centreUp, u.data(), v.data(), w.data());
  for (std::size_t i = 0; i < padded; ++i) {
    const btScalar recorded = cells.w(i);
    ASSERT_EQ(std::memcmp(&w[i], &recorded, sizeof w[i]), 0) << i;
  }
  std::size_t differing = 0, asked = 0;
  for (std::size_t trial = 0; trial < 4 * 20; ++trial) {
    // Lists of 1 to 19 vertices and of all: every third vertex from the
    // end, sorted; or, read in runs, consecutive ones from vertex 5, then
    // every third from the end (unsorted, as the crossing triangles'
    // corners follow the wet vertices).
    const std::size_t count = trial % 20 < 19 ? trial % 20 + 1 : soa.vertexCount;
    const bool runs = trial % 40 >= 20, withCells = trial >= 40;
    std::vector<std::uint32_t> listed;
    const std::size_t increasing = runs ? std::min<std::size_t>(count, soa.vertexCount - 5) : 0;
    for (std::size_t k = 0; k < increasing; ++k) listed.push_back(std::uint32_t(5 + k));
    for (std::size_t k = 0; listed.size() < count; ++k) {  // every third, then every one, from the end
      const std::size_t back = k < soa.vertexCount / 3 ? 3 * k : k - soa.vertexCount / 3;
      const auto i = std::uint32_t(soa.vertexCount - 1 - back);
      if (std::find(listed.begin(), listed.end(), i) == listed.end()) listed.push_back(i);
    }
    if (!runs) std::sort(listed.begin(), listed.end());
    const std::size_t m = listed.size();
    listed.resize(m + detail::kListedPad, listed[0]);
    // The stages as they were; with the cells, WaterPatch::velocity at the
    // point in the cell that patchHeights found (exact in double with 1 m
    // cells), which is the vertex's (worldCoordinates rounds it to float).
    std::vector<btScalar> qu(m), qv(m), qw(m), qs(m);
    for (std::size_t k = 0; k < m; ++k)
      qu[k] = u[listed[k]], qv[k] = v[listed[k]], qw[k] = w[listed[k]], qs[k] = water[listed[k]];
    std::vector<WaterVelocity> out(m + detail::kListedPad);
    if (withCells)
      for (std::size_t k = 0; k < m; ++k) {
        const std::size_t i = listed[k];
        const auto side = detail::ScalarIndex(patch.samplesPerSide());
        const double cu = double(patch.originI() + cells.node(i) % side) + double(cells.a(i));
        const double cv = double(patch.originJ() + cells.node(i) / side) + double(cells.b(i));
        EXPECT_NEAR(cu, double(qu[k]), 2e-3) << i;  // float's step at 12 km: 1e-3 m
        EXPECT_NEAR(cv, double(qv[k]), 2e-3) << i;
        out[k] = patch.velocity(cu, cv, qw[k], qs[k]);
      }
    else
      patch.velocities(qu.data(), qv.data(), qw.data(), qs.data(), m, out.data());
    // velocitiesToBody in query order (no list), then by the list: the same.
    std::vector<btScalar> inOrder(4 * (m + detail::kListedPad)), byList(4 * padded, -1), fused(4 * padded, -1);
    EXPECT_EQ(detail::velocitiesToBody(out.data(), m, e, n, z, inOrder.data()), 0u);
    EXPECT_EQ(detail::velocitiesToBody(out.data(), m, e, n, z, byList.data(), listed.data()), 0u);
    // One pass.
    const detail::VertexVelocityQuery query{&soa,
                                            e,
                                            n,
                                            z,
                                            centreEast,
                                            centreNorth,
                                            centreUp,
                                            water.data(),
                                            listed.data(),
                                            increasing,
                                            withCells ? cells : detail::PatchCells{}};
    EXPECT_EQ(detail::patchVertexVelocities(patch, query, m, fused.data()), 0u);
    for (std::size_t k = 0; k < m; ++k) {
      const std::size_t i = listed[k];
      differing += std::memcmp(&fused[4 * i], &inOrder[4 * k], 4 * sizeof(btScalar)) != 0 ||
                   std::memcmp(&byList[4 * i], &inOrder[4 * k], 4 * sizeof(btScalar)) != 0;
      EXPECT_EQ(fused[4 * i + 3], 0);
      std::fill_n(&fused[4 * i], 4, btScalar(-1));
    }
    // Nothing stored at the vertices not listed.
    EXPECT_EQ(std::count(fused.begin(), fused.end(), btScalar(-1)), std::ptrdiff_t(4 * padded)) << count;
    asked += m;
  }
  EXPECT_EQ(differing, 0u) << "of " << asked << " vertices";
}

/// The patch's velocities against the surface's own velocities() at the
/// same points, depths 0 to 2 R, for a 10 m hull with 1 m cells: on the
/// 64-component sea (the bound above) and on the spectral ocean (Hs 2 m, Tp
/// 7 s, its defaults), whose direct query interpolates the same tiles. The
/// spectral ocean's bands give no per-component bound: the limits are the
/// measured errors with a margin (docs/waves.md, "Grids": worst 0.0072
/// m/s, RMS 0.0017 m/s), far below any misplaced level or corner.
TEST(SpectralGrid, PatchVelocitiesMatchVelocityUnderTheHull) {
  SpectralOcean ocean(WaveSpectrum::jonswap(2.0, 7.0));
  const UnderTheHull at;
  ocean.update(double(at.t_s) - 0.01, double(at.t_s) + 0.01);
  detail::PatchSampler patch;
  patch.configure(1, btScalar(at.radius_m));
  patch.sampleWithVelocities(ocean, at.centreU_m, at.centreV_m, at.t_s);
  ASSERT_TRUE(patch.hasVelocities());
  const auto [worst, rms] = patchVelocityErrors(patch, ocean, at, 5);
  std::printf("[  figure  ] spectral patch velocity: worst %.4f m/s, RMS %.4f m/s\n", worst, rms);
  EXPECT_LE(worst, 0.012);
  EXPECT_LE(rms, 0.003);
  EXPECT_GT(worst, 0);
}

/// The patch's surface velocity (the one water velocity under a far boat)
/// against the surface's at random points of the cell under the boat's
/// centre, within the interpolation bound M cell^2 / 4 of the cell's
/// triangles (cell_interpolation.hpp), M = sum a omega k^2 the surface
/// velocity's largest second derivative (a sum of waves: each component's
/// a omega cos or sin of k d.x); outside the cell it holds the cell's edge.
TEST(WaterPatch, SurfaceVelocityInterpolatesTheSurfaceVelocityWithinItsBound) {
  const auto waves = jonswap64();
  const SineSumSurface sea = sineSeaWithCurrent();
  const UnderTheHull at;
  const double cell = 1.5;
  detail::PatchSampler patch;
  patch.configure(btScalar(cell), btScalar(at.radius_m));
  patch.sampleWithSurfaceVelocities(sea, at.centreU_m, at.centreV_m, at.t_s);
  ASSERT_TRUE(patch.hasSurfaceVelocities());
  EXPECT_FALSE(patch.hasVelocities());
  double curvature = 0, speed = 0;
  for (const WaveComponent& c : waves) {
    curvature += c.amplitude_m * c.angularFrequency_radps * c.wavenumber_radpm * c.wavenumber_radpm;
    speed += c.amplitude_m * c.angularFrequency_radps;
  }
  const double bound = curvature * cell * cell / 4 + 4 * double(std::numeric_limits<btScalar>::epsilon()) * speed;
  const double worst = patchVelocityErrors(patch, sea, at, 7, true).worst_mps;
  std::printf("[  figure  ] patch surface velocity: worst %.4f m/s, bound %.4f m/s, sum of a omega %.3f m/s\n", worst,
              bound, speed);
  EXPECT_LE(worst, bound);
  EXPECT_GT(worst, 0);
  // Beyond the cell, the nearest point of its edge.
  const double cell_m = double(patch.cellSize_m()), edgeU_m = (std::floor(at.centreU_m / cell_m) + 1) * cell_m;
  const WaterVelocity beyond = patch.surfaceVelocity(edgeU_m + 2 * cell_m, at.centreV_m);
  const WaterVelocity edge = patch.surfaceVelocity(edgeU_m, at.centreV_m);
  EXPECT_EQ(beyond.east_mps, edge.east_mps);
  EXPECT_EQ(beyond.north_mps, edge.north_mps);
  EXPECT_EQ(beyond.up_mps, edge.up_mps);
  // A surface without a grid query: heights only, and the boat asks the
  // surface for its one point.
  const FunctionSurface still([](btScalar, btScalar, double) { return btScalar(0.25); });
  patch.sampleWithSurfaceVelocities(still, at.centreU_m, at.centreV_m, at.t_s);
  EXPECT_FALSE(patch.hasSurfaceVelocities());
  EXPECT_EQ(patch.height(at.centreU_m, at.centreV_m), btScalar(0.25));
}

}  // namespace
}  // namespace keel::test
