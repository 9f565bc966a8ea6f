// keel::Propulsion: the Bullet glue around a Propeller and a Rudder. Reads
// the body and the water at the hub and the blade, computes their forces,
// and makes them act once in the next substep as WaterAction does
// (substep/once_per_substep.hpp).
#include <keel/propulsion.hpp>

#include "action/in_world.hpp"
#include "finite.hpp"
#include "substep/once_per_substep.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>
#include <LinearMath/btIDebugDraw.h>
#include <LinearMath/btQuaternion.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

/// The water at one point: its surface height along up [m] and its velocity
/// (world); flags for what it had to replace.
struct PointWater {
  double height_m = 0;
  btVector3 velocity_mps{0, 0, 0};
  bool wet = false;  ///< the surface answered with a finite height
};

PointWater waterAt(const WaterSurface& surface, const WaterFrame& frame, const btVector3& p_m, double t_s,
                   std::uint32_t& flags) {
  PointWater w;
  const btScalar u = p_m.dot(frame.east), v = p_m.dot(frame.north);
  const btScalar height = surface.height(u, v, t_s);
  if (!std::isfinite(height)) {  // no water known here: no force from it
    flags |= StatusNonFiniteHeight;
    return w;
  }
  w.height_m = double(height);
  w.wet = true;
  const btVector3 velocity = frame.toWorld(surface.velocity(u, v, p_m.dot(frame.up), t_s));
  if (detail::isFinite(velocity))
    w.velocity_mps = velocity;
  else
    flags |= StatusNonFiniteVelocity;  // taken as still
  return w;
}

/// The race's speed over the blade [m/s] along the shaft, from the inflow
/// `advance_mps`, the thrust, and the blade's distance `aft_m` behind the
/// disc. Momentum theory: far behind, sqrt(V_A^2 + 8 T / (rho pi D^2)); an
/// actuator disc's axial induced velocity grows along its axis from half of
/// that at the disc as (1 + x / sqrt(R^2 + x^2)) / 2 (Glauert, "The Elements
/// of Aerofoil and Airscrew Theory", 1947; the rudder's inflow of Söding,
/// "Prediction of ship steering capabilities", Schiffstechnik 29, 1982).
/// Written as V_A plus the increment, so that it stays continuous through
/// V_A = 0 and fades to V_A when the boat runs astern faster than the race
/// (docs/propulsion.md).
double raceSpeed_mps(double advance_mps, double thrust_N, double density_kgpm3, double diameter_m, double aft_m) {
  const double loading = 8 * std::max(thrust_N, 0.0) / (density_kgpm3 * std::numbers::pi * diameter_m * diameter_m);
  const double radius = 0.5 * diameter_m;
  const double developed = 0.5 * (1 + aft_m / std::sqrt(radius * radius + aft_m * aft_m));
  return advance_mps + developed * (std::sqrt(advance_mps * advance_mps + loading) - std::abs(advance_mps));
}

void validate(const PropulsionLayout& l, double density_kgpm3) {
  const char* bad = !detail::isFinite(l.forward) || l.forward.length2() < btScalar(1e-12) ? "forward"
                    : !detail::isFinite(l.up) || l.up.length2() < btScalar(1e-12)         ? "up"
                    : !detail::isFinite(l.propeller_m)                                    ? "propeller_m"
                    : !detail::isFinite(l.rudder_m)                                       ? "rudder_m"
                    : !(l.rudderSpan_m > 0) || !std::isfinite(l.rudderSpan_m)             ? "rudderSpan_m"
                                                                                          : nullptr;
  if (bad)
    throw std::invalid_argument(std::string("keel::Propulsion: layout.") + bad +
                                " must be finite (and a non-zero direction, or a positive span)");
  if (std::abs(double(l.forward.normalized().dot(l.up.normalized()))) > 1e-3)
    throw std::invalid_argument("keel::Propulsion: layout.up must be perpendicular to layout.forward");
  if (!(density_kgpm3 > 0) || !std::isfinite(density_kgpm3))
    throw std::invalid_argument("keel::Propulsion: water density must be positive and finite, got " +
                                std::to_string(density_kgpm3) + " kg/m^3");
}

}  // namespace

Propulsion::Propulsion(const WaterAction& boat, const Propeller& propeller, const Rudder& rudder,
                       const PropulsionLayout& layout)
    : Propulsion(boat.body(), boat.surface(), propeller, rudder, layout, double(boat.settings().waterDensity_kgpm3)) {
  boat_ = &boat;
  time_s_ = boat.time_s();
}

