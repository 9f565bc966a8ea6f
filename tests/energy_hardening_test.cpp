// Boats thrown at hundreds of metres and radians a second, through the
// public WaterAction as a game would: the drag, slamming, air and damping
// terms never raise the kinetic energy relative to the water, on waves as
// on flat water, and the run stays finite (docs/model.md §2, "No energy
// from nowhere").
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace keel::test {
namespace {

/// Kinetic energy [J] of `body` moving at `v` relative to the water and
/// turning at `w` (world inertia).
double kineticEnergy(const btRigidBody& body, const btVector3& v, const btVector3& w) {
  const btVector3 l = body.getInvInertiaTensorWorld().inverse() * w;  // I w
  return 0.5 * double(1 / body.getInvMass()) * double(v.length2()) + 0.5 * double(w.dot(l));
}

TEST(EnergyHardening, DragOnAShallowWaveAddsNoEnergy) {
  // Reported: one prime(1/60) took this box from 9.1e8 J to 5.0e10 J
  // (5.7e10 J with this hull before the fix; status "drag clamped so it
  // cannot reverse the motion"): the per-axis clamp turned the drag into
  // work that the limiter trusted because the water's velocity is not
  // uniform. The wave's orbital flow (1.2 mm/s) could give the box only
  // dt times the drag's force times that.
  World w;
  const btVector3 size(4, 1.5f, 2);
  const auto hull = hullOf(box(size, 3));
  const btTransform pose(btQuaternion(-0.06718f, 0.13339f, -0.89739f, 0.41519f).normalized(),
                         btVector3(-4.935f, 0.758f, -2.822f));
  btRigidBody* body = w.addBox(size, 1230, pose);
  const btVector3 v0(201.35f, -143.41f, -259.36f), w0(-584.77f, 300.25f, -674.03f);
  body->setLinearVelocity(v0);
  body->setAngularVelocity(w0);
  const auto sea = std::make_shared<SineSumSurface>(std::vector<WaveComponent>{deepWaterWave(0.001, 40, 0.3)});
  WaterAction boat(body, hull, sea);
  const btScalar dt = btScalar(1.0 / 60);
  boat.prime(dt);
  // The water under the centre of mass (its orbital velocity is 1.2 mm/s).
  const btVector3 c = pose.getOrigin();
  const btVector3 water = WaterFrame{}.toWorld(sea->velocity(c.x(), c.z(), c.y(), 0));
  // The velocity the conservative forces (pressure, gravity) give: the
  // dissipative terms may only take energy from there.
  const btMatrix3x3& inverseInertia = body->getInvInertiaTensorWorld();
  const btVector3 vBase = v0 - water + (boat.hydrostatics().force_N * body->getInvMass() + w.world.getGravity()) * dt;
  const btVector3 wBase = w0 + inverseInertia * boat.hydrostatics().torque_Nm * dt;
  const ForceTorque drag = boat.hydrodynamics().total();
  const btVector3 dv = drag.force_N * (body->getInvMass() * dt), dw = inverseInertia * drag.torque_Nm * dt;
  const double before = kineticEnergy(*body, vBase, wBase), after = kineticEnergy(*body, vBase + dv, wBase + dw);
  const double total = kineticEnergy(*body, body->getLinearVelocity() - water, body->getAngularVelocity());
  std::printf("[  figure  ] kinetic energy %.4g J; after the water's terms %.4g J (dissipative terms %.4g J), %s\n",
              kineticEnergy(*body, v0 - water, w0), total, after - before, boat.status().describe().c_str());
  ASSERT_TRUE(std::isfinite(total));
  // The velocity change is float: a few 1e-7 of the energy.
  EXPECT_LE(after, before * (1 + 1e-6));
}

struct SpinOutcome {
  double initial_J = 0, highest_J = 0;              ///< kinetic energy at the start, and the most reached
  double initialSpin_radps = 0, topSpin_radps = 0;  ///< spin at the start, and the fastest reached
  bool finite = true;
};

/// A neutrally buoyant 4 x 1 x 2 m box 50 m under flat water, thrown at
/// 765 m/s and spun at 900 rad/s, stepped `substeps` times at 240 Hz on
/// `model` (no action at all when `water` is false). `gyroscopic`: Bullet's
/// implicit gyroscopic term (its default) is on.
SpinOutcome throwDeepBox(bool water, BuoyancyModel model, bool gyroscopic, int substeps) {
  World w;
  const btVector3 size(4, 1, 2);
  const auto hull = hullOf(box(size, 3));
  const btTransform pose(btQuaternion(-0.27535f, -0.28012f, -0.01808f, 0.91945f).normalized(), btVector3(0, -50, 0));
  btRigidBody* body = w.addBox(size, btScalar(1025 * double(hull->volume_m3())), pose);
  if (!gyroscopic) body->setFlags(body->getFlags() & ~BT_ENABLE_GYROSCOPIC_FORCE_IMPLICIT_BODY);
  body->setLinearVelocity(btVector3(642.1f, 387.1f, -152.6f));
  body->setAngularVelocity(btVector3(-337.7f, 834.0f, -68.0f));
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  if (model == BuoyancyModel::Columns) boat.setLevelOfDetail(farBoatSettings(*hull));
  const btScalar dt = btScalar(1.0 / 240);
  SpinOutcome out;
  auto energy = [&] { return kineticEnergy(*body, body->getLinearVelocity(), body->getAngularVelocity()); };
  out.initial_J = out.highest_J = energy();
  out.initialSpin_radps = out.topSpin_radps = double(body->getAngularVelocity().length());
  if (water) {
    w.world.addAction(&boat);
    boat.prime(dt);
  }
  for (int i = 0; i < substeps && out.finite; ++i) {
    w.world.stepSimulation(dt, 1, dt);
    out.finite = std::isfinite(energy());
    out.highest_J = std::max(out.highest_J, energy());
    out.topSpin_radps = std::max(out.topSpin_radps, double(body->getAngularVelocity().length()));
  }
  if (water) w.world.removeAction(&boat);
  return out;
}

TEST(EnergyHardening, ANeutralBoxSpunDeepUnderFlatWaterLosesEnergy) {
  // Reported: 97,000 rad/s in the first substep, non-finite by the twelfth.
  // That first jump is Bullet's own (below); Keel's terms only slow the box.
  // Deep under flat water the pressure is rho g V up and the gravity m g
  // down, equal and through the centre: only the dissipative terms act, so
  // the kinetic energy (the water is still) may only fall.
  for (const BuoyancyModel model : {BuoyancyModel::Triangles, BuoyancyModel::Columns}) {
    // Bullet's implicit gyroscopic step, at 900 rad/s and 240 Hz (3.8 rad a
    // substep), itself raises the energy (the figure below, with no water
    // at all): the columns' damping is too weak to slow the spin before it,
    // so on columns the box is stepped without it.
    const bool gyroscopic = model == BuoyancyModel::Triangles;
    const SpinOutcome o = throwDeepBox(true, model, gyroscopic, 24);
    std::printf("[  figure  ] %s, 24 substeps: kinetic energy at most %.4g J (from %.4g J), spin at most %.4g rad/s\n",
                model == BuoyancyModel::Triangles ? "triangles" : "columns", o.highest_J, o.initial_J, o.topSpin_radps);
    ASSERT_TRUE(o.finite);
    // The velocity change is float: a few 1e-7 of the energy.
    EXPECT_LE(o.highest_J, o.initial_J * (1 + 1e-6));
  }
  // With the gyroscopic step on the columns stay finite too.
  const SpinOutcome columns = throwDeepBox(true, BuoyancyModel::Columns, true, 24);
  EXPECT_TRUE(columns.finite);
  const SpinOutcome bullet = throwDeepBox(false, BuoyancyModel::Triangles, true, 1);
  std::printf("[  figure  ] no water, Bullet's gyroscopic step: %.4g rad/s after one substep from %.4g rad/s\n",
              bullet.topSpin_radps, bullet.initialSpin_radps);
}

}  // namespace
}  // namespace keel::test
