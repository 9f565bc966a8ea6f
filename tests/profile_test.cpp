// The per-stage profile (keel::SubstepProfile): off by default, each stage
// of each model timed when on, the results unchanged by it, a fleet's the
// sum of its boats'.
#include "test_hulls.hpp"

#include <keel/keel.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

namespace keel::test {
namespace {

/// The stages a substep of `model` runs with every term on, wave pressure
/// and compartments: each must show time.
std::set<SubstepStage> stagesOf(BuoyancyModel model) {
  using S = SubstepStage;
  if (model == BuoyancyModel::Columns)
    return {S::Plan,    S::Pose,  S::SampleWater, S::Heights,       S::ColumnBuoyancy,
            S::Damping, S::Clamp, S::Flooding,    S::VelocityChange};
  return {S::Plan,         S::Pose,  S::SampleWater, S::Heights,       S::Classify, S::WaterVelocity,
          S::WavePressure, S::Cut,   S::Pressure,    S::Flow,          S::Slamming, S::Air,
          S::Damping,      S::Clamp, S::Flooding,    S::VelocityChange};
}

/// A boat of the test hull on a Gerstner sea, moving (every drag term
/// works), with wave pressure, damping and one compartment, on `model`,
/// stepped `steps` substeps; profiled when `profiled`. Returns its action's
/// profile and leaves its final pose in `pose`.
SubstepProfile sail(BuoyancyModel model, bool profiled, int steps, btTransform& pose) {
  World w;
  const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 16, 5));
  const auto sea = gerstnerSea(1.0, 6.0, 4, 3, 0.5);
  btRigidBody* body = w.addBox(hull->boundsMax() - hull->boundsMin(), btScalar(0.4 * 1025) * hull->volume_m3(),
                               btTransform(btQuaternion::getIdentity(), btVector3(0, 0.2f, 0)));
  body->setLinearVelocity(btVector3(3, 0, 0.5f));
  HydrostaticSettings statics;
  statics.pressure = PressureModel::WavePressure;
  WaterAction boat(body, hull, sea, statics);
  HydrodynamicSettings h = boat.hydrodynamicSettings();
  h.damping = true;
  h.linearDamping_Nspm = 100;
  h.angularDamping_Nmsprad = 100;
  boat.setHydrodynamics(h);
  Compartment whole;
  whole.name = "hull";
  whole.space = hull;
  boat.setCompartments({whole});
  setModel(boat, model);
  boat.setProfiling(profiled);
  w.world.addAction(&boat);
  for (int i = 0; i < steps; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  w.world.removeAction(&boat);
  pose = body->getCenterOfMassTransform();
  return boat.profile();
}

TEST(Profile, OffByDefaultAndZero) {
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500, btTransform::getIdentity());
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  EXPECT_FALSE(boat.profiling());
  w.world.addAction(&boat);
  for (int i = 0; i < 10; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
  w.world.removeAction(&boat);
  EXPECT_EQ(boat.profile().substeps, 0u);
  EXPECT_EQ(boat.profile().total_s(), 0.0);
}

TEST(Profile, TimesEveryStageEachModelRunsAndNoOther) {
  for (const BuoyancyModel model : {BuoyancyModel::Triangles, BuoyancyModel::Columns}) {
    btTransform pose;
    const SubstepProfile p = sail(model, true, 50, pose);
    EXPECT_EQ(p.substeps, 50u);
    const std::set<SubstepStage> runs = stagesOf(model);
    for (std::size_t i = 0; i < kSubstepStageCount; ++i) {
      const auto stage = SubstepStage(i);
      if (runs.count(stage))
        EXPECT_GT(p[stage], 0.0) << stageName(stage);
      else
        EXPECT_EQ(p[stage], 0.0) << stageName(stage);
    }
    std::printf("[  figure  ] %s: %.2f us a substep, profiled\n",
                model == BuoyancyModel::Columns ? "columns" : "triangles", 1e6 * p.total_s() / double(p.substeps));
  }
}

TEST(Profile, LeavesTheResultsBitForBit) {
  for (const BuoyancyModel model : {BuoyancyModel::Triangles, BuoyancyModel::Columns}) {
    btTransform off, on;
    (void)sail(model, false, 200, off);
    (void)sail(model, true, 200, on);
    EXPECT_EQ(std::memcmp(&off, &on, sizeof(btTransform)), 0);
  }
}

TEST(Profile, StageNamesAreTheEnumerators) {
  EXPECT_STREQ(stageName(SubstepStage::Plan), "Plan");
  EXPECT_STREQ(stageName(SubstepStage::SampleWater), "SampleWater");
  EXPECT_STREQ(stageName(SubstepStage::ColumnBuoyancy), "ColumnBuoyancy");
  EXPECT_STREQ(stageName(SubstepStage::VelocityChange), "VelocityChange");
  std::set<std::string> names;
  for (std::size_t i = 0; i < kSubstepStageCount; ++i) names.insert(stageName(SubstepStage(i)));
  EXPECT_EQ(names.size(), kSubstepStageCount);
}

TEST(Profile, AFleetsProfileIsItsBoatsSum) {
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  WaterFleet fleet(std::make_shared<FlatSurface>(), 1);
  fleet.setProfiling(true);
  for (int i = 0; i < 3; ++i)
    fleet.add(w.addBox(btVector3(2, 1, 1), 500, btTransform(btQuaternion::getIdentity(), btVector3(5 * i, 0, 0))),
              hull);
  w.world.addAction(&fleet);
  for (int i = 0; i < 20; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
  w.world.removeAction(&fleet);
  SubstepProfile sum;
  for (std::size_t i = 0; i < fleet.size(); ++i) sum += fleet.boat(i).profile();
  const SubstepProfile p = fleet.profile();
  EXPECT_EQ(p.substeps, 60u);
  EXPECT_EQ(p.substeps, sum.substeps);
  EXPECT_EQ(p.total_s(), sum.total_s());
  fleet.clearProfile();
  EXPECT_EQ(fleet.profile().substeps, 0u);
  EXPECT_TRUE(fleet.boat(0).profiling());
}

}  // namespace
}  // namespace keel::test
