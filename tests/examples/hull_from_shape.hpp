#pragma once
// A boat from the collision shape a body already has (docs/integration.md,
// "Hulls from Bullet shapes").

#include <keel/hull_from_shape.hpp>
#include <keel/water_action.hpp>

#include <btBulletDynamicsCommon.h>

#include <memory>

namespace game {

/// The hull of `shape`, in its own frame (a rigid body's centre-of-mass
/// frame). Compound children that overlap make their union, which floats
/// on Keel's column model.
std::shared_ptr<const keel::Hull> hullOf(const btCollisionShape& shape);

/// `body` floating on `water`, its hull its collision shape's.
std::unique_ptr<keel::WaterAction> floatBody(btRigidBody& body, std::shared_ptr<const keel::WaterSurface> water);

}  // namespace game
