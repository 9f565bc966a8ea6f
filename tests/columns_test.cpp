// The column model (docs/columns.md): the columns' exact volumes, the
// buoyancy against the analytic cases of docs/model.md §5, the square log's
// regimes, the fleet's determinism, switching models mid-run, bad water.
#include "column_sums.hpp"
#include "fleet_scenario.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr double kPi = 3.14159265358979323846;
/// Relative round-off of sums of a few thousand btScalars.
const double kRoundOff = 2000 * double(std::numeric_limits<btScalar>::epsilon());

btTransform at(const btVector3& origin, const btQuaternion& q = btQuaternion::getIdentity()) {
  return btTransform(q, origin);
}

void expectColumnsSumToHull(const Hull& hull, const ColumnSettings& settings, const char* name) {
  const ColumnHull columns(hull, settings);
  const double v = double(hull.volume_m3());
  expectColumnsHold(columns, v, hull.centroid_m(), kRoundOff, kRoundOff * double(hull.radius_m()), name);
  reportFigure(name, columns.volume_m3(), v);
}

TEST(ColumnHull, VolumesAndCentroidsSumToTheHulls) {
  expectColumnsSumToHull(*hullOf(box(btVector3(6, 2, 2.5f), 3)), {}, "box: column volume [m^3]");
  expectColumnsSumToHull(*hullOf(icosphere(1.5f, 3)), {}, "icosphere: column volume [m^3]");
  expectColumnsSumToHull(*hullOf(boatHull(12, 4, 2.5f)), {}, "boat: column volume [m^3]");
  ColumnSettings fine;
  fine.cellSize_m = 0.07f;
  expectColumnsSumToHull(*hullOf(icosphere(1.5f, 3)), fine, "icosphere, 0.07 m cells: column volume [m^3]");
  // A hull turned in its frame, on axes given: z up, forward along y.
  ColumnSettings zUp;
  zUp.axes.up = btVector3(0, 0, 1);
  zUp.axes.forward = btVector3(0, 1, 0);
  expectColumnsSumToHull(*hullOf(boatHull(12, 4, 2.5f)), zUp, "boat, z up: column volume [m^3]");
}

TEST(ColumnHull, DefaultCellSizeGivesAFewHundredColumns) {
  const ColumnHull boat(*hullOf(boatHull(12, 4, 2.5f)));
  EXPECT_GE(boat.columns().size(), 150u);
  EXPECT_LE(boat.columns().size(), 330u);
  // A box fills its rectangle: 330 cells, give or take a row.
  const ColumnHull zephyr(*hullOf(box(btVector3(4.7f, 1, 0.7f))));
  EXPECT_NEAR(double(zephyr.columns().size()), 330, 20);
  EXPECT_THROW(ColumnHull(*hullOf(box(btVector3(1, 1, 1))), ColumnSettings{-1}), std::invalid_argument);
  ColumnSettings parallel;
  parallel.axes.forward = parallel.axes.up;
  EXPECT_THROW(ColumnHull(*hullOf(box(btVector3(1, 1, 1))), parallel), std::invalid_argument);
}

TEST(ColumnHull, DefaultColumnHullIsSharedPerHullAndCount) {
  const auto a = hullOf(box(btVector3(2, 1, 1))), b = hullOf(box(btVector3(2, 1, 1)));
  const auto ca = defaultColumnHull(a);
  EXPECT_EQ(ca, defaultColumnHull(a));
  EXPECT_EQ(ca, defaultColumnHull(a, ColumnSettings{}.targetColumns));
  EXPECT_NE(ca, defaultColumnHull(b));
  const auto coarse = defaultColumnHull(a, kFarBoatColumnCells);
  EXPECT_NE(coarse, ca);
  EXPECT_EQ(coarse, defaultColumnHull(a, kFarBoatColumnCells));
  // A 2 m x 1 m footprint in about 64 cells of sqrt(2 / 64) = 0.177 m:
  // rounded to 11 x 6 whole cells, the cell grown to fit both sides
  // (2 / 11 = 0.182 m), which covers them in 11 x 6.
  EXPECT_EQ(coarse->columns().size(), 66u);
  EXPECT_FLOAT_EQ(float(coarse->cellSize_m()), 2.0f / 11);
  EXPECT_NEAR(coarse->volume_m3(), 2.0, 2.0 * 1e-6);
  EXPECT_THROW((void)defaultColumnHull(a, 0), std::invalid_argument);
  EXPECT_THROW((void)defaultColumnHull(nullptr), std::invalid_argument);
}

