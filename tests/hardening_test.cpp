// What an outside audit threw at the substep: boats spun at hundreds of
// radians per second, water heights no sea has, and substeps that apply no
// force. The drag and damping terms may never add kinetic energy, no
// implausible height may fling a boat, and the telemetry must describe the
// substep it reports (docs/model.md §2, "Stability", and §4).
#include "substep/substep.hpp"
#include "test_hulls.hpp"
#include "water/patch_sampler.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace keel::test {
namespace {

/// Two 6 x 1 x 1.2 m hulls 3 m apart: a catamaran, one hull of two parts.
Mesh catamaran() {
  Mesh m = box(btVector3(6, 1, 1.2f), 2, btVector3(0, 0, -1.5f));
  const Mesh other = box(btVector3(6, 1, 1.2f), 2, btVector3(0, 0, 1.5f));
  const auto offset = std::uint32_t(m.vertices.size());
  m.vertices.insert(m.vertices.end(), other.vertices.begin(), other.vertices.end());
  for (const auto& t : other.triangles) m.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  return m;
}

/// Kinetic energy [J] of mass m and world inertia I (given as its inverse)
/// moving at v relative to the water and turning at w.
double kineticEnergy(double mass, const btMatrix3x3& inverseInertia, const btVector3& v, const btVector3& w) {
  const btVector3 l = inverseInertia.inverse() * w;  // I w
  return 0.5 * mass * double(v.length2()) + 0.5 * double(w.dot(l));
}

TEST(Hardening, DragNeverAddsKineticEnergyAtRandomStates) {
  // Random poses through the waterline, velocities up to 1000 m/s and
  // 1000 rad/s, still water and a uniform current: the velocity change of
  // the drag and damping terms never raises the kinetic energy relative to
  // the water above what the conservative forces (buoyancy, gravity) give.
  const auto hull = hullOf(catamaran());
  const double mass = 0.5 * 1025 * double(hull->volume_m3());
  btVector3 inertia;
  btBoxShape(btVector3(3, 0.5f, 2.1f)).calculateLocalInertia(btScalar(mass), inertia);
  HydrodynamicSettings dynamics;
  dynamics.damping = true;
  dynamics.linearDamping_Nspm = 2e3f;
  dynamics.angularDamping_Nmsprad = 2e3f;
  const HydrostaticSettings statics;
  std::mt19937 random(2026);
  std::uniform_real_distribution<float> unit(-1, 1);
  int limited = 0, states = 0;
  for (int waterKind = 0; waterKind < 2; ++waterKind) {
    const btVector3 current = waterKind == 0 ? btVector3(0, 0, 0) : btVector3(1.5f, 0, -0.5f);
    const FlatSurface water(0, UniformCurrent{double(current.x()), double(current.z())});
    const detail::BoatModel boat{*hull, water, statics, dynamics};
    detail::BoatState state;
    state.allocate(*hull, statics);
    for (int trial = 0; trial < 1000; ++trial, ++states) {
      const btVector3 axis = btVector3(unit(random), unit(random), unit(random)).normalized();
      const btQuaternion q(axis, 3.2f * unit(random));
      detail::BodySnapshot body;
      body.centreOfMass = btTransform(q, btVector3(0, 1.2f * unit(random), 0));
      const float speed = 1000 * std::abs(unit(random)), spin = 1000 * std::abs(unit(random));
      body.linearVelocity_mps = btVector3(unit(random), unit(random), unit(random)).normalized() * speed;
      body.angularVelocity_radps = btVector3(unit(random), unit(random), unit(random)).normalized() * spin;
      body.inverseMass_pkg = btScalar(1 / mass);
      const btMatrix3x3 r(q);
      body.inverseInertia = r.scaled(btVector3(1 / inertia.x(), 1 / inertia.y(), 1 / inertia.z())) * r.transpose();
      body.gravity_mps2 = btVector3(0, -kG, 0);
      body.linearFactor = body.angularFactor = btVector3(1, 1, 1);
      const btScalar dt = btScalar(1.0 / 240);
      ASSERT_TRUE(detail::runSubstep(boat, state, body, dt, 0)) << state.status.describe();
      const ForceTorque drag = state.hydrodynamics.total();
      ASSERT_TRUE(std::isfinite(state.pendingLinear_mps.length()) &&
                  std::isfinite(state.pendingAngular_radps.length()));
      // From the velocity the conservative forces (buoyancy, gravity) give.
      const btVector3 v = body.linearVelocity_mps - (state.anyWet ? current : btVector3(0, 0, 0)) +
                          (state.hydrostatics.force_N * body.inverseMass_pkg + body.gravity_mps2) * dt;
      const btVector3 w = body.angularVelocity_radps + body.inverseInertia * state.hydrostatics.torque_Nm * dt;
      const btVector3 dv = drag.force_N * (body.inverseMass_pkg * dt);
      const btVector3 dw = body.inverseInertia * drag.torque_Nm * dt;
      const double before = kineticEnergy(mass, body.inverseInertia, v, w);
      const double after = kineticEnergy(mass, body.inverseInertia, v + dv, w + dw);
      // Float rounding of the velocity change: a few 1e-7 of the energy.
      ASSERT_LE(after, before * (1 + 1e-6))
          << "trial " << trial << ", water " << waterKind << ", |v| " << speed << ", |w| " << spin;
      limited += state.hydrodynamics.energyScale < 1;
    }
  }
  std::printf("[  figure  ] %d of %d random states needed the drag limited to stay dissipative\n", limited, states);
  EXPECT_GT(limited, 0);  // the states are extreme enough to need it
}

struct SpinOutcome {
  double topSpeed_mps = 0;  ///< greatest speed reached
  double energyRatio = 0;   ///< greatest mechanical energy over the initial
};

/// Steps a catamaran of `relativeDensity` at rest on flat water, given a
/// roll of `roll` and a yaw of `yaw` [rad/s], for `seconds` at 60 Hz in
/// `substeps` substeps a frame. Its mechanical energy (kinetic,
/// gravitational, and the water's pressure potential rho g int d dV) can
/// only fall: buoyancy is conservative and every other term drags.
SpinOutcome spinCatamaran(btScalar roll, btScalar yaw, double seconds, int substeps, double relativeDensity) {
  World w;
  const auto hull = hullOf(catamaran());
  const btScalar mass = btScalar(relativeDensity * 1025 * hull->volume_m3());
  btRigidBody* body = w.addBox(btVector3(6, 1, 4.2f), mass,
                               btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0)));
  body->setAngularVelocity(btVector3(roll, yaw, 0));
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  w.world.addAction(&boat);
  auto energy = [&] {
    const btVector3 v = boat.linearVelocity_mps();
    const btVector3 om = boat.angularVelocity_radps();
    const double rotational = double(om.dot(body->getInvInertiaTensorWorld().inverse() * om));
    return 0.5 * double(mass) * double(v.length2()) + 0.5 * rotational +
           double(mass) * double(kG) * double(body->getCenterOfMassPosition().y()) +
           1025 * double(kG) * double(boat.hydrostatics().depthIntegral_m4);
  };
  boat.prime(btScalar(1.0 / (60 * substeps)));
  const double initial = energy();
  SpinOutcome out;
  for (int i = 0; i < int(seconds * 60); ++i) {
    w.world.stepSimulation(btScalar(1.0 / 60), substeps, btScalar(1.0 / (60 * substeps)));
    const double speed = double(body->getLinearVelocity().length());
    if (!std::isfinite(speed) || !std::isfinite(energy())) return {std::numeric_limits<double>::infinity(), 1e300};
    out.topSpeed_mps = std::max(out.topSpeed_mps, speed);
    out.energyRatio = std::max(out.energyRatio, energy() / initial);
  }
  w.world.removeAction(&boat);
  return out;
}

