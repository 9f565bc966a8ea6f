// keel::HeightGridSurface (docs/integration.md, "An ocean that changes every
// frame"): a plane reproduced exactly, a sine within the interpolation
// bound, the edges, snapshots in time, NaN through the action, and a box
// floating at its analytic draft on a flat grid.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr btScalar kNaN = std::numeric_limits<btScalar>::quiet_NaN();

/// The grid's node positions and heights of `f(u, v)` at them.
template <class F>
std::vector<btScalar> sampled(const HeightGridLayout& g, F f) {
  std::vector<btScalar> h(std::size_t(g.nodesEast) * std::size_t(g.nodesNorth));
  for (int j = 0; j < g.nodesNorth; ++j)
    for (int i = 0; i < g.nodesEast; ++i)
      h[std::size_t(j) * std::size_t(g.nodesEast) + std::size_t(i)] = btScalar(
          f(g.originEast_m + i * g.cellSize_m, g.originNorth_m + j * g.cellSize_m));
  return h;
}

const HeightGridLayout kLayout{.originEast_m = -10.3,
                               .originNorth_m = 5.2,
                               .cellSize_m = 0.7,
                               .nodesEast = 40,
                               .nodesNorth = 30,
                               .edges = GridEdges::Clamp};

/// Random points strictly inside the grid's rectangle.
std::vector<std::pair<double, double>> pointsInside(const HeightGridLayout& g, int count) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(g.originEast_m, g.originEast_m + (g.nodesEast - 1) * g.cellSize_m);
  std::uniform_real_distribution<double> v(g.originNorth_m, g.originNorth_m + (g.nodesNorth - 1) * g.cellSize_m);
  std::vector<std::pair<double, double>> points;
  for (int i = 0; i < count; ++i) points.emplace_back(u(random), v(random));
  return points;
}

TEST(HeightGrid, ReproducesAPlaneExactly) {
  const auto plane = [](double u, double v) { return 1.5 + 0.05 * u - 0.03 * v; };
  HeightGridSurface grid(kLayout);
  grid.setHeights(sampled(kLayout, plane), 0);
  // Exact but for the rounding of the heights and of the query point to btScalar.
  const double tolerance = 64 * std::numeric_limits<btScalar>::epsilon() * 3;
  for (const auto& [u, v] : pointsInside(kLayout, 2000)) {
    const btScalar uq = btScalar(u), vq = btScalar(v);
    ASSERT_NEAR(grid.height(uq, vq, 0), plane(double(uq), double(vq)), tolerance) << u << ", " << v;
  }
  // The batch call gives the same bits as the single-point one.
  const std::vector<btScalar> us{-3.1f, 4.4f, 12.0f}, vs{6.0f, 20.5f, 9.9f};
  std::vector<btScalar> out(3);
  grid.heights(us.data(), vs.data(), 3, 0, out.data());
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(out[i], grid.height(us[i], vs[i], 0));
}

TEST(HeightGrid, SineWithinTheInterpolationBound) {
  // eta = a cos(k . x): second derivatives at most M = a |k|^2, so the
  // triangles err by at most M cell^2 / 4 (docs/model.md §1, "Water sampling").
  const double a = 0.8, ku = 0.9, kv = 0.4;
  const auto sine = [&](double u, double v) { return a * std::cos(ku * u + kv * v); };
  HeightGridLayout layout = kLayout;
  layout.cellSize_m = 0.25;
  HeightGridSurface grid(layout);
  grid.setHeights(sampled(layout, sine), 0);
  const double bound = a * (ku * ku + kv * kv) * layout.cellSize_m * layout.cellSize_m / 4;
  double worst = 0;
  for (const auto& [u, v] : pointsInside(layout, 4000)) {
    const btScalar uq = btScalar(u), vq = btScalar(v);
    worst = std::max(worst, std::abs(double(grid.height(uq, vq, 0)) - sine(double(uq), double(vq))));
  }
  reportFigure("worst interpolation error over its bound", worst / bound, 1);
  EXPECT_LE(worst, bound * (1 + 1e-4));
  EXPECT_GT(worst, 0.2 * bound);  // the bound is of the right size, not loose by orders
}