/// A boat made on the far-boat preset has no per-vertex arrays until its
/// first substep on triangles: its cut asked before then is empty, not read
/// out of bounds (AddressSanitizer runs this), and after it is the hull's.
TEST(ColumnAction, TrianglesArraysComeWithTheFirstSubstepOnTriangles) {
  World w;
  const auto hull = hullOf(box(btVector3(4, 1, 2), 6));
  btRigidBody* body = w.addBox(btVector3(4, 1, 2), 4000, btTransform::getIdentity());
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  boat.setLevelOfDetail(farBoatSettings(*hull));
  for (int i = 0; i < 5; ++i) boat.updateAction(&w.world, btScalar(1.0 / 240));
  EXPECT_GT(boat.hydrostatics().submergedVolume_m3, 0);
  boat.setLevelOfDetail(fullDetailSettings());
  EXPECT_TRUE(boat.submergedPieces().empty());
  boat.updateAction(&w.world, btScalar(1.0 / 240));
  EXPECT_FALSE(boat.submergedPieces().empty());
  EXPECT_NEAR(boat.hydrostatics().submergedVolume_m3, 4000.0f / 1025, 0.05f * 4000 / 1025);
}

TEST(ColumnAction, LevelOfDetailChoosesTheColumnCount) {
  World w;
  const auto hull = hullOf(box(btVector3(2, 1, 1)));
  btRigidBody* body = w.addBox(btVector3(2, 1, 1), 1000, btTransform::getIdentity());
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  boat.setLevelOfDetail(farBoatSettings(*hull));
  EXPECT_EQ(boat.columnHull(), defaultColumnHull(hull, kFarBoatColumnCells));
  EXPECT_EQ(boat.columnImmersion().size(), boat.columnHull()->columns().size());
  // The user's own columns stay under a level of detail that names no count.
  const auto own = std::make_shared<const ColumnHull>(*hull, ColumnSettings{.cellSize_m = 0.25f});
  LevelOfDetail mine = farBoatSettings(*hull);
  mine.columns = own;
  boat.setLevelOfDetail(mine);
  EXPECT_EQ(boat.columnHull(), own);
  EXPECT_EQ(boat.levelOfDetail().columns, own);
  LevelOfDetail keep = farBoatSettings(*hull);
  keep.columnCells = 0;
  boat.setLevelOfDetail(keep);
  EXPECT_EQ(boat.columnHull(), own);
  boat.setLevelOfDetail(fullDetailSettings());
  EXPECT_EQ(boat.buoyancyModel(), BuoyancyModel::Triangles);
  boat.setLevelOfDetail(farBoatSettings(*hull));
  EXPECT_EQ(boat.columnHull(), defaultColumnHull(hull, kFarBoatColumnCells));
}

TEST(ColumnHull, StackedPartsAreTwoIntervalsPerCell) {
  // A box under another with a gap between: each cell has two columns, and
  // water between the two floats the lower box only.
  const auto hull = hullOf(
      joined(box(btVector3(4, 1, 2), 1, btVector3(0, -1, 0)), box(btVector3(4, 1, 2), 1, btVector3(0, 1, 0))));
  const ColumnHull columns(*hull);
  std::size_t lower = 0;
  for (const Column& c : columns.columns()) lower += c.top_m < 0 ? 1 : 0;
  EXPECT_EQ(2 * lower, columns.columns().size());
  const LevelWater water(btScalar(-0.25));  // 1.25 m above the lower box's bottom, 0.75 m below the upper's
  const PoseHydrostatics p = hydrostaticsAtPose(*hull, columns, btTransform::getIdentity(), water);
  EXPECT_NEAR(p.pressure.submergedVolume_m3, 4 * 2 * 1, kRoundOff * 8);
  EXPECT_NEAR(p.pressure.centreOfBuoyancy_m.y(), -1, kRoundOff);
}

