// A 30-minute storm: a JONSWAP sea of 8 m significant
// height on Gerstner waves, ten boats, the full model; nothing may go NaN,
// fly off or sink.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace keel::test {
namespace {

TEST(Storm, TenBoatsSurviveThirtyMinutesOfEightMetreSeas) {
  const auto sea = gerstnerSea(8.0, 12.0, 8, 2026, 0.8);
  ASSERT_NEAR(significantWaveHeight_m(sea->components()), 8.0, 0.8);

  World w;
  struct Boat {
    btRigidBody* body;
    std::unique_ptr<WaterAction> action;
    int submergedLate = 0;
  };
  std::vector<Boat> boats;
  const auto barge = hullOf(box(btVector3(12, 2.5f, 5)));
  const auto cutter = hullOf(boatHull(10, 3.5f, 2.5f, 9, 3));
  for (int i = 0; i < 10; ++i) {
    const bool isBarge = i % 2 == 0;
    const auto& hull = isBarge ? barge : cutter;
    // Half the hull's volume displaced at rest: they should float.
    const btScalar mass = btScalar(0.5 * 1025 * hull->volume_m3());
    const btVector3 size = hull->boundsMax() - hull->boundsMin();
    const btVector3 at(btScalar(30 * (i % 5)), 2, btScalar(40 * (i / 5)));
    btRigidBody* body = w.addBox(size, mass, btTransform(btQuaternion(btVector3(0, 1, 0), btScalar(0.6 * i)), at));
    auto action = std::make_unique<WaterAction>(body, hull, sea);
    w.world.addAction(action.get());
    boats.push_back({body, std::move(action)});
  }
  const btScalar dt = btScalar(1.0 / 60);
  // 30 minutes, or KEEL_STORM_MINUTES (at least 4: the last 2 are judged),
  // which the sanitizer build sets (tests/CMakeLists.txt).
  const char* minutes = std::getenv("KEEL_STORM_MINUTES");
  const int steps = 60 * 60 * (minutes ? std::max(4, std::atoi(minutes)) : 30), lateSteps = 60 * 120;
  double highest = -1e9;
  for (int s = 0; s < steps; ++s) {
    w.world.stepSimulation(dt, 1, dt);
    for (Boat& b : boats) {
      const btVector3 p = b.body->getCenterOfMassPosition();
      ASSERT_TRUE(std::isfinite(p.x()) && std::isfinite(p.y()) && std::isfinite(p.z())) << "step " << s;
      const double aboveWater = p.y() - sea->height(p.x(), p.z(), btScalar(b.action->time_s()));
      highest = std::max(highest, aboveWater);
      ASSERT_LT(aboveWater, 20.0) << "launched at step " << s;
      ASSERT_GT(aboveWater, -20.0) << "dragged under at step " << s;
      if (s >= steps - lateSteps && (b.action->status().flags & StatusSubmerged)) ++b.submergedLate;
    }
  }
  for (const Boat& b : boats) {
    EXPECT_LT(b.submergedLate, lateSteps / 10) << "a boat that should float spent the last 2 minutes under water";
    EXPECT_EQ(b.action->status().skippedSubsteps, 0u) << b.action->status().describe();
  }
  reportFigure("storm: highest centre of mass above the local water [m]", highest, 0);
}

}  // namespace
}  // namespace keel::test
