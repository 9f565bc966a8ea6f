// Overlapping parts on the column model (docs/columns.md, "Overlapping
// parts"): the columns hold the parts' union exactly, a hull with a cabin
// sunk into its deck floats at the union's draft, a part listed twice counts
// once, and the triangle model refuses such a hull.
#include "column_sums.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
/// Relative round-off of a sum of a few hundred columns' btScalar volumes.
const double kSumRoundOff = 64 * double(std::numeric_limits<btScalar>::epsilon());
/// The cabin of hullWithCabin: its sides on the default grid's cell lines.
constexpr btScalar kCabinLength = btScalar(20.0 / 13), kCabinWidth = btScalar(10.0 / 13);
constexpr double kCabinArea = double(kCabinLength) * double(kCabinWidth);

std::shared_ptr<const Hull> overlapping(const Mesh& mesh) {
  HullOptions options;
  options.overlappingParts = true;
  return std::make_shared<const Hull>(mesh.vertices, mesh.triangles, options);
}

/// Expects the columns of `hull` (and Hull's own volume and centroid) to be
/// the union's `volume` and `centroid`, to round-off.
void expectUnion(const Hull& hull, const ColumnSettings& settings, double volume, const btVector3& centroid,
                 const std::string& name) {
  const ColumnHull columns(hull, settings);
  const double sum = expectColumnsHold(columns, volume, centroid, kSumRoundOff, kSumRoundOff, name);
  EXPECT_NEAR(double(hull.volume_m3()), volume, kSumRoundOff * volume) << name;
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(double(hull.centroid_m()[k]), double(centroid[k]), kSumRoundOff) << name << ", axis " << k;
  reportFigure(("union: " + name + " [m^3]").c_str(), sum, volume);
}

/// The union of a 2 x 1 x 1 m box at the origin and a 1 m cube at `offset`
/// (overlapping): its volume and centroid.
void twoBoxes(const btVector3& offset, double& volume, btVector3& centroid) {
  double lo[3], hi[3], overlap = 1;
  const double half[3] = {1, 0.5, 0.5};
  for (int k = 0; k < 3; ++k) {
    lo[k] = std::max(-half[k], double(offset[k]) - 0.5), hi[k] = std::min(half[k], double(offset[k]) + 0.5);
    overlap *= hi[k] - lo[k];
  }
  volume = 2 + 1 - overlap;
  for (int k = 0; k < 3; ++k) centroid[k] = btScalar((double(offset[k]) - overlap * 0.5 * (lo[k] + hi[k])) / volume);
}

TEST(ColumnUnion, OverlappingBoxesHoldTheirUnionExactly) {
  for (const btVector3& offset : {btVector3(1, 0, 0), btVector3(1, 0.25f, 0.25f), btVector3(0.3f, -0.4f, 0.15f)}) {
    double volume = 0;
    btVector3 centroid(0, 0, 0);
    twoBoxes(offset, volume, centroid);
    const auto hull = overlapping(joined(box(btVector3(2, 1, 1)), box(btVector3(1, 1, 1), 2, offset)));
    EXPECT_TRUE(hull->partsOverlap());
    const std::string at = "offset (" + std::to_string(offset.x()) + ", " + std::to_string(offset.y()) + ", " +
                           std::to_string(offset.z()) + ")";
    expectUnion(*hull, {}, volume, centroid, at);
    ColumnSettings zUp;  // the grid across another axis, cells of 0.13 m
    zUp.axes.up = btVector3(0, 0, 1);
    zUp.axes.forward = btVector3(0, 1, 0);
    zUp.cellSize_m = 0.13f;
    expectUnion(*hull, zUp, volume, centroid, at + ", z up, 0.13 m cells");
  }
}

TEST(ColumnUnion, TurnedBoxesWithCoincidentFacesHoldTheirUnion) {
  // The boxes that share their top and bottom planes, turned against the
  // grid: the shared planes now differ by the vertices' rounding, and which
  // face is kept where follows that rounding; the volume stays the union's.
  const btQuaternion q(btVector3(0.3f, 1, 0.2f).normalized(), 0.7f);
  Mesh m = joined(box(btVector3(2, 1, 1)), box(btVector3(1, 1, 1), 2, btVector3(1, 0, 0)));
  for (btVector3& v : m.vertices) v = quatRotate(q, v);
  double volume = 0;
  btVector3 centroid(0, 0, 0);
  twoBoxes(btVector3(1, 0, 0), volume, centroid);
  expectUnion(*overlapping(m), {}, volume, quatRotate(q, centroid), "turned boxes");
}