// --- buoyancy against the analytic cases --------------------------------------

TEST(ColumnBuoyancy, BoxAtSeveralDraftsIsExact) {
  const double L = 6, B = 2.5, D = 2;
  const auto hull = hullOf(box(btVector3(btScalar(L), btScalar(D), btScalar(B))));
  const ColumnHull columns(*hull);
  double previous = 0;
  for (double T = 0.05; T < D; T += 0.05) {
    const PoseHydrostatics p = hydrostaticsAtPose(*hull, columns, at(btVector3(0, btScalar(D / 2 - T), 0)),
                                                  LevelWater());
    const double expected = kRho * kStandardGravity_mps2 * L * B * T;  // PoseQuery's gravity
    EXPECT_NEAR(p.pressure.force_N.y(), expected, kRoundOff * expected) << "T=" << T;
    EXPECT_NEAR(p.pressure.centreOfBuoyancy_m.y(), -D / 2 + T / 2, kRoundOff * D) << "T=" << T;
    EXPECT_LT(p.pressure.torque_Nm.length(), kRoundOff * expected * L) << "T=" << T;
    EXPECT_NEAR(p.pressure.depthIntegral_m4, L * B * T * T / 2, kRoundOff * L * B * T * T) << "T=" << T;
    EXPECT_GT(p.pressure.force_N.y(), previous);  // continuous and increasing
    previous = p.pressure.force_N.y();
  }
}

