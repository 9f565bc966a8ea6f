// Flooding's inputs (docs/flooding.md): the sea's height at an opening
// checked, water kept within its capacity and accepted back, a hole of any
// size stepped without overshoot, compartments that do not fit the hull
// refused, holes in a hull of overlapping parts, no flow while priming, and
// one rule for the starting water and for doors.
#include "test_hulls.hpp"

#include <keel/hull_slice.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace keel::test {
namespace {

/// A box boat 4 (x) by 2 (y, up) by 4 m (z), its centre of mass at the
/// origin and the sea at y = 0, held there: the action runs without Bullet
/// moving the body. Its room is a 2 x 1.8 x 2 m box (7.2 m^3) about the
/// centre, open to the sea at the bottom when given a hole.
struct HeldBoat {
  static constexpr btScalar kDt = btScalar(1.0 / 240);
  static constexpr double kLevelWater_m3 = 3.6;  // the room filled to the sea's level
  explicit HeldBoat(std::shared_ptr<const WaterSurface> sea = std::make_shared<FlatSurface>())
      : hull(hullOf(box(btVector3(4, 2, 4)))), room(hullOf(box(btVector3(2, btScalar(1.8), 2)))) {
    body = w.addBox(btVector3(4, 2, 4), 8000, btTransform::getIdentity());
    HydrostaticSettings statics;
    statics.sampling = Sampling::Direct;  // the hull's corners only: the openings' heights are the openings'
    boat = std::make_unique<WaterAction>(body, hull, std::move(sea), statics);
  }
  [[nodiscard]] Compartment holedRoom(btScalar area_m2, double water_m3 = 0) const {
    return Compartment{"room", room, {Opening{btVector3(0, btScalar(-0.8), 0), area_m2}}, 0, btScalar(water_m3), 1};
  }
  void step(int substeps = 1) {
    for (int i = 0; i < substeps; ++i) boat->updateAction(&w.world, kDt);
  }
  [[nodiscard]] double water() const { return boat->flooding().compartments[0].water_m3; }
  World w;
  std::shared_ptr<const Hull> hull, room;
  btRigidBody* body;
  std::unique_ptr<WaterAction> boat;
};

/// The sea at y = 0, but `at` within 0.5 m of the origin (the room's hole,
/// none of the hull's corners).
std::shared_ptr<const WaterSurface> seaAnsweringAtTheHole(btScalar at) {
  return std::make_shared<FunctionSurface>(
      [at](btScalar u, btScalar v, double) { return u * u + v * v < btScalar(0.25) ? at : btScalar(0); });
}

TEST(FloodingHardening, ImplausibleSeaHeightAtAnOpeningIsFlaggedAndReplaced) {
  HeldBoat b(seaAnsweringAtTheHole(btScalar(1e30)));
  b.boat->setCompartments({b.holedRoom(btScalar(0.01))});
  b.step(240);
  // The sea's 1e30 m would fill the room in a second; the hull's water
  // stands in for it, and the room fills towards the sea's level only.
  EXPECT_NE(b.boat->status().flags & StatusImplausibleHeight, 0u) << b.boat->status().describe();
  EXPECT_EQ(b.boat->status().implausibleHeights, 240u);
  EXPECT_GT(b.water(), 0.02);
  EXPECT_LE(b.water(), HeldBoat::kLevelWater_m3);
}

TEST(FloodingHardening, NonFiniteSeaHeightAtAnOpeningIsFlaggedAndReplaced) {
  HeldBoat b(seaAnsweringAtTheHole(std::numeric_limits<btScalar>::quiet_NaN()));
  b.boat->setCompartments({b.holedRoom(btScalar(0.01))});
  b.step(240);
  // Not a silent stop: flagged, and the water flows as the hull's sea says.
  EXPECT_NE(b.boat->status().flags & StatusNonFiniteHeight, 0u) << b.boat->status().describe();
  EXPECT_EQ(b.boat->status().nonFiniteHeights, 240u);
  HeldBoat plain;
  plain.boat->setCompartments({plain.holedRoom(btScalar(0.01))});
  plain.step(240);
  EXPECT_EQ(b.water(), plain.water());
  EXPECT_GT(plain.water(), 0.02);
}

TEST(FloodingHardening, HugeHoleFillsToTheSeaLevelMonotonicallyWithoutOvershoot) {
  // Filling from dry and draining from full through 1,000 m^2: what one
  // substep moves is at most what equalises the heads (the room's free
  // surface times the head difference, exact for a wall-sided room).
  for (const bool full : {false, true}) {
    HeldBoat b;
    const double start = full ? double(b.room->volume_m3()) : 0;
    b.boat->setCompartments({b.holedRoom(1000, start)});
    // To the level solve's tolerance: 16 btScalar epsilons of the room's
    // volume (flood/level.cpp), which a head read from the level carries.
    const double tolerance = 16 * double(std::numeric_limits<btScalar>::epsilon()) * double(b.room->volume_m3());
    double last = start;
    for (int i = 0; i < 60; ++i) {
      b.step();
      const double now = b.water();
      if (!full) {
        EXPECT_GE(now, last - tolerance) << "substep " << i;
        EXPECT_LE(now, HeldBoat::kLevelWater_m3 + tolerance) << "substep " << i;
      } else {
        EXPECT_LE(now, last + tolerance) << "substep " << i;
        EXPECT_GE(now, HeldBoat::kLevelWater_m3 - tolerance) << "substep " << i;
      }
      last = now;
    }
    EXPECT_NEAR(last, HeldBoat::kLevelWater_m3, tolerance) << (full ? "from full" : "from dry");
  }
}

/// The boat's own report of its water, set back as its starting water.
void setReportedWaterBack(WaterAction& boat) {
  std::vector<Compartment> again = boat.compartments();
  for (std::size_t i = 0; i < again.size(); ++i) {
    const CompartmentStatus& c = boat.flooding().compartments[i];
    EXPECT_LE(c.water_m3, double(c.capacity_m3)) << "compartment " << i;
    again[i].water_m3 = btScalar(c.water_m3);
  }
  EXPECT_NO_THROW(boat.setCompartments(again));
}

TEST(FloodingHardening, WaterStaysWithinCapacityAndIsAcceptedBack) {
  // Deep under the sea, rooms of permeabilities that float cannot hold
  // exactly, full to the brim and joined by a door, the lower one starting
  // at its capacity: every substep's water within [0, capacity], and the
  // reported water accepted back.
  for (const btScalar permeability : {btScalar(0.95), btScalar(0.85), btScalar(0.6), btScalar(0.7), btScalar(0.33)}) {
    HeldBoat b(std::make_shared<FlatSurface>(btScalar(50)));
    const auto upper = hullOf(box(btVector3(btScalar(1.3), btScalar(0.7), btScalar(1.1)), 1, btVector3(1, 0.5, 0)));
    const auto lower = hullOf(box(btVector3(btScalar(0.9), btScalar(0.7), btScalar(1.7)), 1, btVector3(-1, -0.5, 0)));
    Compartment a{"upper", upper, {Opening{btVector3(1, btScalar(0.3), 0), btScalar(0.3)}}, 0, 0, permeability};
    a.openings.push_back(Opening{btVector3(0, 0, 0), btScalar(0.2), btScalar(0.6), btScalar(2), 1});
    Compartment c{"lower", lower, {}, 0, 0, permeability};
    c.water_m3 = c.permeability * lower->volume_m3();
    b.boat->setCompartments({a, c});
    for (int i = 0; i < 120; ++i) {
      b.step();
      for (const CompartmentStatus& s : b.boat->flooding().compartments) {
        ASSERT_GE(s.water_m3, 0);
        ASSERT_LE(s.water_m3, double(s.capacity_m3)) << "permeability " << permeability << ", substep " << i;
      }
    }
    setReportedWaterBack(*b.boat);
  }
}

std::string refusal(WaterAction& boat, std::vector<Compartment> compartments) {
  try {
    boat.setCompartments(std::move(compartments));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(FloodingHardening, CompartmentsThatDoNotFitTheHullAreRefused) {
  HeldBoat b;
  const auto at = [](const btVector3& size, const btVector3& centre) { return hullOf(box(size, 1, centre)); };
  const Compartment outside{"outside", at(btVector3(1, 1, 1), btVector3(10, 0, 0)), {}, 0, 0, 1};
  EXPECT_NE(refusal(*b.boat, {outside}).find("compartment 0 \"outside\": its bounds along body axis 0"),
            std::string::npos)
      << refusal(*b.boat, {outside});
  const Compartment larger{"larger", at(btVector3(5, 3, 5), btVector3(0, 0, 0)), {}, 0, 0, 1};
  EXPECT_NE(refusal(*b.boat, {larger}).find("not inside the hull"), std::string::npos);
  // Each alone fits; two overlapping halves, and a room inside another.
  const Compartment left{"left", at(btVector3(2, 2, 4), btVector3(-0.5, 0, 0)), {}, 0, 0, 1};
  const Compartment right{"right", at(btVector3(2, 2, 4), btVector3(0.5, 0, 0)), {}, 0, 0, 1};
  EXPECT_NE(refusal(*b.boat, {left, right}).find("compartment 0 \"left\": it overlaps compartment 1"),
            std::string::npos)
      << refusal(*b.boat, {left, right});
  const Compartment inner{"inner", at(btVector3(1, 1, 1), btVector3(0.5, 0, 0)), {}, 0, 0, 1};
  EXPECT_NE(refusal(*b.boat, {right, inner}).find("overlaps compartment 1"), std::string::npos);
  const Compartment same{"same", right.space, {}, 0, 0, 1};
  EXPECT_NE(refusal(*b.boat, {right, same}).find("overlaps compartment 1"), std::string::npos);
  // Whole volumes beyond the hull's: more than 1 % over.
  EXPECT_NE(refusal(*b.boat, {left, right, right}).find("overlap"), std::string::npos);
  // Bulkhead and centreline slices share faces without overlapping.
  const btScalar positions[] = {-1, 0, btScalar(1.2)};
  EXPECT_EQ(
      refusal(*b.boat, sideCompartments(*b.hull, btVector3(1, 0, 0), positions, btVector3(0, 0, 1), btScalar(0.001))),
      "accepted");
}

TEST(FloodingHardening, HoleInAHullOfOverlappingPartsWithCompartments) {
  World w;
  const Mesh parts = joined(box(btVector3(4, 2, 2)), box(btVector3(2, 2, 4)));  // a cross of two boxes
  HullOptions options;
  options.overlappingParts = true;
  const auto hull = std::make_shared<const Hull>(parts.vertices, parts.triangles, options);
  btRigidBody* body = w.addBox(btVector3(4, 2, 4), 4000, btTransform::getIdentity());
  WaterAction boat(body, hull, std::make_shared<FlatSurface>());
  // Without compartments the hull cannot be one: said so, naming no
  // compartment the user never made.
  try {
    (void)boat.openHole(btVector3(0, -1, 0), btScalar(0.01));
    ADD_FAILURE() << "a hull of overlapping parts was taken as one compartment";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("give it compartments first"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find("\"hull\""), std::string::npos) << e.what();
  }
  boat.setCompartments({Compartment{"middle", hullOf(box(btVector3(1, 2, 1))), {}, 0, 0, 1}});
  EXPECT_EQ(boat.openHole(btVector3(0, btScalar(-0.9), 0), btScalar(0.01)), 0u);
  EXPECT_EQ(boat.compartments()[0].openings.size(), 1u);
}

TEST(FloodingHardening, PrimingMovesNoWater) {
  HeldBoat b;
  Compartment pumped = b.holedRoom(btScalar(0.01), 1);
  pumped.pumpRate_m3ps = btScalar(0.01);
  b.boat->setCompartments({pumped});
  for (int i = 0; i < 3; ++i) b.boat->prime(HeldBoat::kDt);
  EXPECT_EQ(b.water(), 1);
  EXPECT_EQ(b.boat->flooding().compartments[0].inflow_m3ps, 0);
  EXPECT_NEAR(b.boat->flooding().floodwaterMass_kg, 1025, 1e-3);  // its weight acts
  b.step();                                                       // time passes: the pump and the hole work
  EXPECT_NE(b.water(), 1);
}

TEST(FloodingHardening, StartingWaterUpToTheCapacityAndDoorsListedOnce) {
  HeldBoat b;
  Compartment room = b.holedRoom(btScalar(0.01));
  room.permeability = btScalar(0.85);
  room.water_m3 = room.permeability * b.room->volume_m3();
  EXPECT_EQ(refusal(*b.boat, {room}), "accepted");
  EXPECT_EQ(b.boat->flooding().compartments[0].capacity_m3, room.water_m3);
  room.water_m3 = std::nextafter(room.water_m3, btScalar(10));
  EXPECT_NE(refusal(*b.boat, {room}).find("(its capacity: permeability times volume)"), std::string::npos);
  // A door between two rooms, listed in one: accepted; in both: refused.
  const auto fore = hullOf(box(btVector3(1, 2, 2), 1, btVector3(btScalar(0.5), 0, 0)));
  const auto aft = hullOf(box(btVector3(1, 2, 2), 1, btVector3(btScalar(-0.5), 0, 0)));
  const Opening door{btVector3(0, btScalar(-0.5), 0), btScalar(0.5), btScalar(0.6), 1, 1};
  Compartment a{"fore", fore, {door}, 0, 0, 1}, c{"aft", aft, {}, 0, 0, 1};
  EXPECT_EQ(refusal(*b.boat, {a, c}), "accepted");
  Opening back = door;
  back.to = 0;
  c.openings.push_back(back);
  EXPECT_NE(refusal(*b.boat, {a, c}).find("lists the same door back (its opening 0): list a door once"),
            std::string::npos)
      << refusal(*b.boat, {a, c});
}

TEST(FloodingHardening, BulkheadCompartmentsAreNumberedFromTheStern) {
  // docs/flooding.md's example: compartment 0 at the least position along
  // forward, the stern; the last at the bow.
  HeldBoat b;
  const btScalar positions[] = {-1, 1};
  const auto c = bulkheadCompartments(*b.hull, btVector3(1, 0, 0), positions);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_LT(c[0].space->centroid_m().x(), c[1].space->centroid_m().x());
  EXPECT_LT(c[1].space->centroid_m().x(), c[2].space->centroid_m().x());
}

}  // namespace
}  // namespace keel::test