TEST(ColumnUnion, CrossingBoxesAndAPartInsideAnother) {
  // Two bars crossing at right angles through each other's middle, tilted
  // against the grid (their faces are not the grid's planes).
  const Mesh bars = joined(box(btVector3(3, 0.5f, 0.5f)), box(btVector3(0.5f, 0.5f, 3)));
  Mesh tilted = bars;
  const btQuaternion q(btVector3(1, 1, 0).normalized(), 0.3f);
  for (btVector3& v : tilted.vertices) v = quatRotate(q, v);
  const double crossing = 2 * 3 * 0.25 - 0.125;
  expectUnion(*overlapping(tilted), {}, crossing, btVector3(0, 0, 0), "crossing bars");
  // A small box wholly inside a big one is the big one.
  expectUnion(*overlapping(joined(box(btVector3(2, 2, 2)), box(btVector3(1, 1, 1), 1, btVector3(0.2f, 0.3f, 0)))), {},
              8, btVector3(0, 0, 0), "a box inside another");
  // Seven boxes through one another, the most one cell takes: a bar 1.3 m long.
  Mesh seven = box(btVector3(1, 1, 1));
  for (int k = 1; k < 7; ++k)
    seven = joined(seven, box(btVector3(1, 1, 1), 1, btVector3(btScalar(0.05) * btScalar(k), 0, 0)));
  expectUnion(*overlapping(seven), {}, 1.3, btVector3(btScalar(0.15), 0, 0), "seven boxes through one another");
}

TEST(ColumnUnion, ASphereThroughABoxHoldsTheirUnion) {
  // A faceted sphere whose top pokes into a box covering its footprint: the
  // union is the box and the sphere's part below the box's bottom, exact by
  // the sphere's own volume moments below that plane.
  const Mesh sphere = icosphere(1, 3, btVector3(btScalar(0.1), 0, btScalar(-0.05)));
  const btScalar floor = btScalar(0.45);
  const Moments below = volumeMomentsBelow(*hullOf(sphere), btVector3(0, 1, 0), double(floor));
  const double boxVolume = 3 * 2 * 3;
  const double volume = boxVolume + below.zeroth;
  btVector3 centroid(0, 0, 0);
  for (int k = 0; k < 3; ++k)
    centroid[k] = btScalar((below.first[std::size_t(k)] + (k == 1 ? boxVolume * (double(floor) + 1) : 0)) / volume);
  const Mesh both = joined(sphere, box(btVector3(3, 2, 3), 1, btVector3(0, floor + 1, 0)));
  expectUnion(*overlapping(both), {}, volume, centroid, "a sphere through a box");
  ColumnSettings zUp;
  zUp.axes.up = btVector3(0, 0, 1);
  zUp.axes.forward = btVector3(1, 0, 0);
  expectUnion(*overlapping(both), zUp, volume, centroid, "a sphere through a box, z up");
}

TEST(ColumnUnion, APartListedTwiceCountsOnce) {
  // The same box twice: the copy's triangles repeat the first's and are dropped.
  const auto twice = overlapping(joined(box(btVector3(2, 1, 1.5f)), box(btVector3(2, 1, 1.5f))));
  EXPECT_EQ(twice->triangles().size(), 12u);
  EXPECT_EQ(twice->droppedTriangleCount(), 12u);
  expectUnion(*twice, {}, 3, btVector3(0, 0, 0), "a box listed twice");
  EXPECT_THROW(hullOf(joined(box(btVector3(2, 1, 1.5f)), box(btVector3(2, 1, 1.5f)))), HullError);
  // The same box triangulated otherwise: two parts whose faces coincide.
  const auto again = overlapping(joined(box(btVector3(2, 1, 1.5f)), box(btVector3(2, 1, 1.5f), 3)));
  expectUnion(*again, {}, 3, btVector3(0, 0, 0), "a box and its copy triangulated otherwise");
}

