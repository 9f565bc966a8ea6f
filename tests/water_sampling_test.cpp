// Water sampling (docs/model.md §1, "Water sampling"): the world-snapped
// patch, direct per-vertex queries, batch calls, and the water frame.
#include "hull/hull_access.hpp"
#include "kernels/heights.hpp"
#include "reference.hpp"
#include "test_hulls.hpp"
#include "water/patch_sampler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <vector>

namespace keel::test {
using namespace keel::reference;  // the scalar oracle
namespace {

class Swell final : public WaterSurface {
 public:
  btScalar height(btScalar u, btScalar v, double t) const override {
    return btScalar(0.4 * std::sin(0.3 * u + 0.5 * t) + 0.2 * std::cos(0.25 * v - 0.2 * u));
  }
};

class Plane final : public WaterSurface {
 public:
  btScalar height(btScalar u, btScalar v, double) const override { return btScalar(0.5 + 0.1 * u - 0.05 * v); }
};

/// Counts batch calls and points, to prove one batch query per substep.
class CountingSurface final : public WaterSurface {
 public:
  btScalar height(btScalar, btScalar, double) const override { return 0; }
  void heights(const btScalar* u, const btScalar* v, std::size_t n, double t, btScalar* out) const override {
    ++calls;
    points += n;
    WaterSurface::heights(u, v, n, t, out);
  }
  mutable std::atomic<int> calls{0};
  mutable std::atomic<std::size_t> points{0};
};

TEST(WaterFrame, YUpZUpAndTilted) {
  WaterFrame f;
  ASSERT_TRUE(WaterFrame::fromGravity(btVector3(0, -9.81f, 0), f));
  EXPECT_EQ(f.up, btVector3(0, 1, 0));
  EXPECT_EQ(f.east, btVector3(1, 0, 0));
  EXPECT_EQ(f.north, btVector3(0, 0, 1));
  ASSERT_TRUE(WaterFrame::fromGravity(btVector3(0, 0, -9.81f), f));
  EXPECT_EQ(f.up, btVector3(0, 0, 1));
  EXPECT_EQ(f.east, btVector3(1, 0, 0));
  EXPECT_EQ(f.north, btVector3(0, 1, 0));
  ASSERT_TRUE(WaterFrame::fromGravity(btVector3(1, -9, 2), f));
  EXPECT_NEAR(f.up.dot(f.east), 0, 1e-6);
  EXPECT_NEAR(f.up.dot(f.north), 0, 1e-6);
  EXPECT_NEAR(f.east.dot(f.north), 0, 1e-6);
  EXPECT_NEAR(f.east.length(), 1, 1e-6);
  WaterFrame untouched;
  EXPECT_FALSE(WaterFrame::fromGravity(btVector3(0, 0, 0), untouched));
  EXPECT_FALSE(WaterFrame::fromGravity(btVector3(0, std::numeric_limits<btScalar>::infinity(), 0), untouched));
  EXPECT_EQ(untouched.up, btVector3(0, 1, 0));
}

TEST(WaterPatch, NodesAreWorldMultiplesOfTheCellAndDoNotSwim) {
  detail::PatchSampler patch;
  patch.configure(0.5f, 3.0f);
  Swell swell;
  patch.sample(swell, 10.1, -4.3, 0);
  const auto i0 = patch.originI(), j0 = patch.originJ();
  const std::vector<btScalar> first(patch.samples_m().begin(), patch.samples_m().end());
  // Move by less than a cell: the same world nodes, the same samples.
  patch.sample(swell, 10.1 + 0.01, -4.3 + 0.02, 0);
  ASSERT_EQ(patch.originI(), i0);
  ASSERT_EQ(patch.originJ(), j0);
  EXPECT_EQ(std::vector<btScalar>(patch.samples_m().begin(), patch.samples_m().end()), first);
  // Move by exactly one cell: the grid shifts by one row, sharing the rest.
  patch.sample(swell, 10.1 + 0.5, -4.3, 0);
  EXPECT_EQ(patch.originI(), i0 + 1);
  const int n = patch.samplesPerSide();
  for (int j = 0; j < n; ++j)
    for (int i = 0; i + 1 < n; ++i)
      EXPECT_EQ(patch.samples_m()[std::size_t(j * n + i)], first[std::size_t(j * n + i + 1)]);
}

TEST(WaterPatch, InterpolatesPlanesExactlyAndCurvesToSecondOrder) {
  Plane plane;
  Swell swell;
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> offset(-2.9, 2.9);
  double previousError = 0;
  for (btScalar cell : {0.4f, 0.2f, 0.1f}) {
    detail::PatchSampler patch;
    patch.configure(cell, 3.0f);
    patch.sample(plane, 1.0, 2.0, 0);
    double worst = 0;
    for (int k = 0; k < 200; ++k) {
      const double u = 1.0 + offset(rng), v = 2.0 + offset(rng);
      EXPECT_NEAR(patch.height(u, v), plane.height(btScalar(u), btScalar(v), 0), 2e-6);
    }
    patch.sample(swell, 1.0, 2.0, 0);
    for (int k = 0; k < 200; ++k) {
      const double u = 1.0 + offset(rng), v = 2.0 + offset(rng);
      worst = std::max(worst, double(std::abs(patch.height(u, v) - swell.height(btScalar(u), btScalar(v), 0))));
    }
    // Linear interpolation on a triangle errs by at most M R^2 / 2, with M
    // the largest second derivative (0.4 * 0.3^2 + 0.2 * (0.25^2 + 0.2^2) <
    // 0.06 here) and R the circumradius (cell / sqrt(2) for these triangles).
    EXPECT_LT(worst, 0.06 * double(cell * cell) / 4);
    if (previousError > 0) {
      EXPECT_LT(worst, previousError / 2.5);  // halving the cell quarters the error
    }
    previousError = worst;
  }
}

TEST(WaterPatch, VertexHeightsAreItsHeightsToRounding) {
  // detail::patchHeights (the fast path's per-vertex heights) against
  // WaterPatch::height at each vertex's position computed in double: a
  // tilted hull 12 km from the origin, on the 3-wave swell, cells of 1 and
  // 0.7 m. The kernel places a vertex in cells with two roundings, three
  // products and two sums, each erring by at most u (unit roundoff) times
  // the terms it adds, which span `reach` cells: the patch's side in float
  // (relative to the patch), and the distance from the origin too in
  // double (world coordinates). That moves the height by at most 2 x 4 u
  // reach times the largest step between neighbouring samples; the
  // interpolation's five roundings and the reference's own add at most
  // 5 u max|h| (Higham 2002, section 3.1).
  const auto sea = std::make_shared<SineSumSurface>(std::vector<WaveComponent>{
      deepWaterWave(0.3, 25, 0.0, 0.0), deepWaterWave(0.2, 12, 0.7, 1.0), deepWaterWave(0.05, 4, -0.4, 2.0)});
  const auto hull = hullOf(box(btVector3(4, 1.5f, 2), 5));
  const detail::HullSoA& soa = detail::soaOf(*hull);
  const BodyWaterAxes axes = bodyWaterAxes(btQuaternion(btVector3(1, 0.2f, 0.3f).normalized(), 0.4f));
  const btScalar *e = axes.east, *n = axes.north, *z = axes.up;
  const double centreEast = 12345.6, centreNorth = -789.25, u = std::numeric_limits<btScalar>::epsilon() / 2;
  for (const btScalar cell : {1.0f, 0.7f}) {
    detail::PatchSampler patch;
    patch.configure(cell, hull->radius_m());
    patch.sample(*sea, centreEast, centreNorth, 3);
    const std::span<const btScalar> h = patch.samples_m();
    const auto side = std::size_t(patch.samplesPerSide());
    double largest = 0, step = 0;
    for (std::size_t k = 0; k < h.size(); ++k) {
      largest = std::max(largest, double(std::abs(h[k])));
      if (k % side + 1 < side) step = std::max(step, double(std::abs(h[k + 1] - h[k])));
      if (k + side < h.size()) step = std::max(step, double(std::abs(h[k + side] - h[k])));
    }
    std::vector<btScalar> water(soa.vertexPadded);
    detail::patchHeights(soa, patch, e, n, z, centreEast, centreNorth, 0.3f, water.data());
    double worst = 0;
    for (std::size_t i = 0; i < soa.vertexCount; ++i) {
      const double p[3] = {double(soa.x[i]), double(soa.y[i]), double(soa.z[i])};
      const double atU = centreEast + p[0] * double(e[0]) + p[1] * double(e[1]) + p[2] * double(e[2]);
      const double atV = centreNorth + p[0] * double(n[0]) + p[1] * double(n[1]) + p[2] * double(n[2]);
      worst = std::max(worst, std::abs(double(water[i]) - double(patch.height(atU, atV))));
    }
    const double reach = double(side) + (sizeof(btScalar) == 8 ? std::abs(centreEast) / double(cell) : 0.0);
    const double bound = u * (5 * largest + 8 * reach * step);
    std::printf("[  figure  ] patch heights at the vertices, %.1f m cells: worst %.2e m, bound %.2e m\n", double(cell),
                worst, bound);
    EXPECT_LE(worst, bound);
  }
}

TEST(WaterPatch, CoversTheHullInEveryOrientationAndPosition) {
  const auto hull = hullOf(boatHull(12, 4, 3));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> pos(-1e4, 1e4);
  std::normal_distribution<double> n;
  for (btScalar cell : {0.05f, 0.37f, 2.0f, 50.0f}) {
    detail::PatchSampler patch;
    patch.configure(cell, hull->radius_m());
    for (int trial = 0; trial < 50; ++trial) {
      const btQuaternion q =
          btQuaternion(btScalar(n(rng)), btScalar(n(rng)), btScalar(n(rng)), btScalar(n(rng))).normalized();
      const btVector3 c(btScalar(pos(rng)), 0, btScalar(pos(rng)));
      patch.sample(Plane(), double(c.x()), double(c.z()), 0);
      for (const auto& v : hull->vertices()) {
        const btVector3 p = c + quatRotate(q, v);
        const double fu = double(p.x()) / double(cell) - double(patch.originI());
        const double fv = double(p.z()) / double(cell) - double(patch.originJ());
        ASSERT_GE(fu, 0);
        ASSERT_GE(fv, 0);
        ASSERT_LE(fu, patch.samplesPerSide() - 1);
        ASSERT_LE(fv, patch.samplesPerSide() - 1);
      }
    }
  }
}

TEST(WaterPatch, RejectsBadConfiguration) {
  detail::PatchSampler patch;
  EXPECT_THROW(patch.configure(0, 1), std::invalid_argument);
  EXPECT_THROW(patch.configure(-1, 1), std::invalid_argument);
  EXPECT_THROW(patch.configure(std::numeric_limits<btScalar>::quiet_NaN(), 1), std::invalid_argument);
  EXPECT_THROW(patch.configure(0.001f, 1000), std::invalid_argument);
}

TEST(Sampling, DirectIsOneBatchCallAndExact) {
  const auto hull = hullOf(icosphere(1, 2));
  CountingSurface counting;
  std::vector<btVector3> r(hull->vertices().begin(), hull->vertices().end());
  std::vector<btScalar> u(r.size()), v(r.size()), h(r.size());
  EXPECT_EQ(reference::sampleDirect(counting, WaterFrame{}, btVector3(1, 2, 3), r, 0, u, v, h), 0u);
  EXPECT_EQ(counting.calls.load(), 1);
  EXPECT_EQ(counting.points.load(), r.size());
  Swell swell;
  reference::sampleDirect(swell, WaterFrame{}, btVector3(1, 2, 3), r, 0.5f, u, v, h);
  for (std::size_t i = 0; i < r.size(); ++i) EXPECT_EQ(h[i], swell.height(1 + r[i].x(), 3 + r[i].z(), 0.5f));
}

TEST(Sampling, NonFiniteSamplesAreReplacedAndCounted) {
  std::vector<btScalar> values = {1, std::numeric_limits<btScalar>::quiet_NaN(), 3,
                                  std::numeric_limits<btScalar>::infinity()};
  EXPECT_EQ(detail::replaceNonFinite(values), 2u);
  EXPECT_EQ(values[1], 2);
  EXPECT_EQ(values[3], 2);
  std::vector<btScalar> allBad = {std::numeric_limits<btScalar>::quiet_NaN()};
  EXPECT_EQ(detail::replaceNonFinite(allBad), 1u);
  EXPECT_EQ(allBad[0], 0);
}

TEST(Sampling, PatchAndDirectAgreeOnPlanarWater) {
  const auto hull = hullOf(boatHull(8, 3, 2));
  const btTransform com(btQuaternion(btVector3(0.2f, 1, 0.1f).normalized(), 0.7f), btVector3(3, 0.2f, -1));
  Plane plane;
  const HydrostaticResult direct = hydrostaticsAt(*hull, com, plane);
  // The patch reproduces a plane exactly, so the forces agree to round-off.
  detail::PatchSampler patch;
  patch.configure(0.3f, hull->radius_m());
  patch.sample(plane, double(com.getOrigin().x()), double(com.getOrigin().z()), 0);
  std::vector<btVector3> r(hull->vertices().size());
  std::vector<btScalar> water(r.size()), h(r.size());
  rotateVertices(com.getBasis(), hull->vertices(), r);
  reference::sampleFromPatch(patch, WaterFrame{}, com.getOrigin(), r, water);
  vertexHeights(r, com.getOrigin().y(), btVector3(0, 1, 0), water, h);
  CutBuffers cut;
  cut.reserve(hull->triangles().size());
  cutHull(r, h, *hull, cut);
  const HydrostaticResult viaPatch = integratePressure(cut.pieces, 1025, kG, btVector3(0, 1, 0));
  EXPECT_LT((viaPatch.force_N - direct.force_N).length(), 1e-5 * direct.force_N.length());
  EXPECT_LT((viaPatch.torque_Nm - direct.torque_Nm).length(), 1e-5 * direct.force_N.length() * hull->radius_m());
}

}  // namespace
}  // namespace keel::test
