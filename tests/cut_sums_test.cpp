// A small hull's pressure sums with its pieces summed as they are cut
// (cutAndSum, what the substep does for the pressure integral alone)
// against the same pieces stored and then summed (cutCrossing,
// pressureSums): the same bits, on every instruction set Highway compiled,
// for the 12-triangle box and a 108-triangle box the water cuts near a
// corner, in many poses, and wholly under the water (docs/performance-history.md,
// "Small hulls: against Jolt"); and the small hull's one kernel
// (smallHullSums) against classifyTriangles then cutAndSum.
#include "hull/hull_access.hpp"
#include "kernels/classify.hpp"
#include "kernels/cut.hpp"
#include "kernels/heights.hpp"
#include "kernels/pressure.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace keel::test {
namespace {

/// Whether a and b hold the same bits.
bool sameBits(const detail::PressureSums& a, const detail::PressureSums& b) {
  return std::memcmp(&a, &b, sizeof(a)) == 0;
}

/// Compares the two paths on `hull` in `poses` random poses, each water
/// plane through one of its vertices moved by up to `reach_m`, every tenth
/// clear of the hull (wholly under the water: no cut); adds the poses
/// compared and those whose cut had second pieces.
void compare(const Hull& hull, int poses, btScalar reach_m, int& compared, int& withSecond) {
  const detail::HullSoA& soa = detail::soaOf(hull);
  detail::BoatBuffers& b = detail::threadBuffers(soa);
  std::vector<btScalar> above(soa.vertexPadded, 0);
  std::mt19937 random(7);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> offset(-double(reach_m), double(reach_m));
  const btScalar noUp[3] = {0, 0, 0};
  for (int p = 0; p < poses; ++p) {
    const btVector3 dir = btVector3(btScalar(normal(random)), btScalar(normal(random)), btScalar(normal(random)));
    const btVector3 upv = dir.normalized();
    const btScalar up[3] = {upv.x(), upv.y(), upv.z()};
    const std::size_t at = std::size_t(p) % soa.vertexCount;
    btScalar level = upv.dot(btVector3(soa.x[at], soa.y[at], soa.z[at])) + btScalar(offset(random));
    if (p % 10 == 0) level += 2 * hull.radius_m();
    for (std::size_t i = 0; i < soa.vertexCount; ++i)
      above[i] = upv.dot(btVector3(soa.x[i], soa.y[i], soa.z[i])) - level;
    // Triangle by triangle, as the drawn cut classifies.
    const std::size_t count = detail::classifyTriangles(soa, above.data(), noUp, 0,
                                                        detail::Extent{-BT_LARGE_FLOAT, BT_LARGE_FLOAT}, b);
    if (!detail::cutSums(soa, count)) continue;
    detail::cutCrossing(soa, b, count, false, false, detail::CutOutput::Pressure);
    const detail::PieceStream streams[2] = {b.triangles(soa), b.pieces.stream()};
    const detail::PressureSums stored = detail::pressureSums(streams, 2, up);
    withSecond += b.pieces.twoSlots > 0 ? 1 : 0;
    detail::PressureSums summed;
    detail::cutAndSum(soa, b, count, up, summed);
    EXPECT_TRUE(sameBits(stored, summed)) << "pose " << p << ", " << count << " crossing triangles: force "
                                          << stored.force[1] << " stored, " << summed.force[1] << " summed";
    ++compared;
  }
}

TEST(CutSums, ASmallCutsSumsAreTheStoredPiecesBits) {
  const auto small = hullOf(box(btVector3(4, 1.5f, 2)));     // 12 triangles
  const auto large = hullOf(box(btVector3(4, 1.5f, 2), 3));  // 108 triangles
  // In double a block of slots is 8 doubles, which no cut fits (its slots
  // come 16 at a time): only the hulls wholly under the water are summed.
  const bool cuts = detail::cutSums(detail::soaOf(*small), 1);
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  int compared = 0, withSecond = 0;
  for (const std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    compare(*small, 200, btScalar(1.5), compared, withSecond);
    compare(*large, 200, btScalar(0.3), compared, withSecond);
  }
  hwy::SetSupportedTargetsForTest(0);
  reportValue("instruction sets", double(targets.size()));
  reportValue("poses compared bit for bit, all instruction sets", compared);
  reportValue("of them with two-piece cuts", withSecond);
  // Every pose of the small box (at most 12 crossing triangles), and some of
  // the large one's; in double, the 40 poses of each clear of the hull.
  EXPECT_GE(compared, (cuts ? 200 : 40) * int(targets.size()));
  EXPECT_GT(withSecond, cuts ? 50 * int(targets.size()) : -1);
}

/// smallHullSums against vertexHeights, then classifyTriangles (with the
/// water's range, so that a hull wholly under or above the water is one
/// wet or dry block) and cutAndSum, on `hull` in `poses` random poses as
/// compare() makes them: the same heights, sums, crossing count and
/// two-wet count; adds the poses the kernel took.
void compareOneKernel(const Hull& hull, int poses, btScalar reach_m, int& compared) {
  const detail::HullSoA& soa = detail::soaOf(hull);
  detail::BoatBuffers& b = detail::threadBuffers(soa);
  std::vector<btScalar> water(soa.vertexPadded, 0), above(soa.vertexPadded, 0), fusedAbove(soa.vertexPadded, 0);
  std::mt19937 random(11);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> offset(-double(reach_m), double(reach_m));
  for (int p = 0; p < poses; ++p) {
    const btVector3 upv =
        btVector3(btScalar(normal(random)), btScalar(normal(random)), btScalar(normal(random))).normalized();
    const btScalar up[3] = {upv.x(), upv.y(), upv.z()};
    const std::size_t at = std::size_t(p) % soa.vertexCount;
    btScalar level = upv.dot(btVector3(soa.x[at], soa.y[at], soa.z[at])) + btScalar(offset(random));
    if (p % 10 == 0) level += 2 * hull.radius_m();  // wholly under the water
    if (p % 10 == 5) level -= 2 * hull.radius_m();  // wholly above it
    const btScalar centreUp = btScalar(0.25) * btScalar(p % 4);
    for (std::size_t i = 0; i < soa.vertexCount; ++i) water[i] = level + btScalar(0.01) * btScalar(i % 3);
    detail::PressureSums expected, fused;
    detail::VertexHeights fusedHeights{};
    b.twoWetCrossing = 0;
    const std::size_t fusedCount = detail::smallHullSums(soa, up, centreUp, water.data(), fusedAbove.data(),
                                                         fusedHeights, b, fused);
    if (fusedCount == detail::kNotSmallHull) continue;
    const std::size_t fusedTwoWet = b.twoWetCrossing;
    const detail::VertexHeights heights = detail::vertexHeights(soa, up, centreUp, water.data(), above.data(), nullptr);
    // The real vertices' heights (the small hull's kernel leaves the padding
    // past its one vector unwritten: no triangle names it).
    EXPECT_EQ(std::memcmp(above.data(), fusedAbove.data(), soa.vertexCount * sizeof(btScalar)), 0) << "pose " << p;
    EXPECT_TRUE(heights.water.lo == fusedHeights.water.lo && heights.water.hi == fusedHeights.water.hi &&
                heights.nonFinite == fusedHeights.nonFinite && heights.lowestAbove_m == fusedHeights.lowestAbove_m)
        << "pose " << p;
    const std::size_t count = detail::classifyTriangles(soa, above.data(), up, centreUp, heights.water, b);
    ASSERT_TRUE(detail::cutSums(soa, count));
    detail::cutAndSum(soa, b, count, up, expected);
    EXPECT_EQ(fusedCount, count) << "pose " << p;
    EXPECT_EQ(fusedTwoWet, b.twoWetCrossing) << "pose " << p;
    EXPECT_TRUE(sameBits(expected, fused))
        << "pose " << p << ", " << count << " crossing triangles: force " << expected.force[1]
        << " classified and cut, " << fused.force[1] << " in one kernel";
    ++compared;
  }
}

TEST(CutSums, ASmallHullsOneKernelIsClassifyThenCutAndSumBits) {
  const auto small = hullOf(box(btVector3(4, 1.5f, 2)));     // 8 vertices, 12 triangles
  const auto large = hullOf(box(btVector3(4, 1.5f, 2), 3));  // too large: never taken
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  int compared = 0, largeTaken = 0;
  for (const std::int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    // Taken only where the vertices fit one vector: AVX2 and AVX-512 in float.
    const bool takes = std::string(hwy::TargetName(target)).find("AVX") != std::string::npos && sizeof(btScalar) == 4;
    const int before = compared;
    compareOneKernel(*small, 300, btScalar(1.5), compared);
    EXPECT_EQ(compared - before, takes ? 300 : 0) << hwy::TargetName(target);
    compareOneKernel(*large, 50, btScalar(0.3), largeTaken);
  }
  hwy::SetSupportedTargetsForTest(0);
  reportValue("poses compared bit for bit, all instruction sets", compared);
  EXPECT_EQ(largeTaken, 0);
}

}  // namespace
}  // namespace keel::test
