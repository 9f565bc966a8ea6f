#include "propeller_rudder.hpp"

#include <cmath>

namespace game {
namespace {

/// True when the world point `p_m` is below `water`'s surface.
bool underWater(const keel::WaterSurface& water, const keel::WaterFrame& frame, const btVector3& p_m, double t_s) {
  return p_m.dot(frame.up) < water.height(p_m.dot(frame.east), p_m.dot(frame.north), t_s);
}

}  // namespace

// The propeller pushes along the bow only while it is under the surface Keel
// floats the boat on. The rudder is a flat plate whose force resists the
// water flowing through it, F = -1/2 rho C_N A |v| (v . n) n with C_N = 2,
// so it turns the boat with way on and keeps it running straight. Both act
// as impulses from the pre-tick callback: once per substep, whatever
// maxSubSteps (docs/model.md §3).
DriveForces applyDrive(btRigidBody& body, const Drive& drive, const Helm& helm, const keel::WaterSurface& water,
                       double t_s, btScalar dt_s) {
  DriveForces out;
  keel::WaterFrame frame;  // the axes Keel gives the water: up is -gravity
  if (!keel::WaterFrame::fromGravity(body.getGravity(), frame) || body.getInvMass() == 0) return out;
  const btMatrix3x3& basis = body.getCenterOfMassTransform().getBasis();
  const btVector3 origin = body.getCenterOfMassPosition();
  const btVector3 propeller = basis * drive.propeller_m;  // relative to the centre of mass, world axes
  out.propellerWet = underWater(water, frame, origin + propeller, t_s);
  if (out.propellerWet && helm.throttle != 0) {
    out.thrust_N = basis * drive.forward * btScalar(helm.throttle * drive.maxThrust_N);
    body.applyImpulse(out.thrust_N * dt_s, propeller);
  }

  const btVector3 rudder = basis * drive.rudder_m;
  const btVector3 blade = origin + rudder;
  if (!underWater(water, frame, blade, t_s)) return out;
  const keel::WaterVelocity current = water.velocity(blade.dot(frame.east), blade.dot(frame.north), blade.dot(frame.up),
                                                     t_s);
  const btVector3 flow = body.getVelocityInLocalPoint(rudder) - frame.toWorld(current);  // boat relative to water
  // The blade's normal: starboard (forward x up) turned about up by the helm.
  const btVector3 starboard = drive.forward.cross(drive.up);
  const btQuaternion helmTurn(drive.up, btScalar(helm.rudder * drive.maxRudder_rad));
  const btVector3 normal = basis * quatRotate(helmTurn, starboard);
  const btScalar through = flow.dot(normal);
  out.rudder_N = normal * btScalar(-0.5 * drive.waterDensity_kgpm3 * 2.0 * drive.rudderArea_m2 *
                                   double(flow.length() * through));
  // Never more than stops the flow through the blade in one substep.
  const btScalar limit = std::abs(through) / (body.getInvMass() * dt_s);
  if (out.rudder_N.length() > limit) out.rudder_N *= limit / out.rudder_N.length();
  body.applyImpulse(out.rudder_N * dt_s, rudder);
  return out;
}

}  // namespace game
