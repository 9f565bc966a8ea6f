// The added mass as Bullet integrates it (docs/integration.md, "Added
// mass"): the water's force, gravity and the user's forces solved with
// (M + A), gravity on the body's own mass, contacts that see the water the
// body carries, the body's own mass kept and given back, no energy gained
// when a body leaves the water.
#include "bit_hash.hpp"
#include "test_hulls.hpp"

#include <keel/keel.hpp>

#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

namespace keel::test {
namespace {

constexpr btScalar kRho = 1000;  // fresh water [kg/m^3]
constexpr btScalar kStep_s = btScalar(1.0 / 60);

/// A sphere body of relative density `s` (to its hull's volume) at `centre`.
struct SphereBoat {
  SphereBoat(World& w, btScalar radius_m, double s, const btVector3& centre, bool addedMass) {
    hull = hullOf(icosphere(radius_m, 3));
    mass_kg = btScalar(s * double(kRho) * hull->volume_m3());
    shape = std::make_unique<btSphereShape>(radius_m);
    btVector3 inertia;
    shape->calculateLocalInertia(mass_kg, inertia);
    btRigidBody::btRigidBodyConstructionInfo info(mass_kg, nullptr, shape.get(), inertia);
    info.m_startWorldTransform = btTransform(btQuaternion::getIdentity(), centre);
    body = std::make_unique<btRigidBody>(info);
    body->setActivationState(DISABLE_DEACTIVATION);
    w.world.addRigidBody(body.get());
    HydrostaticSettings statics;
    statics.waterDensity_kgpm3 = kRho;
    action = std::make_unique<WaterAction>(body.get(), hull, std::make_shared<LevelWater>(0), statics);
    HydrodynamicSettings h = HydrodynamicSettings::none();
    h.addedMass = addedMass;
    action->setHydrodynamics(h);
    w.world.addAction(action.get());
    action->prime(kStep_s);
    world = &w.world;
  }
  ~SphereBoat() {
    world->removeAction(action.get());
    action.reset();
    world->removeRigidBody(body.get());
  }
  std::shared_ptr<const Hull> hull;
  btScalar mass_kg = 0;
  std::unique_ptr<btSphereShape> shape;
  std::unique_ptr<btRigidBody> body;
  std::unique_ptr<WaterAction> action;
  btDiscreteDynamicsWorld* world = nullptr;
};

/// The vertical acceleration [m/s^2] of a sphere of relative density `s`
/// released from rest 20 m deep, over its first 1/3 s at 60 Hz (the
/// lightest, without added mass, rises 5 m in it).
double deepAcceleration(double s, bool addedMass) {
  World w;
  SphereBoat boat(w, btScalar(0.5), s, btVector3(0, -20, 0), addedMass);
  for (int i = 0; i < 20; ++i) w.world.stepSimulation(kStep_s, 1, kStep_s);
  return double(boat.action->linearVelocity_mps().y()) / (20 * double(kStep_s));
}

TEST(AddedMassAction, DeepSphereAcceleratesAsLambSays) {
  // Lamb, "Hydrodynamics" §92: a sphere's added mass is rho V / 2, so one
  // released from rest accelerates at g (1 - s) / (s + 1/2).
  for (const double s : {0.1, 0.25, 0.5, 0.9, 1.5, 2.0}) {
    const double expected = double(kG) * (1 - s) / (s + 0.5);
    const double measured = deepAcceleration(s, true);
    const double without = deepAcceleration(s, false);
    std::printf(
        "[  figure  ] s = %.2f: a = %+.5f m/s^2 with added mass (Lamb %+.5f), %+.4f without (g (1-s)/s %+.4f)\n", s,
        measured, expected, without, double(kG) * (1 - s) / s);
    EXPECT_NEAR(measured, expected, 1e-4 * std::abs(expected)) << "s = " << s;
    EXPECT_NEAR(without, double(kG) * (1 - s) / s, 1e-3 * std::abs(without)) << "s = " << s;
  }
}

TEST(AddedMassAction, TheBodyKeepsItsOwnMassAndGetsItBack) {
  World w;
  auto boat = std::make_unique<SphereBoat>(w, btScalar(0.5), 0.5, btVector3(0, -5, 0), true);
  const btScalar own = boat->mass_kg;
  const btVector3 ownInertia = boat->body->getLocalInertia();
  for (int i = 0; i < 3; ++i) w.world.stepSimulation(kStep_s, 1, kStep_s);
  // Bullet integrates and collides the body with its water: rho V / 2 more.
  const double water = double(kRho) * boat->hull->volume_m3() / 2;
  EXPECT_NEAR(double(boat->body->getMass()), double(own) + water, 1e-3 * water);
  EXPECT_EQ(boat->action->ownMass_kg(), own);
  EXPECT_NEAR(boat->action->addedMass()(1, 1), water, 1e-3 * water);
  // A mass the user sets meanwhile is taken as the body's own.
  boat->body->setMassProps(2 * own, 2 * ownInertia);
  w.world.stepSimulation(kStep_s, 1, kStep_s);
  EXPECT_EQ(boat->action->ownMass_kg(), 2 * own);
  EXPECT_NEAR(double(boat->body->getMass()), 2 * double(own) + water, 1e-3 * water);
  // Off: the user's mass and inertia back, bit for bit, and gravity on it.
  HydrodynamicSettings h = boat->action->hydrodynamicSettings();
  h.addedMass = false;
  boat->action->setHydrodynamics(h);
  EXPECT_EQ(boat->body->getMass(), 2 * own);
  EXPECT_EQ(boat->body->getLocalInertia(), 2 * ownInertia);
  w.world.stepSimulation(kStep_s, 1, kStep_s);
  EXPECT_TRUE(boat->action->addedMass().isZero());
  // On again, then the action goes: the body keeps its own mass.
  h.addedMass = true;
  boat->action->setHydrodynamics(h);
  w.world.stepSimulation(kStep_s, 1, kStep_s);
  EXPECT_GT(boat->body->getMass(), 2 * own);
  btRigidBody* body = boat->body.get();
  boat->world->removeAction(boat->action.get());
  boat->action.reset();
  EXPECT_EQ(body->getMass(), 2 * own);
  EXPECT_EQ(body->getLocalInertia(), 2 * ownInertia);
}

/// The normal force [N] the static bodies' contacts give `body` in the last substep.
double contactForce_N(btDiscreteDynamicsWorld& world, const btRigidBody* body) {
  double impulse = 0;
  btDispatcher* d = world.getDispatcher();
  for (int m = 0; m < d->getNumManifolds(); ++m) {
    const btPersistentManifold* manifold = d->getManifoldByIndexInternal(m);
    if (manifold->getBody0() != body && manifold->getBody1() != body) continue;
    for (int p = 0; p < manifold->getNumContacts(); ++p)
      impulse += double(manifold->getContactPoint(p).getAppliedImpulse());
  }
  return impulse / double(kStep_s);
}

TEST(AddedMassAction, ContactsHoldTheWeightLessTheBuoyancy) {
  // A sphere twice as dense as the water at rest on the bottom, 5 m deep:
  // the bottom pushes up with its weight less its buoyancy, (m - rho V) g,
  // whatever the water it carries. Were Bullet's mass the body's own, the
  // contact would stop only m / (m + A) of the velocity the water's force
  // and gravity give it each substep, and hold that much of the weight.
  for (const bool addedMass : {false, true}) {
    World w;
    btStaticPlaneShape ground(btVector3(0, 1, 0), -5);
    btRigidBody bottom(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &ground));
    w.world.addRigidBody(&bottom);
    SphereBoat boat(w, btScalar(0.5), 2.0, btVector3(0, -4.5, 0), addedMass);
    for (int i = 0; i < 120; ++i) w.world.stepSimulation(kStep_s, 1, kStep_s);
    const double expected = double(boat.mass_kg - kRho * boat.hull->volume_m3()) * double(kG);
    const double measured = contactForce_N(w.world, boat.body.get());
    std::printf("[  figure  ] added mass %s: the bottom holds %.3f N, (m - rho V) g = %.3f N\n",
                addedMass ? "on " : "off", measured, expected);
    EXPECT_NEAR(measured, expected, 1e-3 * expected);
    w.world.removeRigidBody(&bottom);
  }
}

/// The highest the sphere's centre rises [m] once released from rest,
/// `depth_m` under water, and the energy bound on it: its initial energy
/// (the hydrostatic potential rho g times the depth integral, plus m g z)
/// over m g, what it would reach were no energy left in the water.
void breach(double s, bool addedMass, double& apex_m, double& bound_m) {
  World w;
  const btScalar start = -2;
  SphereBoat boat(w, btScalar(0.25), s, btVector3(0, start, 0), addedMass);
  const double m = double(boat.mass_kg), g = double(kG);
  const HydrostaticResult r = boat.action->hydrostatics();
  bound_m = (m * g * double(start) + double(kRho) * g * double(r.depthIntegral_m4)) / (m * g);
  apex_m = double(start);
  for (int i = 0; i < 240; ++i) {
    w.world.stepSimulation(kStep_s, 1, kStep_s);
    apex_m = std::max(apex_m, double(boat.body->getCenterOfMassPosition().y()));
  }
}

TEST(AddedMassAction, ABodyLeavingTheWaterGainsNoEnergy) {
  // A light sphere rises, breaches and flies: the water it carried keeps
  // its momentum (the sphere does not gain it), so it rises less high than
  // without added mass, and never above its energy's bound.
  for (const double s : {0.2, 0.5}) {
    double apexOn = 0, apexOff = 0, bound = 0;
    breach(s, true, apexOn, bound);
    breach(s, false, apexOff, bound);
    std::printf("[  figure  ] s = %.1f: apex %.4f m with added mass, %.4f m without; energy bound %.4f m\n", s, apexOn,
                apexOff, bound);
    EXPECT_LT(apexOn, apexOff);
    EXPECT_LE(apexOn, bound);
    EXPECT_GT(apexOn, 0.25);  // it did breach
  }
}

/// Hashes the body's pose, velocities and the mass Bullet holds.
std::uint64_t bodyHash(const btRigidBody& body) {
  Fnv1a h;
  h.add(body.getCenterOfMassPosition());
  h.add(body.getOrientation().x()), h.add(body.getOrientation().y()), h.add(body.getOrientation().z());
  h.add(body.getOrientation().w());
  h.add(body.getLinearVelocity()), h.add(body.getAngularVelocity());
  h.add(body.getInvMass()), h.add(body.getInvInertiaDiagLocal());
  return h.hash;
}

TEST(AddedMassAction, RollbackPutsTheSavedMassBackOnTheBody) {
  // A light sphere dropped onto the water: its added mass changes every
  // substep as it bobs. Saved, run, restored (the body's Bullet state by
  // the game, Keel's by restoreState) and run again: the same bits.
  World w;
  SphereBoat boat(w, btScalar(0.3), 0.2, btVector3(0, btScalar(0.2), 0), true);
  for (int i = 0; i < 10; ++i) w.world.stepSimulation(kStep_s, 1, kStep_s);
  const WaterActionState saved = boat.action->saveState();
  const btTransform pose = boat.body->getCenterOfMassTransform();
  const btVector3 v = boat.body->getLinearVelocity(), omega = boat.body->getAngularVelocity();
  const btScalar inverseMass = boat.body->getInvMass();
  std::uint64_t first[20];
  for (std::uint64_t& h : first) {
    w.world.stepSimulation(kStep_s, 1, kStep_s);
    h = bodyHash(*boat.body);
  }
  EXPECT_NE(boat.body->getInvMass(), inverseMass);  // the water it carries changed
  boat.body->setCenterOfMassTransform(pose);
  boat.body->setLinearVelocity(v);
  boat.body->setAngularVelocity(omega);
  boat.action->restoreState(saved);
  EXPECT_EQ(boat.body->getInvMass(), inverseMass);
  for (const std::uint64_t h : first) {
    w.world.stepSimulation(kStep_s, 1, kStep_s);
    EXPECT_EQ(bodyHash(*boat.body), h);
  }
}

}  // namespace
}  // namespace keel::test