TEST(ColumnUnion, PartsThatDoNotOverlapAreUnchanged) {
  // A catamaran built with overlappingParts: the same columns, bit for bit.
  const Mesh cat = joined(box(btVector3(6, 1, 1), 2, btVector3(0, 0, -1.5f)),
                          box(btVector3(6, 1, 1), 2, btVector3(0, 0, 1.5f)));
  const auto plain = hullOf(cat), allowed = overlapping(cat);
  EXPECT_FALSE(allowed->partsOverlap());
  EXPECT_EQ(plain->volume_m3(), allowed->volume_m3());
  const ColumnHull a(*plain), b(*allowed);
  ASSERT_EQ(a.columns().size(), b.columns().size());
  for (std::size_t k = 0; k < a.columns().size(); ++k) {
    EXPECT_EQ(a.columns()[k].volume_m3, b.columns()[k].volume_m3);
    EXPECT_EQ(a.columns()[k].centroid_m, b.columns()[k].centroid_m);
  }
}

// --- floating a hull with a cabin sunk into its deck --------------------------

/// A 4 x 1 x 2 m hull box (y from -0.2 to 0.8 m) with a cabin 0.6 m high
/// whose bottom is 0.3 m below the deck, `length` x `width` [m].
Mesh hullWithCabin(btScalar length = kCabinLength, btScalar width = kCabinWidth) {
  return joined(box(btVector3(4, 1, 2), 2, btVector3(0, btScalar(0.3), 0)),
                box(btVector3(length, btScalar(0.6), width), 1, btVector3(0, btScalar(0.8), 0)));
}

/// The union's volume below the height y [m] (body frame, upright).
double cabinHullVolumeBelow(double y, double cabinArea = kCabinArea) {
  const double hull = 8 * std::clamp((y + 0.2) / 1, 0.0, 1.0);
  const double cabin = cabinArea * std::clamp(y - 0.8, 0.0, 0.3);  // above the deck: 0.8 to 1.1
  return hull + cabin;
}

TEST(ColumnUnion, CabinSunkIntoTheDeckGivesTheUnionsBuoyancy) {
  // The default grid has cells of 2/13 m, and the cabin's sides lie on
  // cell lines: every union column is wall-sided, and exact at any height.
  const auto hull = overlapping(hullWithCabin());
  const ColumnHull columns(*hull);
  ASSERT_NEAR(double(columns.cellSize_m()), 2.0 / 13, 1e-6);
  for (double y : {-0.1, 0.3, 0.5, 0.75, 0.85, 0.95, 1.05, 1.2}) {
    const PoseHydrostatics p = hydrostaticsAtPose(*hull, columns, btTransform::getIdentity(), LevelWater{btScalar(y)});
    const double expected = cabinHullVolumeBelow(y);
    EXPECT_NEAR(p.pressure.submergedVolume_m3, expected, kSumRoundOff * 8.6) << "water at y = " << y;
  }
  // A 2 x 1 m cabin whose ends fall in the middle of cells: those columns'
  // tops are steps, and the water between the deck and the cabin's top is
  // approximate there (docs/columns.md, "Overlapping parts").
  const auto offGrid = overlapping(hullWithCabin(2, 1));
  const ColumnHull offColumns(*offGrid);
  for (double y : {0.5, 0.75, 0.85, 0.95, 1.05, 1.2}) {
    const PoseHydrostatics p = hydrostaticsAtPose(*offGrid, offColumns, btTransform::getIdentity(),
                                                  LevelWater{btScalar(y)});
    const double expected = cabinHullVolumeBelow(y, 2);
    const bool crossesSteps = y > 0.8 && y < 1.1;
    EXPECT_NEAR(p.pressure.submergedVolume_m3, expected, (crossesSteps ? 0.01 : kSumRoundOff) * expected) << y;
    if (crossesSteps)
      reportFigure("union: 2 x 1 m cabin off the grid, volume [m^3]", p.pressure.submergedVolume_m3, expected);
  }
}

