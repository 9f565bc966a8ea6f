#pragma once
// Watertight bulkheads, and holes where something hits a boat hard
// (docs/flooding.md, "In a game"). Keel floods what the game holes: when and
// where is the game's.

#include <keel/water_action.hpp>

#include <btBulletDynamicsCommon.h>

#include <span>

namespace game {

/// Gives `boat` `count` equal compartments between bulkheads across its
/// `forward` axis (body frame), from bow to stern.
void addBulkheads(keel::WaterAction& boat, const btVector3& forward, int count);

/// Holes each of `boats` at every new contact of the last step hard enough
/// to change its speed by more than `speed_mps` (impulse over mass), with a
/// hole of `area_m2`. Call after stepSimulation. Returns the holes made.
int holeOnHardContacts(btDynamicsWorld& world, std::span<keel::WaterAction* const> boats, btScalar speed_mps,
                       btScalar area_m2);

}  // namespace game
