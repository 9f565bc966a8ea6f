// The examples of docs/integration.md run: debug drawing through Bullet,
// the HUD's heel, trim and draft, far boats on columns, a boat of parts.
#include "debug_drawer.hpp"
#include "far_boats.hpp"
#include "fleet_world.hpp"
#include "hud.hpp"
#include "test_hulls.hpp"
#include "union_boat.hpp"

#include <gtest/gtest.h>

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr double kDeg = 3.14159265358979323846 / 180;

/// A 4 m x 1 m x 2 m box floating at draft T = 0.25 m on flat water at 0,
/// its hull and its action in `world`.
struct Pontoon {
  static constexpr btScalar L = 4, D = 1, B = 2, T = 0.25f;
  explicit Pontoon(const btQuaternion& q = btQuaternion::getIdentity())
      : body(world.addBox(btVector3(L, D, B), mass(), btTransform(q, btVector3(0, D / 2 - T, 0)))),
        boat(body, hullOf(box(btVector3(L, D, B), 2)), water) {
    boat.prime(btScalar(1.0 / 240));
    world.world.addAction(&boat);
  }
  ~Pontoon() { world.world.removeAction(&boat); }
  static btScalar mass() { return btScalar(kRho) * L * B * T; }
  World world;
  btRigidBody* body;
  std::shared_ptr<const WaterSurface> water = std::make_shared<FlatSurface>(0.0);
  WaterAction boat;
};

bool sameColour(const btVector3& a, const btVector3& b) { return a.distance(b) < 1e-6f; }

int linesOf(const game::LineList& drawer, const btVector3& colour) {
  int n = 0;
  for (const auto& line : drawer.lines) n += sameColour(line.colour, colour) ? 1 : 0;
  return n;
}

TEST(Examples, DebugDrawingShowsKeelsLinesOnlyInTheModesThatCallActions) {
  Pontoon p;
  p.world.world.stepSimulation(btScalar(1.0 / 60), 4, btScalar(1.0 / 240));
  const btVector3 orange(1, 0.5f, 0), white(1, 1, 1), blue(0.1f, 0.4f, 1);
  game::LineList drawer;
  game::drawDebug(p.world.world, drawer);
  EXPECT_GT(linesOf(drawer, white), 0);   // Bullet's wireframe of the box
  EXPECT_GT(linesOf(drawer, blue), 0);    // Keel's submerged pieces
  EXPECT_GT(linesOf(drawer, orange), 0);  // Keel's waterline: its own colour
  // The waterline lies on the water, around the box.
  for (const auto& line : drawer.lines)
    if (sameColour(line.colour, orange)) {
      EXPECT_NEAR(line.from.y(), 0, 1e-4);
    }
  // Without DBG_DrawWireframe, DBG_DrawAabb or DBG_DrawNormals Bullet never calls the action.
  drawer.setDebugMode(btIDebugDraw::DBG_DrawContactPoints | btIDebugDraw::DBG_DrawConstraints);
  game::drawDebug(p.world.world, drawer);
  EXPECT_EQ(linesOf(drawer, orange), 0);
  for (int mode : {btIDebugDraw::DBG_DrawAabb, btIDebugDraw::DBG_DrawNormals}) {
    drawer.setDebugMode(mode);
    game::drawDebug(p.world.world, drawer);
    EXPECT_GT(linesOf(drawer, orange), 0) << mode;
  }
}

TEST(Examples, HudReadsTheHeelTrimAndDraftOfAnAnalyticPose) {
  Pontoon level;
  EXPECT_EQ(game::hudLine(level.boat), "heel 0.0 deg  trim 0.0 deg  draft 0.25 m");
  Pontoon heeled(btQuaternion(btVector3(1, 0, 0), btScalar(10 * kDeg)));
  // The lowest corner of the heeled box: half its depth and half its beam, turned.
  const double lowest = Pontoon::T - Pontoon::D / 2 + Pontoon::D / 2 * std::cos(10 * kDeg) +
                        Pontoon::B / 2 * std::sin(10 * kDeg);
  char expected[64];
  std::snprintf(expected, sizeof expected, "heel 10.0 deg  trim 0.0 deg  draft %.2f m", lowest);
  EXPECT_EQ(game::hudLine(heeled.boat), expected);
  Pontoon trimmed(btQuaternion(btVector3(0, 0, 1), btScalar(-3 * kDeg)));  // bow down
  EXPECT_EQ(game::hudLine(trimmed.boat).substr(0, 28), "heel 0.0 deg  trim -3.0 deg ");
}