Propulsion::Propulsion(btRigidBody* body, std::shared_ptr<const WaterSurface> surface, const Propeller& propeller,
                       const Rudder& rudder, const PropulsionLayout& layout, double density_kgpm3)
    : body_(body),
      surface_(std::move(surface)),
      propeller_(propeller),
      rudder_(rudder),
      layout_(layout),
      density_kgpm3_(density_kgpm3) {
  if (!body_) throw std::invalid_argument("keel::Propulsion: body is null");
  if (!surface_) throw std::invalid_argument("keel::Propulsion: water surface is null");
  validate(layout_, density_kgpm3_);
  layout_.forward.normalize();
  layout_.up.normalize();
}

void Propulsion::setHelm(const Helm& helm) {
  if (!std::isfinite(helm.revolutions_ps))
    throw std::invalid_argument("keel::Propulsion::setHelm: revolutions_ps must be finite, got " +
                                std::to_string(helm.revolutions_ps));
  if (!std::isfinite(helm.rudder_rad))
    throw std::invalid_argument("keel::Propulsion::setHelm: rudder_rad must be finite, got " +
                                std::to_string(helm.rudder_rad));
  helm_ = helm;
}

void Propulsion::updateAction(btCollisionWorld* world, btScalar timeStep_s) {
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    report_ = PropulsionReport{};
    report_.flags = StatusBadTimeStep;
    return;
  }
  // On the boat's clock. The boat advances it by the same step at the start
  // of its own updateAction: if it already has, it ran before this action
  // in this substep, and its velocity change is in the body's velocity.
  bool boatRan = false;
  if (boat_) {
    const double boatTime_s = boat_->time_s();
    boatRan = boatTime_s != time_s_ && boatTime_s == time_s_ + double(timeStep_s);
    time_s_ = boatRan ? boatTime_s : boatTime_s + double(timeStep_s);
  } else {
    time_s_ += double(timeStep_s);
  }
  if (!detail::inWorld(*body_, world)) {
    report_ = PropulsionReport{};
    report_.flags = StatusNotInWorld;
    return;
  }
  step(timeStep_s, time_s_, boatRan);
}

void Propulsion::prime(btScalar timeStep_s) {
  if (!(timeStep_s > 0) || !std::isfinite(timeStep_s)) {
    report_ = PropulsionReport{};
    report_.flags = StatusBadTimeStep;
    return;
  }
  if (boat_) time_s_ = boat_->time_s();
  step(timeStep_s, time_s_, false);
}

void Propulsion::step(btScalar timeStep_s, double t_s, bool boatRan) {
  btRigidBody& body = *body_;
  btVector3 velocity = body.getLinearVelocity(), spin = body.getAngularVelocity();
  if (boatRan) velocity -= boat_->pendingLinearVelocity_mps(), spin -= boat_->pendingAngularVelocity_radps();
  if (!compute(velocity, spin, t_s)) return;
  // As WaterAction: the velocity change Bullet's solver would give the
  // force, undamped ahead of the damping Bullet applies first.
  btVector3 linear, angular;
  detail::forceVelocityChange(report_.force_N, report_.torque_Nm, body.getInvMass(), body.getInvInertiaTensorWorld(),
                              body.getLinearFactor(), body.getAngularFactor(), timeStep_s, linear, angular);
  (void)detail::undoNextDamping(detail::dampingFactor(body.getLinearDamping(), timeStep_s),
                                detail::dampingFactor(body.getAngularDamping(), timeStep_s), linear, angular);
  if (!detail::isFinite(linear) || !detail::isFinite(angular)) {
    report_.flags |= StatusNonFiniteForce;
    return;
  }
  if (linear.isZero() && angular.isZero()) return;
  body.activate();  // a sleeping body ignores velocity changes
  body.setLinearVelocity(body.getLinearVelocity() + linear);
  body.setAngularVelocity(body.getAngularVelocity() + angular);
}