TEST(HeightGrid, ClampedEdgesContinueTheOutermostNodes) {
  const auto f = [](double u, double v) { return 0.1 * u + 0.02 * v * v; };
  HeightGridSurface grid(kLayout);
  grid.setHeights(sampled(kLayout, f), 0);
  const double east = kLayout.originEast_m + (kLayout.nodesEast - 1) * kLayout.cellSize_m;
  const double north = kLayout.originNorth_m + (kLayout.nodesNorth - 1) * kLayout.cellSize_m;
  for (double v : {6.0, 10.05, 20.0}) {
    EXPECT_EQ(grid.height(btScalar(east + 50), btScalar(v), 0), grid.height(btScalar(east), btScalar(v), 0));
    EXPECT_EQ(grid.height(btScalar(-1e6), btScalar(v), 0), grid.height(btScalar(kLayout.originEast_m), btScalar(v), 0));
  }
  EXPECT_EQ(grid.height(btScalar(east + 3), btScalar(north + 3), 0), grid.heights_m().back());
  EXPECT_EQ(grid.height(-std::numeric_limits<btScalar>::infinity(), 0, 0), grid.heights_m().front());
  EXPECT_TRUE(std::isnan(grid.height(kNaN, 6, 0)));
}

TEST(HeightGrid, PeriodicEdgesTileThePlane) {
  HeightGridLayout layout{.originEast_m = 0,
                          .originNorth_m = 0,
                          .cellSize_m = 0.5,
                          .nodesEast = 16,
                          .nodesNorth = 8,
                          .edges = GridEdges::Periodic};
  std::vector<btScalar> h(16 * 8);
  std::mt19937 random(3);
  std::uniform_real_distribution<float> any(-1, 1);
  for (btScalar& x : h) x = btScalar(any(random));
  HeightGridSurface grid(layout);
  grid.setHeights(h, 0);
  const double period_u = 16 * 0.5, period_v = 8 * 0.5;
  for (const auto& [u, v] : std::vector<std::pair<double, double>>{{0.3, 0.2}, {7.9, 3.9}, {3.3, 1.1}, {7.75, 0}})
    for (int n : {-3, -1, 1, 5}) {
      const double expected = grid.height(btScalar(u), btScalar(v), 0);
      // Far from the origin the query point itself rounds (float: 4e-6 m at 40 m).
      EXPECT_NEAR(grid.height(btScalar(u + n * period_u), btScalar(v - n * period_v), 0), expected, 1e-4);
    }
  // Halfway between the last node of a row and its first: their mean.
  EXPECT_NEAR(grid.height(btScalar(7.75), 0, 0), (h[15] + h[0]) / 2, 1e-6);
  EXPECT_NEAR(grid.height(0, btScalar(3.75), 0), (h[7 * 16] + h[0]) / 2, 1e-6);
  EXPECT_TRUE(std::isnan(grid.height(std::numeric_limits<btScalar>::infinity(), 0, 0)));
}

