#pragma once
// A boat's mass from what it is made of, and its rigid body in the frame
// Bullet wants (docs/mass.md).

#include <keel/mass_properties.hpp>

#include <btBulletDynamicsCommon.h>

#include <memory>

namespace game {

/// A boat drawn in a file's frame (y up, origin on the waterline), weighed
/// and moved into its body frame.
struct WeighedBoat {
  keel::MassProperties mass;               ///< in the file's frame
  std::shared_ptr<const keel::Hull> hull;  ///< body frame: centre of mass, principal axes
  double draft_m = 0;                      ///< where it floats upright in sea water
  /// The file's bow (+x) and deck (+y) in body axes, turned by the principal
  /// axes: for keel::attitude, a HUD and a propeller.
  keel::HullAxes axes;
};

/// A GRP boat with an engine and cast iron in its bilge.
WeighedBoat weighBoat(const keel::Hull& fileHull, double engine_kg, const btVector3& engine_m);

/// Its rigid body, the file's frame placed at `fileInWorld`; `shape` in the body frame.
std::unique_ptr<btRigidBody> makeBody(const WeighedBoat& boat, btCollisionShape& shape, const btTransform& fileInWorld);

}  // namespace game