/// The draft [m] from the hull's bottom at which the boat of mass `mass_kg`
/// settles on columns.
double settledDraft(double mass_kg) {
  World w;
  const auto hull = overlapping(hullWithCabin());
  const btScalar bottom = btScalar(-0.2);
  btRigidBody* body = w.addBox(btVector3(4, 1, 2), btScalar(mass_kg), btTransform::getIdentity());
  body->setDamping(0.6f, 0.6f);
  WaterAction boat(body, hull, [](btScalar, btScalar, double) { return btScalar(0); });
  EXPECT_EQ(boat.buoyancyModel(), BuoyancyModel::Columns);  // chosen for the overlapping parts
  w.world.addAction(&boat);
  for (int i = 0; i < 240 * 40; ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
  EXPECT_TRUE(boat.status().ok()) << boat.status().describe();
  w.world.removeAction(&boat);
  return -double(body->getCenterOfMassPosition().y() + bottom);
}

TEST(ColumnUnion, HullWithACabinFloatsAtTheUnionsDraft) {
  // The cabin above the water: the hull's own draft, 0.4 m.
  const double low = settledDraft(kRho * 8 * 0.4);
  reportFigure("union: draft, cabin dry [m]", low, 0.4);
  EXPECT_NEAR(low, 0.4, 1e-4 * 0.4);
  // The water 0.15 m up the cabin above the deck: the union's 8 m^3 and
  // 0.15 m of the cabin (the parts' sum would count the cabin's 0.3 m
  // inside the hull again).
  const double high = settledDraft(kRho * cabinHullVolumeBelow(0.95));
  reportFigure("union: draft, cabin wet [m]", high, 1.15);
  EXPECT_NEAR(high, 1.15, 1e-4 * 1.15);
}

TEST(ColumnUnion, TheTriangleModelRefusesOverlappingParts) {
  const Mesh mesh = hullWithCabin();
  try {
    (void)hullOf(mesh);
    ADD_FAILURE() << "overlapping parts accepted without HullOptions::overlappingParts";
  } catch (const HullError& e) {
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos) << e.what();
  }
  // A cavity among overlapping parts: refused, saying where.
  Mesh cavity = box(btVector3(1, 0.3f, 0.6f), 1, btVector3(0, 0.15f, 0));
  for (Hull::Triangle& t : cavity.triangles) std::swap(t[1], t[2]);
  try {
    (void)overlapping(joined(mesh, cavity));
    ADD_FAILURE() << "a cavity among overlapping parts accepted";
  } catch (const HullError& e) {
    EXPECT_NE(std::string(e.what()).find("is a cavity"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("spanning (-0.5"), std::string::npos) << e.what();
  }
  // Eight boxes through one another: more than one cell's union takes.
  Mesh eight = box(btVector3(1, 1, 1));
  for (int k = 1; k < 8; ++k) eight = joined(eight, box(btVector3(1, 1, 1), 1, btVector3(0.05f * btScalar(k), 0, 0)));
  try {
    (void)overlapping(eight);
    ADD_FAILURE() << "eight parts overlapping in one cell accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("8 parts overlap in the cell centred at"), std::string::npos) << e.what();
  }
  const auto hull = overlapping(mesh);
  World w;
  btRigidBody* body = w.addBox(btVector3(4, 1, 2), 1000, btTransform::getIdentity());
  WaterAction boat(body, hull, [](btScalar, btScalar, double) { return btScalar(0); });
  auto expectRefused = [](const auto& call, const char* where) {
    try {
      call();
      ADD_FAILURE() << where << " accepted overlapping parts";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(where), std::string::npos) << what;
      EXPECT_NE(what.find("parts overlap"), std::string::npos) << what;
      EXPECT_NE(what.find("BuoyancyModel::Columns"), std::string::npos) << what;
    }
  };
  expectRefused([&] { setModel(boat, BuoyancyModel::Triangles); }, "keel::WaterAction::setLevelOfDetail");
  expectRefused([&] { boat.setLevelOfDetail(fullDetailSettings()); }, "keel::WaterAction::setLevelOfDetail");
  expectRefused([&] { (void)massProperties(*hull, 500.0); }, "keel::massProperties");
  expectRefused([&] { (void)draftForMass_m(*hull, 1000.0, 1025.0); }, "keel::volumeMoments");
  expectRefused([&] { (void)hydrostaticsAtPose(*hull, btTransform::getIdentity(), LevelWater()); },
                "keel::hydrostaticsAtPose");
  expectRefused([&] { (void)sliceHull(*hull, btVector3(1, 0, 0), -1, 1); }, "keel::sliceHull");
  EXPECT_EQ(boat.buoyancyModel(), BuoyancyModel::Columns);
}

}  // namespace
}  // namespace keel::test
