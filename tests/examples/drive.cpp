#include "drive.hpp"

#include <cmath>

namespace game {

std::unique_ptr<keel::Propulsion> addDrive(btDynamicsWorld& world, const keel::WaterAction& boat,
                                           const keel::MassProperties& mass, const DriveSpec& spec,
                                           btScalar substep_s) {
  // The body is turned from the file onto its principal axes: map the
  // file's bow, deck and points into it.
  const keel::PropulsionLayout layout{.forward = mass.directionInBody(btVector3(1, 0, 0)),
                                      .up = mass.directionInBody(btVector3(0, 1, 0)),
                                      .propeller_m = mass.pointInBody(spec.hub_m),
                                      .rudder_m = mass.pointInBody(spec.rudder_m),
                                      .rudderSpan_m = std::sqrt(spec.rudderAspectRatio * spec.rudderArea_m2)};
  const keel::Propeller screw(spec.screw);  // throws outside the series' range
  const keel::Rudder rudder({.area_m2 = spec.rudderArea_m2, .aspectRatio = spec.rudderAspectRatio});
  auto drive = std::make_unique<keel::Propulsion>(boat, screw, rudder, layout);
  drive->prime(substep_s);       // its forces from the first substep on, as WaterAction::prime
  world.addAction(drive.get());  // after the boat: it reads the velocity Bullet integrated
  return drive;
}

}  // namespace game