TEST(HeightGrid, TwoSnapshotsInterpolateInTimeAndGiveTheRiseRate) {
  // A travelling wave eta = a cos(k u - w t) sampled at t0 and t1: between
  // them the error is the space bound plus the time bound a w^2 dt^2 / 8.
  // Times exact in float, so that the queries below land on the snapshots.
  const double a = 1.0, k = 0.4, w = 2.0, t0 = 10, t1 = 10 + 1.0 / 64;
  const auto wave = [&](double t) { return [=](double u, double) { return a * std::cos(k * u - w * t); }; };
  HeightGridLayout layout = kLayout;
  layout.cellSize_m = 0.5;
  HeightGridSurface grid(layout);
  grid.setHeights(sampled(layout, wave(t0)), t0);
  EXPECT_FALSE(grid.interpolates());
  const btScalar u = btScalar(-2.2), v = btScalar(8.0);
  // One snapshot: held at every time, still water.
  EXPECT_EQ(grid.height(u, v, btScalar(t0 - 5)), grid.height(u, v, btScalar(t0 + 5)));
  EXPECT_EQ(grid.velocity(u, v, 0, btScalar(t0)).up_mps, 0);
  EXPECT_TRUE(grid.velocityIsUniform());
  grid.setHeights(sampled(layout, wave(t1)), t1);
  ASSERT_TRUE(grid.interpolates());
  EXPECT_FALSE(grid.velocityIsUniform());
  const double dt = t1 - t0;
  const double bound = a * k * k * layout.cellSize_m * layout.cellSize_m / 4 + a * w * w * dt * dt / 8;
  const double tm = (t0 + t1) / 2;
  EXPECT_NEAR(grid.height(u, v, btScalar(tm)), wave(tm)(double(u), 0), bound + 1e-5);
  // Held, not extrapolated, outside [t0, t1]; the rise rate is the snapshots'.
  EXPECT_EQ(grid.height(u, v, btScalar(t1 + 1)), grid.height(u, v, btScalar(t1)));
  EXPECT_EQ(grid.height(u, v, btScalar(t0 - 1)), grid.height(u, v, btScalar(t0)));
  const double rise = (double(grid.height(u, v, btScalar(t1))) - double(grid.height(u, v, btScalar(t0)))) / dt;
  EXPECT_NEAR(grid.velocity(u, v, -3, btScalar(tm)).up_mps, rise, 1e-3 * a * w);
  EXPECT_NEAR(rise, a * w * std::sin(k * double(u) - w * tm), 0.02 * a * w);
  // A clock that goes back starts over.
  grid.publish(0);
  EXPECT_FALSE(grid.interpolates());
}

TEST(HeightGrid, PublishSwapsBuffersWithoutCopying) {
  HeightGridSurface grid(kLayout, 0.25);
  EXPECT_EQ(grid.height(0, 10, 0), btScalar(0.25));
  std::vector<const btScalar*> seen;
  for (int i = 0; i < 4; ++i) {
    std::span<btScalar> back = grid.backBuffer_m();
    ASSERT_EQ(back.size(), std::size_t(40 * 30));
    std::fill(back.begin(), back.end(), btScalar(i));
    seen.push_back(back.data());
    grid.publish(i);
    EXPECT_EQ(grid.heights_m().data(), seen.back());
    EXPECT_EQ(grid.height(0, 10, btScalar(i)), btScalar(i));
  }
  EXPECT_EQ(seen[3], seen[0]);  // three buffers in turn
}

