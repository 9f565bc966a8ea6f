#pragma once
// Watertight bulkheads, and holes where something hits a boat hard
// (docs/flooding.md, "In a game"). Keel floods what the game holes: when and
// where is the game's.

#include <keel/collision_holing.hpp>
#include <keel/water_action.hpp>

#include <btBulletDynamicsCommon.h>

namespace game {

/// Gives `boat` `count` equal compartments between bulkheads across its
/// `forward` axis (body frame), numbered from the stern (the least
/// position along `forward`, bulkheadCompartments' order) to the bow.
void addBulkheads(keel::WaterAction& boat, const btVector3& forward, int count);
/// The same, each split by a bulkhead on the centreline across `starboard`
/// (body frame): `2 count` compartments, so that a hole on one side floods
/// that side only and the boat lists.
void addBulkheadsAndCentreline(keel::WaterAction& boat, const btVector3& forward, const btVector3& starboard,
                               int count);

/// The damage rule of a harbour: a contact that changes a boat's speed by
/// more than `speed_mps` in one substep holes it with a hole of `area_m2`,
/// once per impact. Checks every substep of `world` while it lives.
class HardContactHoles {
 public:
  HardContactHoles(btDynamicsWorld& world, btScalar speed_mps, btScalar area_m2);
  ~HardContactHoles();
  HardContactHoles(const HardContactHoles&) = delete;
  HardContactHoles& operator=(const HardContactHoles&) = delete;

  keel::CollisionHoling holing;  ///< add each boat to it; holes() lists the holes made

 private:
  btDynamicsWorld& world_;
};

}  // namespace game