TEST(ColumnBuoyancy, UprightBoxSettlesAtItsDraft) {
  World w;
  const btScalar L = 2, D = 1, B = 1.5f, T = 0.4f;
  const auto hull = hullOf(box(btVector3(L, D, B)));
  btRigidBody* body = w.addBox(btVector3(L, D, B), btScalar(kRho) * L * B * T, at(btVector3(0, D / 2 - T + 0.15f, 0)));
  body->setDamping(0.6f, 0.6f);
  WaterAction boat(body, hull, [](btScalar, btScalar, double) { return btScalar(0); });
  setModel(boat, BuoyancyModel::Columns);
  EXPECT_EQ(boat.buoyancyModel(), BuoyancyModel::Columns);
  w.world.addAction(&boat);
  for (int i = 0; i < 240 * 40; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  const double draft = D / 2 - body->getCenterOfMassPosition().y();
  reportFigure("columns: settled draft [m]", draft, T);
  EXPECT_NEAR(draft, T, 1e-4 * T);
  EXPECT_NEAR(boat.draft_m(), T, 1e-4 * T);
  EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
  EXPECT_NEAR(boat.hydrostatics().submergedVolume_m3, L * B * T, 1e-4 * L * B * T);
  EXPECT_EQ(boat.columnImmersion().size(), boat.columnHull()->columns().size());
  EXPECT_TRUE(boat.submergedPieces().empty());
  w.world.removeAction(&boat);
}

TEST(ColumnBuoyancy, HeeledBoxRightingMomentMatchesWallSidedFormula) {
  const double L = 10, B = 4, D = 3, T = 1, KG = 1.2;  // as the triangle model's test
  const auto hull = hullOf(
      box(btVector3(btScalar(L), btScalar(D), btScalar(B)), 4, btVector3(0, btScalar(D / 2 - KG), 0)));
  const ColumnHull columns(*hull);  // the default cell size
  const double V = L * B * T, KB = T / 2, BM = B * B / (12 * T), GM = KB + BM - KG;
  double worst = 0;
  int checked = 0;
  for (double degrees = 1; degrees <= 20; degrees += 1, ++checked) {
    const double phi = degrees * kPi / 180;
    const btQuaternion heel(btVector3(1, 0, 0), btScalar(phi));
    const btVector3 origin(0, -quatRotate(heel, btVector3(0, btScalar(T - KG), 0)).y(), 0);
    const PoseHydrostatics p = hydrostaticsAtPose(*hull, columns, at(origin, heel), LevelWater());
    const double g = kStandardGravity_mps2;  // PoseQuery's
    const double expected = kRho * g * V * std::sin(phi) * (GM + BM * std::pow(std::tan(phi), 2) / 2);
    EXPECT_NEAR(p.pressure.force_N.y(), kRho * g * V, 1e-4 * kRho * g * V) << degrees;
    EXPECT_NEAR(-p.pressure.torque_Nm.x(), expected, 0.02 * expected) << degrees << " degrees";
    worst = std::max(worst, std::abs(-p.pressure.torque_Nm.x() - expected) / expected);
  }
  EXPECT_EQ(checked, 20);
  reportFigure("columns: heeled box, worst relative error of the righting moment to 20 degrees", worst, 0);
}

/// The heel [rad] a square log of relative density `s` settles at, released
/// at `start` [rad] at its upright draft, on columns: folded into [0, pi/2).
/// (Released high or low, the log can roll over a quarter turn, where its
/// columns lie on their side: docs/columns.md, "Limits".)
double squareLogSettles(double s, double start) {
  World w;
  const btScalar a = 1, length = 4;
  const auto hull = hullOf(box(btVector3(length, a, a), 2));
  btRigidBody* body = w.addBox(
      btVector3(length, a, a), btScalar(s * kRho) * length * a * a,
      at(btVector3(0, btScalar(0.5 - s) * a, 0), btQuaternion(btVector3(1, 0, 0), btScalar(start))));
  body->setDamping(0.3f, 0.8f);
  WaterAction boat(body, hull, std::make_shared<LevelWater>());
  setModel(boat, BuoyancyModel::Columns);
  w.world.addAction(&boat);
  for (int i = 0; i < 60 * 60; ++i) w.world.stepSimulation(btScalar(1.0 / 60), 1, btScalar(1.0 / 60));
  w.world.removeAction(&boat);
  // The log's own y axis against the world's: the heel about x, folded.
  const btVector3 yAxis = body->getCenterOfMassTransform().getBasis().getColumn(1);
  const double heel = std::atan2(double(yAxis.z()), double(yAxis.y()));
  return std::fmod(std::fmod(heel, kPi / 2) + kPi / 2, kPi / 2);
}

TEST(ColumnBuoyancy, SquareLogSettlesInTheRightRegime) {
  // Face-up is stable for s < 0.2113 or s > 0.7887, corner-up in between.
  auto fromFaceUp = [](double heel) { return std::min(heel, kPi / 2 - heel); };
  const double light = squareLogSettles(0.12, 0.3), half = squareLogSettles(0.5, 0.15),
               heavy = squareLogSettles(0.88, 0.3);
  reportFigure("square log s = 0.12: settled heel from face-up [deg]", fromFaceUp(light) * 180 / kPi, 0);
  reportFigure("square log s = 0.5: settled heel from face-up [deg]", fromFaceUp(half) * 180 / kPi, 45);
  reportFigure("square log s = 0.88: settled heel from face-up [deg]", fromFaceUp(heavy) * 180 / kPi, 0);
  EXPECT_LT(fromFaceUp(light), 2 * kPi / 180);
  EXPECT_NEAR(fromFaceUp(half), kPi / 4, 2 * kPi / 180);
  EXPECT_LT(fromFaceUp(heavy), 2 * kPi / 180);
}

}  // namespace
}  // namespace keel::test

