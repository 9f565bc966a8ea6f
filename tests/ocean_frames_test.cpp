// The per-frame ocean of docs/integration.md ("An ocean that changes every
// frame"): a grid fed once a frame from a wave field, with the snapshot of
// the step's end (interpolated) or of its start (held through the step),
// against the same box floating on the wave field itself.
#include "ocean_frames.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
// Frames of 1/64 s in four substeps: exact in float, so every step takes
// exactly four substeps and the water clock meets the snapshots' times.
constexpr double kFrame_s = 1.0 / 64;
constexpr int kSubsteps = 4;
constexpr int kFrames = 64 * 8;

/// One wave of 0.3 m amplitude and 16 m length travelling east: it repeats
/// on the 32 m tile of the periodic grid below.
const std::shared_ptr<const SineSumSurface>& sea() {
  static const auto s = std::make_shared<const SineSumSurface>(std::vector{deepWaterWave(0.3, 16.0, 0.0)});
  return s;
}

const HeightGridLayout kTile{.originEast_m = -16,
                             .originNorth_m = -16,
                             .cellSize_m = 0.25,
                             .nodesEast = 128,
                             .nodesNorth = 128,
                             .edges = GridEdges::Periodic};

/// Stands in for a GPU FFT ocean read back to the CPU: the sea on the tile's nodes.
void readBack(double t_s, std::span<btScalar> heights_m) {
  for (int j = 0; j < kTile.nodesNorth; ++j)
    for (int i = 0; i < kTile.nodesEast; ++i)
      heights_m[std::size_t(j * kTile.nodesEast + i)] = sea()->height(
          btScalar(kTile.originEast_m + i * kTile.cellSize_m), btScalar(kTile.originNorth_m + j * kTile.cellSize_m),
          t_s);
}

enum class Feed { Analytic, EndOfStep, StartOfStep };

/// The heave [m] of a 4 m x 1 m x 2 m box of draft 0.25 m, frame by frame,
/// in a fleet of two threads on the sea (Analytic) or on the grid fed with
/// the snapshot of each step's end or start.
std::vector<double> heave(Feed feed) {
  World w;
  const btVector3 size(4, 1, 2);
  btRigidBody* body = w.addBox(size, btScalar(kRho * 4 * 2 * 0.25),
                               btTransform(btQuaternion::getIdentity(), btVector3(0, btScalar(0.5 - 0.25), 0)));
  auto grid = std::make_shared<HeightGridSurface>(kTile);
  std::shared_ptr<const WaterSurface> water = grid;
  if (feed == Feed::Analytic) water = sea();
  WaterFleet fleet(water, 2);
  // Hydrostatics only: the grid has no orbital velocity, so the drag would
  // differ from the sea's for reasons other than the snapshots.
  fleet.add(body, hullOf(box(size, 4))).setHydrodynamics(HydrodynamicSettings::none());
  w.world.addAction(&fleet);
  game::startOcean(*grid, readBack, fleet.time_s());
  std::vector<double> y;
  for (int f = 0; f < kFrames; ++f) {
    const double start_s = fleet.time_s(), end_s = start_s + kFrame_s;
    if (feed == Feed::EndOfStep) {
      game::stepFrame(w.world, fleet, *grid, readBack, kFrame_s, kSubsteps);
    } else {
      if (feed == Feed::StartOfStep) {  // the ocean the game rendered, held through the step
        readBack(start_s, grid->backBuffer_m());
        grid->publish(start_s);
      }
      w.world.stepSimulation(btScalar(kFrame_s), kSubsteps, btScalar(kFrame_s / kSubsteps));
    }
    EXPECT_EQ(fleet.time_s(), end_s);
    y.push_back(body->getCenterOfMassPosition().y());
  }
  EXPECT_TRUE(fleet.boat(0).status().ok()) << fleet.boat(0).status().describe();
  w.world.removeAction(&fleet);
  return y;
}

double worstDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

TEST(OceanFrames, InterpolatedSnapshotsFloatTheBoxAsTheSeaItselfDoes) {
  const std::vector<double> analytic = heave(Feed::Analytic);
  const std::vector<double> interpolated = heave(Feed::EndOfStep);
  const std::vector<double> held = heave(Feed::StartOfStep);
  const double range = *std::max_element(analytic.begin(), analytic.end()) -
                       *std::min_element(analytic.begin(), analytic.end());
  EXPECT_GT(range, 0.2);  // the box rides the wave
  // Bounds on the water under the box, per docs/integration.md: space a k^2
  // cell^2 / 4, time a w^2 dt^2 / 8 interpolated, a w dt held through the step.
  const double a = 0.3, k = 2 * 3.14159265358979 / 16, w = std::sqrt(kStandardGravity_mps2 * k);
  const double space = a * k * k * kTile.cellSize_m * kTile.cellSize_m / 4;
  const double interpolatedBound = space + a * w * w * kFrame_s * kFrame_s / 8;
  const double heldBound = space + a * w * kFrame_s;
  const double worstInterpolated = worstDifference(interpolated, analytic);
  const double worstHeld = worstDifference(held, analytic);
  reportFigure("heave, interpolated snapshots against the sea [m]", worstInterpolated, interpolatedBound);
  reportFigure("heave, snapshots held through the step against the sea [m]", worstHeld, heldBound);
  // The heave answers an error of the water amplified by the box's
  // response, 1 / (1 - (w/wn)^2) = 1.1 at this wave (wn = sqrt(g/T)), and
  // its undamped free heave carries the first frames' differences along:
  // twice the water's bound holds both.
  EXPECT_LT(worstInterpolated, 2 * interpolatedBound);
  EXPECT_LT(worstHeld, 2 * heldBound);
  EXPECT_GT(worstHeld, 5 * worstInterpolated);
}

}  // namespace
}  // namespace keel::test