TEST(Examples, FarBoatsGoOnColumnsAndBack) {
  Pontoon p;
  const LevelOfDetail nearDetail = fullDetailSettings();
  const btVector3 boat = p.body->getCenterOfMassPosition();
  EXPECT_FALSE(game::chooseDetail(p.boat, nearDetail, boat + btVector3(100, 0, 0), 200, 300));
  EXPECT_TRUE(game::chooseDetail(p.boat, nearDetail, boat + btVector3(400, 0, 0), 200, 300));
  EXPECT_EQ(p.boat.settings().sampling, Sampling::Patch);
  EXPECT_TRUE(game::chooseDetail(p.boat, nearDetail, boat + btVector3(250, 0, 0), 200, 300));  // between: stays
  for (int i = 0; i < 240; ++i) p.world.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  // Floats at the same draft on columns (a box: exact).
  EXPECT_NEAR(p.boat.draft_m(), Pontoon::T, 1e-3f);
  EXPECT_FALSE(game::chooseDetail(p.boat, nearDetail, boat, 200, 300));
  EXPECT_EQ(p.boat.settings().sampling, HydrostaticSettings{}.sampling);  // back to a new boat's
}

TEST(Examples, UnionBoatFloatsOnItsColumns) {
  // A 4 x 1 x 2 m hull box and a cabin sunk 0.3 m into its deck, its sides
  // on the default grid's cell lines (exact columns), as one Bullet mesh.
  const btScalar length = btScalar(20.0 / 13), width = btScalar(10.0 / 13);
  const auto mesh = toBullet(joined(box(btVector3(4, 1, 2), 2, btVector3(0, btScalar(0.3), 0)),
                                    box(btVector3(length, btScalar(0.6), width), 1, btVector3(0, btScalar(0.8), 0))));
  const auto hull = game::unionHull(*mesh);
  EXPECT_TRUE(hull->partsOverlap());
  const double cabin = double(length) * double(width), rho = 1025;
  EXPECT_NEAR(game::massForDraftOnColumns(*hull, 0.4), rho * 8 * 0.4, 1e-6 * rho * 8);
  EXPECT_NEAR(game::massForDraftOnColumns(*hull, 1.15), rho * (8 + cabin * 0.15), 1e-6 * rho * 8);
  EXPECT_THROW((void)massForDraft_kg(*hull, 0.4, rho), std::invalid_argument);
}

/// Puts Bullet's broadphase margin back when a test ends: it is the program's.
struct MarginGuard {
  btScalar before = gDbvtMargin;
  ~MarginGuard() { gDbvtMargin = before; }
};

/// What a fleet's run leaves: each body's pose and velocities, the share of
/// moved boxes whose leaf was taken out of the tree and put back (Bullet's
/// running ratio, averaged over the steps), the broadphase's pairs at the
/// end and the contact points found in all steps.
struct FleetRun {
  std::vector<btTransform> poses;
  std::vector<btVector3> velocities;
  double leafUpdates = 0;
  int pairs = 0, contacts = 0;
};

/// 4 x 4 far boats, 10 x 2.5 x 3.5 m boxes, on six Gerstner waves of Hs 1.5 m
/// for 4 s at 60 Hz: in rows 14 m apart end to end, and side by side 0.6 m
/// apart, near enough for 0.5 m leaves to overlap, far enough not to touch.
FleetRun floatFleet() {
  World w;
  const btVector3 size(10, 2.5f, 3.5f);
  const auto hull = hullOf(box(size, 2));
  WaterFleet fleet(gerstnerSea(1.5, 6.0, 6, 5, 0.7), 1);
  for (int i = 0; i < 16; ++i) {
    const btVector3 at(btScalar(14 * (i % 4)), 0, btScalar(4.1 * (i / 4)));
    btRigidBody* body = w.addBox(size, btScalar(0.4 * kRho) * hull->volume_m3(),
                                 btTransform(btQuaternion::getIdentity(), at));
    fleet.add(body, hull).setLevelOfDetail(farBoatSettings(*hull));
  }
  w.world.addAction(&fleet);
  fleet.prime(btScalar(1.0 / 60));
  FleetRun run;
  const int steps = 240;
  for (int step = 0; step < steps; ++step) {
    w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
    run.leafUpdates += double(w.broadphase.m_updates_ratio) / steps;
    for (int m = 0; m < w.dispatcher.getNumManifolds(); ++m)
      run.contacts += w.dispatcher.getManifoldByIndexInternal(m)->getNumContacts();
  }
  w.world.removeAction(&fleet);
  for (const auto& b : w.bodies) {
    run.poses.push_back(b->getWorldTransform());
    run.velocities.push_back(b->getLinearVelocity());
    run.velocities.push_back(b->getAngularVelocity());
  }
  run.pairs = w.broadphase.getOverlappingPairCache()->getNumOverlappingPairs();
  return run;
}