namespace keel::test {
namespace {

// --- the action: fleet, switching, bad water -------------------------------------

/// The scenario of fleet_scenario.hpp with every boat on the far-boat
/// preset (columns, damping).
FleetOutcome sailOnColumns(int threads) {
  return sailFleet(threads, [](std::size_t, WaterAction& boat, btRigidBody&, const Hull& hull) {
    boat.setLevelOfDetail(farBoatSettings(hull));
  });
}

TEST(ColumnAction, FleetIsBitwiseIdenticalForOneTwoAndEightThreads) {
  const FleetOutcome one = sailOnColumns(1);
  EXPECT_TRUE(bitwiseEqual(one, sailOnColumns(2)));
  EXPECT_TRUE(bitwiseEqual(one, sailOnColumns(8)));
  EXPECT_TRUE(bitwiseEqual(one, sailOnColumns(-1)));  // and as one action per boat
}

TEST(ColumnAction, SwitchingModelsJumpsOnlyByTheModelsDifference) {
  World w;
  const auto hull = hullOf(boatHull(10, 3.5f, 2.5f, 16, 5));
  const auto surface = gerstnerSea(1.0, 6.0, 4, 3, 0.5);
  btRigidBody* body = w.addBox(hull->boundsMax() - hull->boundsMin(), btScalar(0.4 * kRho) * hull->volume_m3(),
                               at(btVector3(0, 0.2f, 0), btQuaternion(btVector3(1, 0, 0), 0.15f)));
  WaterAction boat(body, hull, surface);
  w.world.addAction(&boat);
  const btScalar dt = btScalar(1.0 / 60);
  for (int i = 0; i < 120; ++i) w.world.stepSimulation(dt, 1, dt);
  // At one pose and water time: the triangles' force, then the columns'.
  const btTransform pose = body->getCenterOfMassTransform();
  PoseQuery query;
  query.gravity_mps2 = w.world.getGravity();
  query.time_s = boat.time_s();
  const PoseHydrostatics triangles = hydrostaticsAtPose(*hull, pose, *surface, query);
  const PoseHydrostatics columns = hydrostaticsAtPose(*hull, *defaultColumnHull(hull), pose, *surface, query);
  boat.prime(dt);
  const btVector3 before = boat.hydrostatics().force_N, beforeTorque = boat.hydrostatics().torque_Nm;
  setModel(boat, BuoyancyModel::Columns);
  boat.prime(dt);
  const btVector3 after = boat.hydrostatics().force_N, afterTorque = boat.hydrostatics().torque_Nm;
  const double weight = double(body->getMass()) * kG;
  // The action gives each model's force at the pose, to rounding: the jump
  // is the models' difference there, nothing else.
  EXPECT_LT((before - triangles.pressure.force_N).length(), 1e-5 * weight);
  EXPECT_LT((after - columns.pressure.force_N).length(), 1e-5 * weight);
  EXPECT_LT((afterTorque - columns.pressure.torque_Nm).length(), 1e-5 * weight * hull->radius_m());
  const double jump = (after - before).length(),
               difference = (columns.pressure.force_N - triangles.pressure.force_N).length();
  EXPECT_NEAR(jump, difference, 1e-5 * weight);
  reportFigure("switch: force jump / weight", jump / weight, difference / weight);
  reportFigure("switch: torque jump / (weight x radius)",
               (afterTorque - beforeTorque).length() / (weight * hull->radius_m()),
               (columns.pressure.torque_Nm - triangles.pressure.torque_Nm).length() / (weight * hull->radius_m()));
  // And it keeps floating on columns.
  for (int i = 0; i < 120; ++i) w.world.stepSimulation(dt, 1, dt);
  EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
  EXPECT_LT(std::abs(body->getCenterOfMassPosition().y()), 2.0f);
  w.world.removeAction(&boat);
}

TEST(ColumnAction, NonFiniteWaterIsReplacedOrSkipped) {
  World w;
  const auto hull = hullOf(box(btVector3(4, 1, 2), 2));
  btRigidBody* body = w.addBox(btVector3(4, 1, 2), btScalar(0.5 * kRho * 8), at(btVector3(0, 0, 0)));
  const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN();
  WaterAction someNaN(body, hull, [&](btScalar u, btScalar, btScalar) { return u > 1 ? nan : btScalar(0); });
  setModel(someNaN, BuoyancyModel::Columns);
  someNaN.prime(btScalar(1.0 / 60));
  EXPECT_TRUE(someNaN.status().flags & StatusNonFiniteHeight) << someNaN.status().describe();
  EXPECT_GT(someNaN.status().nonFiniteHeights, 0u);
  EXPECT_NEAR(someNaN.hydrostatics().submergedVolume_m3, 4, 1e-4 * 4);  // the NaN replaced by the mean, 0
  EXPECT_TRUE(std::isfinite(body->getLinearVelocity().y()));
  WaterAction allNaN(body, hull, [&](btScalar, btScalar, double) { return nan; });
  setModel(allNaN, BuoyancyModel::Columns);
  const btVector3 velocity = body->getLinearVelocity();
  allNaN.prime(btScalar(1.0 / 60));
  EXPECT_TRUE(allNaN.status().flags & StatusNoFiniteHeight);
  EXPECT_EQ(allNaN.status().skippedSubsteps, 1u);
  EXPECT_EQ(body->getLinearVelocity(), velocity);
  WaterAction throws(body, hull, [](btScalar, btScalar, double) -> btScalar { throw std::runtime_error("no sea"); });
  setModel(throws, BuoyancyModel::Columns);
  throws.prime(btScalar(1.0 / 60));
  EXPECT_TRUE(throws.status().flags & StatusSurfaceThrew);
  // Columns of another hull are refused, and nothing changes.
  LevelOfDetail other = someNaN.levelOfDetail();
  other.columns = defaultColumnHull(hullOf(box(btVector3(1, 1, 1))));
  other.sampling = Sampling::Patch;
  const auto before = someNaN.columnHull();
  EXPECT_THROW(someNaN.setLevelOfDetail(other), std::invalid_argument);
  EXPECT_EQ(someNaN.columnHull(), before);
  EXPECT_NE(someNaN.settings().sampling, Sampling::Patch);
}

/// Counts the lines drawn and their colours.
struct CountingDrawer final : btIDebugDraw {
  int lines = 0, blue = 0;
  void drawLine(const btVector3&, const btVector3&, const btVector3& colour) override {
    ++lines;
    blue += colour.z() > colour.x() + 0.1f ? 1 : 0;
  }
  void drawContactPoint(const btVector3&, const btVector3&, btScalar, int, const btVector3&) override {}
  void reportErrorWarning(const char*) override {}
  void draw3dText(const btVector3&, const char*) override {}
  void setDebugMode(int) override {}
  int getDebugMode() const override { return DBG_DrawWireframe; }
};

TEST(ColumnAction, DebugDrawShowsTheColumns) {
  World w;
  const auto hull = hullOf(box(btVector3(4, 1, 2), 2));
  btRigidBody* body = w.addBox(btVector3(4, 1, 2), btScalar(0.5 * kRho * 8), at(btVector3(0, 0, 0)));
  WaterAction boat(body, hull, [](btScalar, btScalar, double) { return btScalar(0); });
  setModel(boat, BuoyancyModel::Columns);
  boat.prime(btScalar(1.0 / 60));
  CountingDrawer drawer;
  boat.debugDraw(&drawer);
  const std::size_t columns = boat.columnHull()->columns().size();
  // Each half-wet column: a blue wet part and a grey dry part; the buoyancy arrow.
  EXPECT_EQ(std::size_t(drawer.lines), 2 * columns + 1);
  EXPECT_EQ(std::size_t(drawer.blue), columns);
  for (btScalar f : boat.columnImmersion()) EXPECT_NEAR(f, 0.5f, 1e-5f);
}

}  // namespace
}  // namespace keel::test
