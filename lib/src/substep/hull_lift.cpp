// The hull's lift as a low-aspect-ratio wing, part of the Flow stage
// (docs/model.md, "The hull's lift and turning").
//
// The wet hull's lateral plane is a wing of chord L and span T, the draft,
// doubled by its mirror image in the free surface. Slender-wing theory
// (R. T. Jones, "Properties of low-aspect-ratio pointed wings at speeds below
// and above the speed of sound", NACA Report 835, 1946) gives the mirrored
// wing C_L = (pi/2) AR alpha on its area 2 T L with AR = 2 T / L: a lift
// (pi/4) rho V^2 (2T)^2 alpha, of which the real hull's half is
// (pi/2) rho T^2 V^2 alpha, whatever L. As a force across the hull's long
// axis it is the cross-flow momentum m' u v of a slender body whose
// trailing section has the added mass per length m' = (pi/2) rho T^2 (the
// leading term of the sway derivative Y'_v = -pi (T/L)^2 of slender-body
// manoeuvring theory). It acts about half the draft down, which the centre
// of buoyancy stands for: below a ship's centre of mass, so that in a steady
// turn it heels the hull outward against the inertia at G (Rawson & Tupper,
// "Basic Ship Theory", ch. 13).
#include "substep/stages.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace keel::KEEL_ABI::detail {
namespace {

/// The body axis along which `hull`'s bounding box is longest (unit, body axes).
btVector3 longAxis(const Hull& hull) {
  const btVector3 size = hull.boundsMax() - hull.boundsMin();
  btVector3 axis(0, 0, 0);
  axis[size.maxAxis()] = 1;
  return axis;
}

/// The roll moment [N m, world] that puts the pressure drag's cross force
/// where the hull's lateral plane is: Kerner's per-face drag pushes the
/// bilge that leads into a cross flow up and pulls the other down, a heel
/// into the drift that potential flow round the mirrored section does not
/// have (its pressures are alike on both bilges) and that would dominate a
/// turning ship's roll. Rawson & Tupper (ch. 13) put the hull's whole
/// lateral force about half the draft down: the pressure drag's moment about the horizontal long axis is
/// moved towards that of its cross force at the centre of buoyancy, by the
/// share of the bilges' cross flow the drift makes, w^2 / (w^2 + (p b)^2),
/// w the cross velocity at the centre of buoyancy, p the roll rate, b the
/// half beam: a hull rolling at rest keeps the pressure drag's roll damping.
btVector3 crossForceHeel(const BoatState& state, const BodySnapshot& body, const btVector3& forward,
                         const btVector3& across, const btVector3& size, btScalar w) {
  const ForceTorque& drag = state.hydrodynamics.pressureDrag;
  const btVector3 roll = state.basis * forward, side = state.basis * across;  // world
  const btScalar halfBeam = btScalar(0.5) * (std::abs(across.x()) * size.x() + std::abs(across.y()) * size.y() +
                                             std::abs(across.z()) * size.z());
  const btScalar p = body.angularVelocity_radps.dot(roll) * halfBeam;
  const btScalar flow = w * w + p * p;
  if (!(flow > 0)) return btVector3(0, 0, 0);
  const btVector3 crossForce = side * drag.force_N.dot(side);
  const btScalar wanted = state.hydrostatics.centreOfBuoyancy_m.cross(crossForce).dot(roll);
  return roll * ((wanted - drag.torque_Nm.dot(roll)) * (w * w / flow));
}

}  // namespace

void hullLift(const BoatModel& boat, BoatState& state, const BodySnapshot& body, const Substep& s) {
  const HydrodynamicSettings& h = boat.dynamics;
  if (!(s.plan.hullLift && state.anyWet && state.lowestAbove_m < 0)) return;
  // Body axes: up, the long axis in the horizontal plane, and across it.
  const btVector3& up = s.axes.up;
  const btVector3 axis = longAxis(boat.hull);
  const btVector3 along = axis - up * axis.dot(up);
  const btScalar level2 = along.length2();
  if (!(level2 > btScalar(0.25))) return;  // the long axis pitched over 60 degrees: no wing to speak of
  const btVector3 forward = along / std::sqrt(level2);
  const btVector3 across = up.cross(forward);
  // The span: the draft, no more than the hull's own height along up (a
  // hull deep under water is no deeper a wing).
  const btVector3 size = boat.hull.boundsMax() - boat.hull.boundsMin();
  const btScalar height = std::abs(up.x()) * size.x() + std::abs(up.y()) * size.y() + std::abs(up.z()) * size.z();
  const btScalar draft = std::min(-state.lowestAbove_m, height);
  // The velocity relative to the water where the lift acts, body axes.
  const btVector3& centre = state.hydrostatics.centreOfBuoyancy_m;  // world axes, from the centre of mass
  const btVector3 v = (s.relativeVelocity_mps + body.angularVelocity_radps.cross(centre)) * state.basis;
  const btScalar u = v.dot(forward), w = v.dot(across);
  const btScalar addedMass = h.hullLiftCoefficient * (std::numbers::pi_v<btScalar> / 2) *
                             boat.statics.waterDensity_kgpm3 * draft * draft;
  // -m' |u| w across: its power at the point, -m' |u| w^2, is never positive
  // (astern too: the transom is then the leading edge).
  const btVector3 force = state.basis * (across * (-addedMass * std::abs(u) * w));
  // A planing hull's bottom carries it by the pressure on its faces, whose
  // vertical components are real there (it leans into its turns): the
  // moved moment fades from Froude number 0.5 (a displacement hull's
  // top speed) to 1 (planing), Fn = |u| / sqrt(g L), L the hull's length.
  const btScalar length = size[size.maxAxis()];
  const btScalar froude2 = u * u / (body.gravity_mps2.length() * length);
  const btScalar displacing = std::clamp((btScalar(1) - froude2) / btScalar(0.75), btScalar(0), btScalar(1));
  const btVector3 torque = centre.cross(force) + crossForceHeel(state, body, forward, across, size, w) * displacing;
  if (!isFinite(force) || !isFinite(torque)) return;
  state.hydrodynamics.hullLift = ForceTorque{force, torque};
}

}  // namespace keel::KEEL_ABI::detail
