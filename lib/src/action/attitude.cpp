// Heel, trim and draft (docs/integration.md, "Heel, trim and draft").
#include <keel/attitude.hpp>
#include <keel/water_action.hpp>

#include "action/hull_axes.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace keel::KEEL_ABI {
namespace detail {

UnitHullAxes unitHullAxes(const HullAxes& axes) {
  const btScalar forwardLength = axes.forward.length();
  const btVector3 forward = forwardLength > 0 ? axes.forward / forwardLength : btVector3(0, 0, 0);
  const btVector3 up = axes.up - forward * axes.up.dot(forward);  // Gram-Schmidt
  const btScalar upLength = up.length();
  // The tolerance is relative: up within about 1e-3 rad of forward (or either zero) is no frame.
  if (!(forwardLength > 0) || !(upLength > btScalar(1e-3) * axes.up.length()))
    throw std::invalid_argument("keel::HullAxes: forward and up must be non-zero and not parallel");
  return {forward, up / upLength, forward.cross(up / upLength)};
}

}  // namespace detail
namespace {

/// The hull's forward, up and starboard axes in world axes, unit and
/// orthogonal, and the water's up, unit (NaN when zero).
struct WorldAxes {
  btVector3 forward, up, starboard, waterUp;
};

WorldAxes worldAxes(const btMatrix3x3& bodyToWorld, const HullAxes& axes, const btVector3& waterUp_world) {
  const detail::UnitHullAxes body = detail::unitHullAxes(axes);
  WorldAxes w;
  w.forward = bodyToWorld * body.forward;
  w.up = bodyToWorld * body.up;
  w.starboard = w.forward.cross(w.up);
  w.waterUp = waterUp_world / waterUp_world.length();
  return w;
}

}  // namespace

btScalar heel_rad(const btMatrix3x3& bodyToWorld, const HullAxes& axes, const btVector3& waterUp_world) {
  const WorldAxes w = worldAxes(bodyToWorld, axes, waterUp_world);
  // + 0 turns the -0 of an upright hull into 0 (a HUD would print "-0.0").
  return std::atan2(-w.starboard.dot(w.waterUp), w.up.dot(w.waterUp)) + btScalar(0);
}

btScalar trim_rad(const btMatrix3x3& bodyToWorld, const HullAxes& axes, const btVector3& waterUp_world) {
  const WorldAxes w = worldAxes(bodyToWorld, axes, waterUp_world);
  return std::asin(std::clamp(w.forward.dot(w.waterUp), btScalar(-1), btScalar(1))) + btScalar(0);
}

Attitude attitude(const WaterAction& boat, const HullAxes& axes) {
  const btMatrix3x3& basis = boat.body()->getCenterOfMassTransform().getBasis();
  const btVector3 up = -boat.body()->getGravity();
  return {heel_rad(basis, axes, up), trim_rad(basis, axes, up), boat.draft_m()};
}

}  // namespace keel::KEEL_ABI