TEST(Hardening, ASpunCatamaranGainsNoEnergy) {
  // Reported: rolled at 300 rad/s from standstill, 634 m/s; non-finite
  // within 3 frames (roll) and 6 (yaw) at 1000 rad/s. Before the
  // dissipation limit, 16 of these 36 runs gained energy, 11 of them more
  // than tenfold and some to infinity. Now every run stays finite, and at
  // 240 Hz none gains energy. At 60 and 120 Hz a hull spun at 1000 rad/s
  // turns 8 to 16 rad per substep: the buoyancy, conservative in continuous
  // time, is then sampled at unrelated orientations, and its explicit
  // integration can still pump energy (docs/model.md §2); the drag cannot.
  double worst = 0, worst240 = 0, fastest = 0;
  for (const int substeps : {1, 2, 4})
    for (const double density : {0.1, 0.25, 0.4, 0.6})
      for (const auto& [roll, yaw] : {std::pair<btScalar, btScalar>{300, 0}, {1000, 0}, {0, 1000}}) {
        const SpinOutcome o = spinCatamaran(roll, yaw, 2, substeps, density);
        EXPECT_TRUE(std::isfinite(o.topSpeed_mps)) << substeps << " " << density << " " << roll << " " << yaw;
        worst = std::max(worst, o.energyRatio), fastest = std::max(fastest, o.topSpeed_mps);
        if (substeps == 4) worst240 = std::max(worst240, o.energyRatio);
      }
  std::printf(
      "[  figure  ] 36 spun catamarans: energy at most %.4f of the start at 240 Hz, %.4g at any rate; "
      "top speed %.3g m/s\n",
      worst240, worst, fastest);
  // Bullet's integrator moves the buoyancy's work by a little per substep.
  EXPECT_LE(worst240, 1.001);
}

