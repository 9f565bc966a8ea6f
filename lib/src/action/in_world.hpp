#pragma once
// Whether a body is among the objects of the world that steps an action:
// Bullet integrates only those, so an action must leave any other alone
// (docs/model.md §3, "A body out of the world").

#include <keel/config.hpp>

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

namespace keel::KEEL_ABI::detail {

/// True when `world` is null (no world to check against) or holds `body`.
[[nodiscard]] inline bool inWorld(const btCollisionObject& body, const btCollisionWorld* world) {
  if (!world) return true;
  // Bullet keeps each object's index in its world's array, -1 once removed.
  const int k = body.getWorldArrayIndex();
  return k >= 0 && k < world->getNumCollisionObjects() && world->getCollisionObjectArray()[k] == &body;
}

}  // namespace keel::KEEL_ABI::detail