bool Propulsion::compute(const btVector3& velocity_mps, const btVector3& spin_radps, double t_s) {
  report_ = PropulsionReport{};
  std::uint32_t& flags = report_.flags;
  const btRigidBody& body = *body_;
  WaterFrame frame;  // up is -gravity, as the boat's
  if (body.isStaticOrKinematicObject() || !(body.getInvMass() > 0)) flags |= StatusStaticBody;
  if (!WaterFrame::fromGravity(body.getGravity(), frame)) flags |= StatusNoGravity;
  const btTransform& pose = body.getCenterOfMassTransform();
  if (!detail::isFinite(pose) || !detail::isFinite(velocity_mps) || !detail::isFinite(spin_radps))
    flags |= StatusNonFiniteBody;
  if (flags != StatusOk) return false;

  const btMatrix3x3& basis = pose.getBasis();
  const btVector3 forward = basis * layout_.forward, up = basis * layout_.up;
  const btVector3 hub = basis * layout_.propeller_m, blade = basis * layout_.rudder_m;  // from the centre of mass
  const PropellerSettings& ps = propeller_.settings();
  // A boat's water as it is now: WaterAction::setSurface moves it (a
  // floating origin), and its settings may change the density.
  const WaterSurface& water = boat_ ? *boat_->surface() : *surface_;
  const double density_kgpm3 = boat_ ? double(boat_->settings().waterDensity_kgpm3) : density_kgpm3_;
  try {
    // The propeller: the water along the shaft, slowed by the wake, at the
    // hub's depth below the local surface.
    const PointWater atHub = waterAt(water, frame, pose.getOrigin() + hub, t_s, flags);
    const btVector3 hubFlow = velocity_mps + spin_radps.cross(hub) - atHub.velocity_mps;  // through the water
    report_.advanceSpeed_mps = (1 - ps.wakeFraction) * double(hubFlow.dot(forward));
    if (atHub.wet) {
      report_.immersion_m = atHub.height_m - double((pose.getOrigin() + hub).dot(frame.up));
      report_.propeller = propeller_.load(report_.advanceSpeed_mps, helm_.revolutions_ps, density_kgpm3,
                                          report_.immersion_m);
    } else {
      report_.propeller.emergence = 0;  // no water known at the hub: no thrust
    }
    report_.thrust_N = forward * btScalar((1 - ps.thrustDeduction) * report_.propeller.thrust_N);
    const double handedness = ps.rightHanded ? 1 : -1;
    report_.shaftTorque_Nm = forward * btScalar(-handedness * report_.propeller.torque_Nm);

    // The rudder: the blade's motion through the water across its stock,
    // in the race when it stands in it, its wet part by the local surface.
    const PointWater atBlade = waterAt(water, frame, pose.getOrigin() + blade, t_s, flags);
    const double bladeUp_m = double((pose.getOrigin() + blade).dot(frame.up));
    report_.rudderWetFraction = atBlade.wet
                                    ? std::clamp((atBlade.height_m - bladeUp_m) / layout_.rudderSpan_m + 0.5, 0.0, 1.0)
                                    : 0.0;
    btVector3 flow = velocity_mps + spin_radps.cross(blade) - atBlade.velocity_mps;
    flow -= up * flow.dot(up);
    if (layout_.rudderInSlipstream) {
      const double along = double(flow.dot(forward));
      const double aft_m = double((layout_.propeller_m - layout_.rudder_m).dot(layout_.forward));
      const double race = raceSpeed_mps((1 - ps.wakeFraction) * along, report_.propeller.thrust_N, density_kgpm3,
                                        propeller_.geometry().diameter_m, aft_m);
      flow += forward * btScalar(race - along);
    }
    const btScalar speed = flow.length();
    const btVector3 direction = speed > btScalar(1e-9) ? flow / speed : forward;
    const btVector3 chord = quatRotate(btQuaternion(up, btScalar(helm_.rudder_rad)), forward);
    const double attack = std::atan2(double(direction.cross(chord).dot(up)), double(direction.dot(chord)));
    report_.rudder = rudder_.force(attack, double(speed), density_kgpm3, report_.rudderWetFraction);
    report_.rudderLift_N = up.cross(direction) * btScalar(report_.rudder.lift_N);
    report_.rudderDrag_N = -direction * btScalar(report_.rudder.drag_N);
  } catch (const std::exception&) {  // a surface that throws: no force this substep
    report_ = PropulsionReport{};
    report_.flags = StatusSurfaceThrew;
    return false;
  }
  const btVector3 rudderForce = report_.rudderLift_N + report_.rudderDrag_N;
  report_.force_N = report_.thrust_N + rudderForce;
  report_.torque_Nm = hub.cross(report_.thrust_N) + report_.shaftTorque_Nm + blade.cross(rudderForce);
  if (!detail::isFinite(report_.force_N) || !detail::isFinite(report_.torque_Nm)) {
    report_ = PropulsionReport{};
    report_.flags = StatusNonFiniteForce;
    return false;
  }
  return true;
}

void Propulsion::debugDraw(btIDebugDraw* drawer) {
  if (!drawer || !(body_->getInvMass() > 0)) return;
  const btScalar scale = body_->getGravity().length() / (body_->getInvMass() * btScalar(5));  // N per m of arrow
  if (!(scale > 0)) return;
  const btTransform& pose = body_->getCenterOfMassTransform();
  const btVector3 hub = pose * layout_.propeller_m, blade = pose * layout_.rudder_m;
  drawer->drawLine(hub, hub + report_.thrust_N / scale, btVector3(1, 0.9f, 0.1f));
  drawer->drawLine(blade, blade + (report_.rudderLift_N + report_.rudderDrag_N) / scale, btVector3(0.1f, 0.9f, 1));
}

}  // namespace keel::KEEL_ABI