TEST(HeightGrid, RejectsBadLayoutsAndInputs) {
  const auto bad = [](HeightGridLayout g) { EXPECT_THROW(HeightGridSurface{g}, std::invalid_argument); };
  HeightGridLayout g = kLayout;
  g.cellSize_m = 0;
  bad(g);
  g = kLayout;
  g.nodesEast = 1;
  bad(g);
  g = kLayout;
  g.nodesNorth = 70000;
  bad(g);
  g = kLayout;
  g.originEast_m = std::numeric_limits<double>::infinity();
  bad(g);
  g = kLayout;
  g.edges = static_cast<GridEdges>(7);  // a value read from a file, unchecked
  try {
    HeightGridSurface{g};
    ADD_FAILURE() << "GridEdges(7) accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("edges is GridEdges(7)"), std::string::npos) << e.what();
  }
  // Within kMaxGridNodes: 65,536 x 65,536 nodes would take 48 GiB, and the
  // message says so; a strip of 65,536 x 2 is a grid like any other.
  g = kLayout;
  g.nodesEast = g.nodesNorth = kMaxGridNodesPerSide;
  try {
    HeightGridSurface{g};
    ADD_FAILURE() << "a grid of 2^32 nodes accepted";
  } catch (const std::invalid_argument& e) {
    const double gib = 3.0 * 65536.0 * 65536.0 * double(sizeof(btScalar)) / double(1u << 30);
    EXPECT_NE(std::string(e.what()).find(std::to_string(int(gib)) + " GiB"), std::string::npos) << e.what();
  }
  g.nodesNorth = int(kMaxGridNodes / kMaxGridNodesPerSide) + 1;
  bad(g);
  g.nodesNorth = 2;
  EXPECT_EQ(HeightGridSurface(g).heights_m().size(), std::size_t(2 * kMaxGridNodesPerSide));
  HeightGridSurface grid(kLayout);
  EXPECT_THROW(grid.setHeights(std::vector<btScalar>(5), 0), std::invalid_argument);
  EXPECT_THROW(grid.publish(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  EXPECT_THROW(HeightGridSurface(kLayout, std::numeric_limits<double>::infinity()), std::invalid_argument);
}

/// A 2 m x 1 m x 1.5 m box of mass for draft 0.4 m over a grid.
struct BoxOnGrid {
  static constexpr btScalar L = 2, D = 1, B = 1.5, T = 0.4;
  explicit BoxOnGrid(btScalar water_m)
      : grid(std::make_shared<HeightGridSurface>(HeightGridLayout{.originEast_m = -8,
                                                                  .originNorth_m = -8,
                                                                  .cellSize_m = 0.5,
                                                                  .nodesEast = 33,
                                                                  .nodesNorth = 33,
                                                                  .edges = GridEdges::Clamp},
                                                 water_m)) {
    body = world.addBox(btVector3(L, D, B), btScalar(kRho) * L * B * T,
                        btTransform(btQuaternion::getIdentity(), btVector3(0.1f, water_m + D / 2 - T + 0.05f, 0.2f)));
  }
  World world;
  std::shared_ptr<HeightGridSurface> grid;
  btRigidBody* body;
};

TEST(HeightGrid, BoxFloatsAtItsAnalyticDraftOnAFlatGrid) {
  for (Sampling sampling : {Sampling::Direct, Sampling::Patch}) {
    const btScalar water = 0.3f;
    BoxOnGrid b(water);
    b.body->setDamping(0.6f, 0.6f);
    WaterAction boat(b.body, hullOf(box(btVector3(BoxOnGrid::L, BoxOnGrid::D, BoxOnGrid::B))), b.grid,
                     {.sampling = sampling});
    b.world.world.addAction(&boat);
    for (int i = 0; i < 60 * 40; ++i) b.world.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
    const double draft = double(water) + BoxOnGrid::D / 2 - b.body->getCenterOfMassPosition().y();
    reportFigure("draft on a flat grid [m]", draft, BoxOnGrid::T);
    EXPECT_NEAR(draft, BoxOnGrid::T, 1e-4 * BoxOnGrid::T);
    EXPECT_NEAR(boat.draft_m(), BoxOnGrid::T, 1e-4 * BoxOnGrid::T);
    EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
    b.world.world.removeAction(&boat);
  }
}

TEST(HeightGrid, NaNInTheGridIsReportedByTheActionLikeAnyNaNHeight) {
  BoxOnGrid b(0);
  std::vector<btScalar> heights(b.grid->heights_m().begin(), b.grid->heights_m().end());
  heights[16 * 33 + 16] = kNaN;  // the node under the box's centre, at (0, 0)
  b.grid->setHeights(heights, 0);
  WaterAction boat(b.body, hullOf(box(btVector3(BoxOnGrid::L, BoxOnGrid::D, BoxOnGrid::B), 4)), b.grid);
  b.world.world.addAction(&boat);
  for (int i = 0; i < 60; ++i) b.world.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  EXPECT_TRUE(boat.status().flags & StatusNonFiniteHeight) << boat.status().describe();
  EXPECT_GT(boat.status().nonFiniteHeights, 0u);
  EXPECT_EQ(boat.status().skippedSubsteps, 0u);  // the finite samples stand in for the bad ones
  const btVector3 p = b.body->getCenterOfMassPosition();
  EXPECT_TRUE(std::isfinite(p.x()) && std::isfinite(p.y()) && std::isfinite(p.z()));
  EXPECT_NEAR(p.y(), BoxOnGrid::D / 2 - BoxOnGrid::T, 0.05);
  b.world.world.removeAction(&boat);
}

TEST(HeightGrid, PublishTakesTimesOnTheWaterClockAndBoundsTheirRise) {
  HeightGridSurface grid(kLayout, 0);
  EXPECT_EQ(grid.riseRate_mps(), 0);
  // A rise of exactly the bound is a sea's (0.625 m in 1/32 s, exact in
  // binary); one just past it is a clock's error.
  std::vector<btScalar> h(std::size_t(40 * 30), 0);
  h[77] = btScalar(0.625);
  grid.setHeights(h, 1);
  grid.setHeights(std::vector<btScalar>(h.size(), 0), 1 + 1.0 / 32);
  EXPECT_EQ(grid.riseRate_mps(), kMaxSurfaceRiseRate_mps);
  EXPECT_FALSE(grid.implausibleRise());
  EXPECT_FALSE(grid.velocityIsUniform());
  h[77] = btScalar(0.626);
  grid.setHeights(h, 1 + 2.0 / 32);
  EXPECT_TRUE(grid.implausibleRise());
  EXPECT_EQ(grid.implausibleRises(), 1u);
  // Then the water is still: no velocity anywhere, the heights as stamped.
  EXPECT_TRUE(grid.velocityIsUniform());
  const btScalar u = btScalar(kLayout.originEast_m + 37 * kLayout.cellSize_m);
  const btScalar v = btScalar(kLayout.originNorth_m + 1 * kLayout.cellSize_m);  // node 77 = (37, 1)
  EXPECT_EQ(grid.velocity(u, v, 0, grid.newestTime_s()).up_mps, 0);
  EXPECT_NEAR(grid.height(u, v, grid.newestTime_s()), 0.626, 1e-6);
  // NaN and infinite heights are the boats' to report, not a rise.
  h[78] = kNaN;
  h[79] = std::numeric_limits<btScalar>::infinity();
  grid.setHeights(h, grid.newestTime_s() + 1);
  EXPECT_EQ(grid.riseRate_mps(), 0);
  EXPECT_FALSE(grid.implausibleRise());
  // An equal or earlier time starts over: one snapshot, no velocity.
  grid.publish(grid.newestTime_s());
  EXPECT_FALSE(grid.interpolates());
  EXPECT_EQ(grid.riseRate_mps(), 0);
  grid.publish(grid.newestTime_s() - 5);
  EXPECT_FALSE(grid.interpolates());
  // A time that is no time is refused, naming it.
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()}) {
    try {
      grid.publish(bad);
      ADD_FAILURE() << "publish(" << bad << ") accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("time_s is"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(grid.implausibleRises(), 1u);
}

/// How a box rode a grid: its largest vertical speed [m/s] and rise above
/// its start [m], and what the grid said of the last two snapshots.
struct Ride {
  double speed_mps = 0, rise_m = 0, riseRate_mps = 0;
  std::uint64_t implausibleRises = 0;
};

/// An 8 m x 2 m x 3 m box of draft 1 m, every hydrodynamic term on, riding
/// a 1 m, 64 m swell through a periodic grid of 2 m cells for 10 s, in
/// frames of 1/64 s and four substeps. Each frame publishes the sea at the
/// step's end, stamped `stampStep_s` after the last (1/64 s when the clock
/// is right).
Ride rideTheGrid(double stampStep_s) {
  static const auto sea = std::make_shared<const SineSumSurface>(std::vector{deepWaterWave(1.0, 64.0, 0.0)});
  const HeightGridLayout tile{.originEast_m = -32,
                              .originNorth_m = -32,
                              .cellSize_m = 2,
                              .nodesEast = 32,
                              .nodesNorth = 32,
                              .edges = GridEdges::Periodic};
  const auto grid = std::make_shared<HeightGridSurface>(tile);
  const auto readBack = [&](double t_s) {  // the sea at t_s into the back buffer
    const auto h = sampled(tile, [&](double u, double v) { return sea->height(btScalar(u), btScalar(v), t_s); });
    std::copy(h.begin(), h.end(), grid->backBuffer_m().begin());
  };
  World w;
  const btVector3 size(8, 2, 3);
  const double y0 = double(sea->height(0, 0, 0));  // on the crest: the keel 1 m under it, the centre 1 m above
  btRigidBody* body = w.addBox(size, btScalar(kRho * 8 * 3 * 1.0),
                               btTransform(btQuaternion::getIdentity(), btVector3(0, btScalar(y0), 0)));
  WaterFleet fleet(grid, 1);
  fleet.add(body, hullOf(box(size, 2)));
  w.world.addAction(&fleet);
  const double frame_s = 1.0 / 64;
  readBack(0);
  grid->publish(0);
  Ride ride;
  for (int f = 1; f <= 640; ++f) {
    readBack(f * frame_s);           // the sea at the step's end ...
    grid->publish(f * stampStep_s);  // ... stamped on the wrong clock
    w.world.stepSimulation(btScalar(frame_s), 4, btScalar(frame_s / 4));
    ride.speed_mps = std::max(ride.speed_mps, std::abs(double(body->getLinearVelocity().y())));
    ride.rise_m = std::max(ride.rise_m, double(body->getCenterOfMassPosition().y()) - y0);
  }
  w.world.removeAction(&fleet);
  ride.riseRate_mps = grid->riseRate_mps();
  ride.implausibleRises = grid->implausibleRises();
  return ride;
}

TEST(HeightGrid, StampsTooCloseTogetherCannotLaunchTheBox) {
  // The swell rises at most a w (mean value theorem: |d eta| <= a w dt over
  // a frame), the box follows it with a heave response 1 / (1 - (w/wn)^2) =
  // 1.11 (wn = sqrt(g / draft)): 1.5 a w bounds its speed with room for its
  // start. Nor can it rise a quarter of the amplitude above the crest it
  // starts on.
  const double a = 1.0, w = std::sqrt(kStandardGravity_mps2 * 2 * 3.14159265358979 / 64);
  const Ride right = rideTheGrid(1.0 / 64);
  EXPECT_LE(right.riseRate_mps, a * w * 1.0001);
  EXPECT_GE(right.riseRate_mps, a * w * 0.99);  // nodes every 0.2 rad of the wave
  EXPECT_EQ(right.implausibleRises, 0u);
  // 1000 times too close (a clock in ms read as s), and 1 us apart: before
  // the bound the box reached 968 and 6,071 m/s, and 758 m and 4.5 km up.
  for (const double stamp_s : {1.0 / 64 / 1000, 1e-6}) {
    const Ride wrong = rideTheGrid(stamp_s);
    reportFigure("box on a grid stamped too close: largest vertical speed [m/s]", wrong.speed_mps, right.speed_mps);
    EXPECT_LT(wrong.speed_mps, 1.5 * a * w) << stamp_s;
    EXPECT_LT(wrong.rise_m, 0.25 * a) << stamp_s;
    EXPECT_EQ(wrong.implausibleRises, 640u) << stamp_s;  // every frame's pair
    EXPECT_GT(wrong.riseRate_mps, 900 * a * w) << stamp_s;
  }
  EXPECT_LT(right.speed_mps, 1.5 * a * w);
}

}  // namespace
}  // namespace keel::test
