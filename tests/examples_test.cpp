// The examples of docs/integration.md run: debug drawing through Bullet,
// the HUD's heel, trim and draft, far boats on columns, a boat of parts.
#include "debug_drawer.hpp"
#include "far_boats.hpp"
#include "hud.hpp"
#include "test_hulls.hpp"
#include "union_boat.hpp"

#include <gtest/gtest.h>

#include <cmath>

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

}  // namespace
}  // namespace keel::test
