// Flooding (docs/flooding.md): the lost-buoyancy draft, the slack tank's
// free-surface effect, Torricelli's fill time, holes above and below the
// waterline, the water balance, and bad compartments.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace keel::test {
namespace {

constexpr double kRho = 1025;

/// A wide box boat L (x) by D (y, up) by B (z), centre of mass at its
/// centre, mass for draft T, and a wall-sided compartment of plan a x a at
/// its middle from the keel to the deck.
struct FloodBox {
  static constexpr btScalar L = 4, D = 2, B = 4, T = btScalar(0.8), a = 1;
  explicit FloodBox(World& w, btScalar releaseY_m = D / 2 - T)
      : hull(hullOf(box(btVector3(L, D, B)))), room(hullOf(box(btVector3(a, D, a)))) {
    body = w.addBox(btVector3(L, D, B), mass(), btTransform(btQuaternion::getIdentity(), btVector3(0, releaseY_m, 0)));
    body->setDamping(btScalar(0.5), btScalar(0.5));
  }
  static btScalar mass() { return btScalar(kRho) * L * B * T; }
  [[nodiscard]] Compartment compartment() const { return Compartment{"middle", room, {}, 0, 0, 1}; }
  /// The draft once `lost_m2` of the waterplane floods (lost buoyancy): T L B / (L B - lost).
  static double floodedDraft(double lost_m2 = double(a) * double(a)) {
    return double(T) * double(L) * double(B) / (double(L) * double(B) - lost_m2);
  }
  std::shared_ptr<const Hull> hull, room;
  btRigidBody* body;
};

void run(World& w, double seconds) {
  for (int i = 0; i < int(seconds * 240); ++i) w.world.stepSimulation(btScalar(1.0 / 240), 1, btScalar(1.0 / 240));
}

double keelDepth(const FloodBox& b) { return FloodBox::D / 2 - double(b.body->getCenterOfMassPosition().y()); }

TEST(Flooding, OpenCompartmentSettlesAtTheLostBuoyancyDraft) {
  World w;
  FloodBox fb(w);
  WaterAction boat(fb.body, fb.hull, std::make_shared<FlatSurface>());
  Compartment c = fb.compartment();
  c.openings.push_back(Opening{btVector3(0, -FloodBox::D / 2 + btScalar(0.1), 0), btScalar(0.04)});
  boat.setCompartments({c});
  w.world.addAction(&boat);
  run(w, 90);
  const double expected = FloodBox::floodedDraft();
  reportFigure("lost-buoyancy draft [m]", keelDepth(fb), expected);
  EXPECT_NEAR(keelDepth(fb), expected, 1e-3 * expected);
  // The water inside stands at the sea's level.
  EXPECT_NEAR(boat.flooding().compartments[0].water_m3, expected * FloodBox::a * FloodBox::a, 1e-3 * expected);
  EXPECT_GT(boat.flooding().reserveBuoyancy_kg, 0);
  w.world.removeAction(&boat);
}

TEST(Flooding, FloodsOnTheColumnModelToo) {
  // A far boat on columns floods as a near one: the box is exact on columns.
  World w;
  FloodBox fb(w);
  WaterAction boat(fb.body, fb.hull, std::make_shared<FlatSurface>());
  setModel(boat, BuoyancyModel::Columns);
  Compartment c = fb.compartment();
  c.openings.push_back(Opening{btVector3(0, -FloodBox::D / 2 + btScalar(0.1), 0), btScalar(0.04)});
  boat.setCompartments({c});
  w.world.addAction(&boat);
  run(w, 90);
  const double expected = FloodBox::floodedDraft();
  reportFigure("lost-buoyancy draft on columns [m]", keelDepth(fb), expected);
  EXPECT_NEAR(keelDepth(fb), expected, 1e-3 * expected);
  w.world.removeAction(&boat);
}

TEST(Flooding, PermeableCompartmentLosesItsPermeabilityTimesItsArea) {
  // Cargo fills 40 % of the compartment: the water takes 0.6 of its plan.
  World w;
  FloodBox fb(w);
  WaterAction boat(fb.body, fb.hull, std::make_shared<FlatSurface>());
  Compartment c = fb.compartment();
  c.permeability = btScalar(0.6);
  c.openings.push_back(Opening{btVector3(0, -FloodBox::D / 2 + btScalar(0.1), 0), btScalar(0.04)});
  boat.setCompartments({c});
  w.world.addAction(&boat);
  run(w, 90);
  const double lost = 0.6 * FloodBox::a * FloodBox::a;
  const double expected = FloodBox::floodedDraft(lost);
  reportFigure("lost-buoyancy draft, permeability 0.6 [m]", keelDepth(fb), expected);
  EXPECT_NEAR(keelDepth(fb), expected, 1e-3 * expected);
  EXPECT_NEAR(boat.flooding().compartments[0].water_m3, expected * lost, 1e-3 * expected * lost);
  EXPECT_NEAR(boat.flooding().compartments[0].capacity_m3, 0.6 * FloodBox::D * FloodBox::a * FloodBox::a, 1e-6);
  w.world.removeAction(&boat);
}

TEST(Flooding, HoledBelowWithReserveSettlesAtThePredictedDraft) {
  World w;
  FloodBox fb(w);
  WaterAction boat(fb.body, fb.hull, std::make_shared<FlatSurface>());
  boat.setCompartments({fb.compartment()});
  w.world.addAction(&boat);
  run(w, 1);
  // 0.1 m above the keel, in the middle compartment, at run time.
  EXPECT_EQ(boat.openHole(btVector3(0, -FloodBox::T + btScalar(0.1), 0), btScalar(0.04)), 0u);
  run(w, 90);
  const double expected = FloodBox::floodedDraft();
  EXPECT_NEAR(keelDepth(fb), expected, 1e-3 * expected);
  w.world.removeAction(&boat);
}

TEST(Flooding, HoledAboveTheWaterlineStaysDry) {
  World w;
  FloodBox fb(w);
  WaterAction boat(fb.body, fb.hull, std::make_shared<FlatSurface>());
  boat.setCompartments({fb.compartment()});
  w.world.addAction(&boat);
  run(w, 1);
  EXPECT_EQ(boat.openHole(btVector3(0, btScalar(0.6), 0), btScalar(0.05)), 0u);  // 0.4 m above the water
  run(w, 30);
  EXPECT_EQ(boat.flooding().compartments[0].water_m3, 0);
  EXPECT_NEAR(keelDepth(fb), FloodBox::T, 1e-3 * FloodBox::T);
  w.world.removeAction(&boat);
}

TEST(Flooding, HoledBelowWithoutReserveSinksToTheBottomAndStaysFinite) {
  World w;
  FloodBox fb(w);
  // A sea bed 30 m down.
  btRigidBody* bed = w.addBox(btVector3(100, 2, 100), 0,
                              btTransform(btQuaternion::getIdentity(), btVector3(0, -31, 0)));
  (void)bed;
  WaterAction boat(fb.body, fb.hull, std::make_shared<FlatSurface>());
  w.world.addAction(&boat);
  run(w, 1);
  // No compartments: the hole floods the whole hull, whose water alone
  // weighs as much as the sea it displaces.
  EXPECT_EQ(boat.openHole(btVector3(0, -FloodBox::D / 2, 0), btScalar(0.5)), 0u);
  ASSERT_EQ(boat.compartments().size(), 1u);
  run(w, 240);
  const btVector3 p = fb.body->getCenterOfMassPosition();
  ASSERT_TRUE(std::isfinite(p.x()) && std::isfinite(p.y()) && std::isfinite(p.z()));
  EXPECT_NEAR(p.y(), -30 + FloodBox::D / 2, 0.05);  // resting on the bed
  EXPECT_LT(boat.flooding().reserveBuoyancy_kg, 0);
  EXPECT_NEAR(boat.flooding().compartments[0].water_m3, fb.hull->volume_m3(), 1e-3 * fb.hull->volume_m3());
  w.world.removeAction(&boat);
}

/// Sum of the compartments' water less what they started with [m^3].
double waterGained(const WaterAction& boat) {
  double sum = 0;
  for (std::size_t i = 0; i < boat.compartments().size(); ++i)
    sum += boat.flooding().compartments[i].water_m3 - double(boat.compartments()[i].water_m3);
  return sum;
}

TEST(Flooding, WaterTakenFromTheSeaIsTheWaterInTheBoat) {
  World w;
  FloodBox fb(w, btScalar(0.3));  // released high: it bobs and rolls
  fb.body->setDamping(0, 0);
  fb.body->setAngularVelocity(btVector3(btScalar(0.3), 0, btScalar(0.2)));
  auto sea = gerstnerSea(1.0, 5.0, 12, 7, 0.1);
  WaterAction boat(fb.body, fb.hull, sea);
  // Two compartments joined by a door, one holed, one pumped.
  Compartment fore{"fore",        hullOf(box(btVector3(1, 2, 1), 1, btVector3(1, 0, 0))), {}, 0, btScalar(0.1),
                   btScalar(0.85)};
  Compartment aft{"aft", hullOf(box(btVector3(1, 2, 1), 1, btVector3(-1, 0, 0))), {}, btScalar(0.002), 0, 1};
  fore.openings.push_back(Opening{btVector3(1, btScalar(-0.8), 0), btScalar(0.02)});
  fore.openings.push_back(Opening{btVector3(btScalar(0.5), btScalar(-0.5), 0), btScalar(0.05), btScalar(0.6), 0, 1});
  boat.setCompartments({fore, aft});
  w.world.addAction(&boat);
  for (int s = 0; s < 6; ++s) {
    run(w, 5);
    const double taken = boat.flooding().takenFromSea_m3;
    // Each substep adds and subtracts the same doubles: the balance drifts
    // by round-off only, a few ulps of the water per substep at most.
    const double bound = 240.0 * 5 * (s + 1) * 4 * std::numeric_limits<double>::epsilon() * std::max(taken, 1.0);
    EXPECT_NEAR(waterGained(boat), taken, bound) << "after " << 5 * (s + 1) << " s";
    if (s == 5) reportFigure("water balance: gained - taken from the sea [m^3]", waterGained(boat) - taken, 0);
  }
  EXPECT_GT(boat.flooding().compartments[1].water_m3, 0);  // water went through the door
  w.world.removeAction(&boat);
}

TEST(Flooding, UpsideDownAndUnderwaterStaysFinite) {
  World w;
  FloodBox fb(w, btScalar(-3));
  fb.body->setCenterOfMassTransform(btTransform(btQuaternion(btVector3(0, 0, 1), btScalar(3.0)), btVector3(0, -3, 0)));
  WaterAction boat(fb.body, fb.hull, gerstnerSea(2.0, 6.0, 8, 3, 0.1));
  Compartment c = fb.compartment();
  c.openings.push_back(Opening{btVector3(0, FloodBox::D / 2, 0), btScalar(0.3)});  // its deck, now underneath
  c.openings.push_back(Opening{btVector3(0, -FloodBox::D / 2, 0), btScalar(0.3)});
  c.pumpRate_m3ps = btScalar(0.05);
  boat.setCompartments({c});
  w.world.addAction(&boat);
  for (int s = 0; s < 40; ++s) {
    run(w, 1);
    const btVector3 p = fb.body->getCenterOfMassPosition(), v = fb.body->getLinearVelocity();
    ASSERT_TRUE(std::isfinite(p.length()) && std::isfinite(v.length())) << "after " << s + 1 << " s";
    ASSERT_LT(v.length(), 20) << "after " << s + 1 << " s";
    const double water = boat.flooding().compartments[0].water_m3;
    ASSERT_TRUE(water >= 0 && water <= double(fb.room->volume_m3())) << water;
  }
  w.world.removeAction(&boat);
}

TEST(Flooding, RejectsBadCompartments) {
  World w;
  FloodBox fb(w);
  WaterAction boat(fb.body, fb.hull, std::make_shared<FlatSurface>());
  auto message = [&](Compartment c) {
    try {
      boat.setCompartments({c});
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  Compartment c = fb.compartment();
  EXPECT_NE(message(Compartment{"x", nullptr, {}, 0, 0, 1}).find("no mesh"), std::string::npos);
  c.water_m3 = 100;
  EXPECT_NE(message(c).find("outside [0"), std::string::npos);
  c.water_m3 = 0;
  c.permeability = 0;
  EXPECT_NE(message(c).find("permeability must be in (0, 1]"), std::string::npos);
  c.permeability = 1;
  c.openings.push_back(Opening{btVector3(0, 0, 0), -1});
  EXPECT_NE(message(c).find("opening 0: area"), std::string::npos);
  c.openings[0] = Opening{btVector3(0, 0, 0), 1, 2};
  EXPECT_NE(message(c).find("discharge coefficient"), std::string::npos);
  c.openings[0] = Opening{btVector3(0, 0, 0), 1, btScalar(0.6), 0, 0};
  EXPECT_NE(message(c).find("not another compartment"), std::string::npos);
  // A mesh of two overlapping boxes (accepted by Hull on request, for the
  // column model): its shared volume would hold water twice.
  HullOptions overlapping;
  overlapping.overlappingParts = true;
  const Mesh two = joined(box(btVector3(1, 1, 1)), box(btVector3(1, 1, 1), 1, btVector3(btScalar(0.5), 0, 0)));
  c.openings.clear();
  c.space = std::make_shared<const Hull>(two.vertices, two.triangles, overlapping);
  EXPECT_NE(message(c).find("overlapping parts"), std::string::npos);
  EXPECT_THROW(boat.openHole(btVector3(0, std::nanf(""), 0), 1), std::invalid_argument);
  EXPECT_TRUE(boat.compartments().empty());
}

}  // namespace
}  // namespace keel::test