template <class T>
bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

TEST(Examples, ABroadphaseMarginMovesFewerLeavesAndLeavesBoatsApartBitwiseTheSame) {
  const MarginGuard guard;
  const FleetRun standard = floatFleet();
  EXPECT_EQ(game::setBroadphaseMargin(0.5f), guard.before);
  const FleetRun wide = floatFleet();
  reportValue("leaves moved a step, Bullet's margin (0.05 m)", standard.leafUpdates);
  reportValue("leaves moved a step, a 0.5 m margin", wide.leafUpdates);
  reportValue("broadphase pairs at the end, a 0.5 m margin", wide.pairs);
  // The wider leaves of the boats side by side overlap; no box touches another.
  EXPECT_EQ(standard.pairs, 0);
  EXPECT_GT(wide.pairs, 0);
  EXPECT_EQ(standard.contacts + wide.contacts, 0);
  EXPECT_LT(wide.leafUpdates, standard.leafUpdates / 4);
  EXPECT_TRUE(sameBits(standard.poses, wide.poses));
  EXPECT_TRUE(sameBits(standard.velocities, wide.velocities));
}

/// Two 10 x 2.5 x 3.5 m boxes of 10 t in a world without gravity, end to end
/// 2 m apart, the first at `speed_mps` towards the second for 1 s.
struct Collision {
  btScalar first_mps = 0, second_mps = 0;  ///< their speeds along the line at the end
  btScalar deepest_m = 0;                  ///< the deepest they overlapped at any step
};

Collision collide(btScalar speed_mps) {
  World w(btVector3(0, 0, 0));
  const btVector3 size(10, 2.5f, 3.5f);
  btRigidBody* a = w.addBox(size, 1e4f, btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 0)));
  btRigidBody* b = w.addBox(size, 1e4f, btTransform(btQuaternion::getIdentity(), btVector3(12, 0, 0)));
  for (btRigidBody* body : {a, b}) body->setActivationState(DISABLE_DEACTIVATION);
  a->setLinearVelocity(btVector3(speed_mps, 0, 0));
  Collision c;
  for (int step = 0; step < 60; ++step) {
    w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
    c.deepest_m = std::max(c.deepest_m, a->getCenterOfMassPosition().x() + size.x() - b->getCenterOfMassPosition().x());
  }
  c.first_mps = a->getLinearVelocity().x();
  c.second_mps = b->getLinearVelocity().x();
  return c;
}

TEST(Examples, ABroadphaseMarginMissesNoCollision) {
  const MarginGuard guard;
  for (const btScalar speed : {btScalar(3), btScalar(12), btScalar(25), btScalar(50)}) {
    const Collision standard = collide(speed);
    (void)game::setBroadphaseMargin(0.5f);
    const Collision wide = collide(speed);
    gDbvtMargin = guard.before;
    reportValue("struck box's speed over the striker's, a 0.5 m margin", double(wide.second_mps / speed));
    reportValue("deepest overlap, a 0.5 m margin [m]", double(wide.deepest_m));
    // The contact's equal and opposite impulses keep the momentum; without
    // restitution the struck box leaves at least as fast as the other.
    EXPECT_NEAR(wide.first_mps + wide.second_mps, speed, 1e-5f * speed);
    EXPECT_GE(wide.second_mps, wide.first_mps);
    EXPECT_GE(wide.second_mps, speed / 2);
    // The pair is found in the same step, so the same contact, to the bit.
    EXPECT_EQ(wide.second_mps, standard.second_mps);
    EXPECT_EQ(wide.deepest_m, standard.deepest_m);
  }
}

TEST(Examples, ABroadphaseMarginRefusesANegativeOrNonFiniteOne) {
  const MarginGuard guard;
  EXPECT_THROW((void)game::setBroadphaseMargin(-0.1f), std::invalid_argument);
  EXPECT_THROW((void)game::setBroadphaseMargin(std::numeric_limits<btScalar>::quiet_NaN()), std::invalid_argument);
  EXPECT_THROW((void)game::setBroadphaseMargin(std::numeric_limits<btScalar>::infinity()), std::invalid_argument);
  EXPECT_EQ(gDbvtMargin, guard.before);
}

}  // namespace
}  // namespace keel::test