/// A 2 x 1 x 1 m box of 1 t floating at rest on water that is flat but at
/// one vertex, where it stands `spike` [m] high; returns the velocity
/// change of the first substep [m/s] and the boat's status.
std::pair<double, WaterStatus> oneSpikedCorner(btScalar spike) {
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 1000, btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0)));
  WaterAction boat(body, hull, [spike](btScalar x, btScalar z, btScalar) {
    return x > 0.9f && z > 0.4f ? spike : btScalar(0);  // only the corner (1, ., 0.5)
  });
  boat.prime(btScalar(1.0 / 240));
  return {double(boat.pendingLinearVelocity_mps().length() + boat.pendingAngularVelocity_radps().length()),
          boat.status()};
}

TEST(Hardening, ImplausibleWaterHeightsAreReplacedAndReported) {
  // Reported: a corner at 1e30 m gave status "ok" and 8e28 m/s; at 1e4 m,
  // 900 m/s. Any sea is within 100 m of the hull's reach.
  const auto reference = oneSpikedCorner(0);
  for (const btScalar spike : {btScalar(1e30), btScalar(1e4), btScalar(-1e30)}) {
    const auto [change, status] = oneSpikedCorner(spike);
    std::printf("[  figure  ] one corner at %g m: velocity change %.3g m/s, %s\n", double(spike), change,
                status.describe().c_str());
    EXPECT_TRUE(status.flags & StatusImplausibleHeight) << spike;
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(status.implausibleHeights, 2u) << "both vertices of the corner's edge";
    EXPECT_NEAR(change, reference.first, 1e-3) << "the replaced heights are the flat water's";
  }
}

TEST(Hardening, AHullDeepUnderTheWaterKeepsArchimedes) {
  // Every height 1e4 m above the hull: nothing implausible, the hull is
  // deep under the water, and a closed hull's force is rho g V at any depth.
  const auto hull = hullOf(box(btVector3(2, 1, 1), 3));
  PoseQuery q;
  q.gravity_mps2 = btVector3(0, -kG, 0);
  for (const double depth : {10.0, 1e4, 1e8}) {
    const PoseHydrostatics h = hydrostaticsAtPose(*hull, btTransform::getIdentity(), FlatSurface(depth), q);
    const double expected = 1025 * double(kG) * 2;
    EXPECT_NEAR(h.pressure.force_N.y(), expected, 1e-5 * expected) << depth;
  }
}

TEST(Hardening, SkippedSubstepsClearTheTelemetry) {
  // Reported: a submerged volume of 1.817 m^3 through 240 skipped substeps.
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500, btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0)));
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  w.world.addAction(&boat);
  for (int i = 0; i < 10; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  ASSERT_GT(boat.hydrostatics().submergedVolume_m3, 0.1f);
  w.world.removeRigidBody(body);
  body->setMassProps(0, btVector3(0, 0, 0));  // now static
  w.world.addRigidBody(body);
  w.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  EXPECT_TRUE(boat.status().flags & StatusStaticBody);
  EXPECT_EQ(boat.hydrostatics().submergedVolume_m3, 0);
  EXPECT_EQ(boat.totalForce().force_N, btVector3(0, 0, 0));
  EXPECT_TRUE(boat.submergedPieces().empty());
  boat.updateAction(&w.world, 0);  // a bad time step
  EXPECT_EQ(boat.hydrostatics().submergedVolume_m3, 0);
  w.world.removeAction(&boat);
}

TEST(Hardening, PatchSamplingFarFromTheOriginFailsGracefully) {
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500,
                               btTransform(btQuaternion::getIdentity(), btVector3(1e30f, 0, 0)));
  HydrostaticSettings settings;
  settings.sampling = Sampling::Patch;
  WaterAction boat(body, hull, std::make_shared<FlatSurface>(), settings);
  boat.prime(btScalar(1.0 / 240));
  EXPECT_EQ(boat.status().flags, StatusOutOfRange) << boat.status().describe();
  EXPECT_EQ(boat.pendingLinearVelocity_mps(), btVector3(0, 0, 0));
  detail::PatchSampler patch;
  patch.configure(0.5f, 2);
  EXPECT_THROW(patch.sample(FlatSurface(), 1e30, 0, 0), std::out_of_range);
  EXPECT_THROW(patch.sample(FlatSurface(), 0, std::numeric_limits<double>::quiet_NaN(), 0), std::out_of_range);
}

TEST(Hardening, NoFiniteHeightIsNotAlsoReportedAsReplaced) {
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 500, btTransform::getIdentity());
  WaterAction boat(body, hull, [](btScalar, btScalar, double) { return std::numeric_limits<btScalar>::quiet_NaN(); });
  boat.prime(btScalar(1.0 / 240));
  const std::string text = boat.status().describe();
  EXPECT_NE(text.find("no finite water height"), std::string::npos) << text;
  EXPECT_EQ(text.find("(replaced)"), std::string::npos) << text;
}

}  // namespace
}  // namespace keel::test
