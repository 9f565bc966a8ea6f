#pragma once
/// @file attitude.hpp
/// A boat's heel, trim and draft, for a HUD, a capsize rule or an autopilot.
/// Keel does not know which way a hull points: give its forward and up axes
/// in the body frame (docs/integration.md, "Heel, trim and draft").

#include <keel/config.hpp>

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btVector3.h>

namespace keel::KEEL_ABI {

class WaterAction;

/// Which way a hull points, in its body (centre-of-mass) frame. Neither need
/// be of unit length; `up` is made perpendicular to `forward`. Starboard is
/// then `forward x up` (Bullet's frames are right-handed).
struct HullAxes {
  btVector3 forward{1, 0, 0};  ///< towards the bow, body frame
  btVector3 up{0, 1, 0};       ///< from the keel towards the deck, body frame
};

/// A boat's attitude on the water.
struct Attitude {
  /// Roll about the forward axis [rad], positive with the starboard side
  /// down, in [-pi, pi]: the last angle of a yaw, pitch, roll (Tait-Bryan)
  /// decomposition of the pose, `atan2(-(starboard . up), deck . up)`.
  btScalar heel_rad = 0;
  /// Pitch [rad], positive bow up, in [-pi/2, pi/2]: the forward axis's
  /// angle above the horizontal, `asin(forward . up)`.
  btScalar trim_rad = 0;
  /// WaterAction::draft_m(): the hull's lowest point's depth below the water [m].
  btScalar draft_m = 0;
};

/// Heel [rad] (Attitude::heel_rad) of a hull whose body axes are turned to
/// world axes by `bodyToWorld`, relative to the water's up `waterUp_world`
/// (-gravity; any length). Throws std::invalid_argument when `axes.forward`
/// and `axes.up` are zero or parallel; NaN when `waterUp_world` is zero.
[[nodiscard]] btScalar heel_rad(const btMatrix3x3& bodyToWorld, const HullAxes& axes, const btVector3& waterUp_world);
/// Trim [rad] (Attitude::trim_rad); arguments and errors as heel_rad().
[[nodiscard]] btScalar trim_rad(const btMatrix3x3& bodyToWorld, const HullAxes& axes, const btVector3& waterUp_world);
/// Heel and trim of `boat`'s body now, relative to -gravity (the body's
/// own), and the draft of its last substep. Errors as heel_rad().
[[nodiscard]] Attitude attitude(const WaterAction& boat, const HullAxes& axes = {});

}  // namespace keel::KEEL_ABI
