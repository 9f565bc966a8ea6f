#pragma once
// A boat's propeller and rudder with Keel's keel::Propulsion
// (docs/propulsion.md; docs/integration.md, "A propeller and a rudder").

#include <keel/mass_properties.hpp>
#include <keel/propulsion.hpp>

#include <btBulletDynamicsCommon.h>

#include <memory>

namespace game {

/// A boat's screw and rudder, placed in its mesh file's frame (y up, bow +x).
struct DriveSpec {
  keel::PropellerGeometry screw;  ///< a Wageningen B-series screw
  btVector3 hub_m;                ///< the screw's hub, file frame [m]
  btVector3 rudder_m;             ///< the rudder blade's centre, file frame [m]
  double rudderArea_m2;           ///< one side of the blade
  double rudderAspectRatio = 1.5;
};

/// Drives `boat`, whose body is on the principal axes of `mass`, with
/// `spec`'s screw and rudder, added to `world` after the boat (which must
/// be in it already), its forces primed for a first substep of `substep_s`.
/// Remove it from the world before destroying it.
std::unique_ptr<keel::Propulsion> addDrive(btDynamicsWorld& world, const keel::WaterAction& boat,
                                           const keel::MassProperties& mass, const DriveSpec& spec, btScalar substep_s);

}  // namespace game
