#pragma once
// A propeller and a rudder for a boat that Keel floats (docs/integration.md,
// "A propeller and a rudder"). Keel computes the water's forces on the hull
// only: what drives and steers the boat is the game's.

#include <keel/water_surface.hpp>

#include <btBulletDynamicsCommon.h>

namespace game {

/// Where a boat's propeller and rudder are, and how strong: body
/// (centre-of-mass) frame.
struct Drive {
  /// Towards the bow, body frame, unit. A body on its principal axes is
  /// turned from its file's: MassProperties::directionInBody of the file's bow.
  btVector3 forward{1, 0, 0};
  btVector3 up{0, 1, 0};           ///< towards the deck, body frame, unit and perpendicular to forward
  btVector3 propeller_m{0, 0, 0};  ///< where the thrust acts, body frame [m] (MassProperties::pointInBody)
  double maxThrust_N = 0;          ///< thrust at full throttle [N]
  btVector3 rudder_m{0, 0, 0};     ///< centre of the rudder blade, body frame [m]
  double rudderArea_m2 = 0;        ///< one side of the blade [m^2]
  double maxRudder_rad = 0.6;      ///< the blade's angle at full helm [rad]
  double waterDensity_kgpm3 = 1025;
};

/// The helm.
struct Helm {
  double throttle = 0;  ///< -0.5 (astern) .. 1 (full ahead)
  double rudder = 0;    ///< -1 (hard to port) .. 1 (hard to starboard)
};

/// What the drive did in one substep (world axes).
struct DriveForces {
  btVector3 thrust_N{0, 0, 0};
  btVector3 rudder_N{0, 0, 0};
  bool propellerWet = false;  ///< the propeller was under the water: it pushed
};

/// Applies one substep of `dt_s` [s] of thrust and rudder force to `body`
/// as impulses, on `water` at time `t_s` [s] (the boat's water clock). Call
/// it from Bullet's pre-tick callback, once per substep.
DriveForces applyDrive(btRigidBody& body, const Drive& drive, const Helm& helm, const keel::WaterSurface& water,
                       double t_s, btScalar dt_s);

}  // namespace game
