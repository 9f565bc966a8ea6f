// The Clamp stage: the hydrodynamic terms limited so that they cannot
// reverse the motion within the substep (docs/model.md §2, "Stability"; as
// Jolt clamps its drag) nor add kinetic energy relative to the water beyond
// what the water's and the wind's own motion gives ("No energy from
// nowhere").
#include "substep/clamp.hpp"

#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace keel::KEEL_ABI::detail {
namespace {

/// Speeds below this [m/s] have no direction.
constexpr btScalar kTinySpeed_mps = btScalar(1e-6);

/// The dissipation limit keeps this fraction of the exact bound's margin, so
/// that rounding in the velocity change cannot tip the energy balance.
constexpr double kEnergyMargin = 1e-4;

double dot(const btVector3& a, const btVector3& b) {
  return double(a.x()) * double(b.x()) + double(a.y()) * double(b.y()) + double(a.z()) * double(b.z());
}

/// The fraction of `change`'s component against `velocity` that can be kept
/// without reversing `velocity` (1 when nothing opposes or the velocity is
/// too small to have a direction).
btScalar keptFraction(const btVector3& change, const btVector3& velocity) {
  const btScalar speed = velocity.length();
  if (speed <= kTinySpeed_mps) return 1;
  const btScalar opposing = -change.dot(velocity) / speed;
  return opposing > speed ? speed / opposing : btScalar(1);
}

/// Every term of `forces`, to be limited alike.
std::array<ForceTorque*, 6> termsOf(HydrodynamicForces& forces) {
  return {&forces.viscous, &forces.pressureDrag, &forces.slamming, &forces.air, &forces.damping, &forces.hullLift};
}

/// Scales the component of `v` along unit `axis` by `keep`.
btVector3 scaleAlong(const btVector3& v, const btVector3& axis, btScalar keep) {
  return v - axis * ((1 - keep) * v.dot(axis));
}

/// clampToVelocity, `total` the terms' sum (forces.total()).
void clampToVelocity(HydrodynamicForces& forces, const ForceTorque& total, const btVector3& relativeVelocity_mps,
                     const btVector3& angularVelocity_radps, btScalar inverseMass_pkg,
                     const btMatrix3x3& inverseInertia, btScalar dt_s) {
  forces.clampScale = keptFraction(total.force_N * (inverseMass_pkg * dt_s), relativeVelocity_mps);
  forces.angularClampScale = keptFraction(inverseInertia * total.torque_Nm * dt_s, angularVelocity_radps);
  if (forces.clampScale == 1 && forces.angularClampScale == 1) return;
  const btVector3 along = forces.clampScale < 1 ? relativeVelocity_mps.normalized() : btVector3(0, 0, 0);
  // The limit is on the angular velocity change I^-1 tau dt along omega:
  // with I^-1 symmetric, scaling the torque's component along a = I^-1 omega
  // scales exactly that change's component along omega.
  const btVector3 turn = inverseInertia * angularVelocity_radps;
  const btVector3 around = turn.length() > 0 ? turn.normalized() : btVector3(0, 0, 0);
  for (ForceTorque* term : termsOf(forces)) {
    if (forces.clampScale < 1) term->force_N = scaleAlong(term->force_N, along, forces.clampScale);
    if (forces.angularClampScale < 1) term->torque_Nm = scaleAlong(term->torque_Nm, around, forces.angularClampScale);
  }
}

/// The kinetic energy [J] the terms of `forces`, as computed and before any
/// clamp, may add relative to the reference water in a substep of `dt_s`:
/// dt max(0, P0), P0 their power at the body's `relativeVelocity_mps`
/// (relative to that water, world) and `angularVelocity_radps`. Each term
/// opposes its piece's motion through its own medium, so P0 is at most the
/// work the water's velocity differences and the wind do through them; in
/// uniform water it is capped by the wind's, the air term's force dotted
/// with `windRelative_mps` (the wind relative to the reference water): 0 in
/// still air. The hull's lift's power counts only when it takes energy (its
/// moved roll moment opposes no medium). `total` is their sum (forces.total()).
double dissipationAllowance_J(const HydrodynamicForces& forces, const ForceTorque& total,
                              const btVector3& relativeVelocity_mps, const btVector3& angularVelocity_radps,
                              const btVector3& windRelative_mps, btScalar dt_s, bool waterUniform) {
  // Each term opposes its own piece's motion through its medium: the
  // water's velocity at the piece (viscous, pressure drag, slamming), the
  // wind (air), the reference water (damping). So in the frame of the
  // reference water u the terms' power is P0 = sum F_i.(v_i - u) =
  // sum F_i.(v_i - m_i) + sum F_i.(m_i - u) <= sum F_i.(m_i - u) = W, the
  // work the media's own motion does through them: the water's velocity
  // differences across the hull and the wind. P0 uses the terms as
  // computed, before any clamp: a clamp's side effect is never trusted.
  // The hull's lift is dissipative at its point of action, but the roll
  // moment it moves there is not a force against a medium's motion: its
  // work is never allowed (substep/hull_lift.cpp).
  const ForceTorque& lift = forces.hullLift;
  const double liftPower = dot(relativeVelocity_mps, lift.force_N) + dot(angularVelocity_radps, lift.torque_Nm);
  const double power = dot(relativeVelocity_mps, total.force_N) + dot(angularVelocity_radps, total.torque_Nm) -
                       std::max(0.0, liftPower);
  // In uniform water only the wind can feed the boat, W = F_air.(wind - u):
  // capping by it keeps the float sums' rounding from being trusted.
  const double fed = waterUniform ? std::min(power, dot(forces.air.force_N, windRelative_mps)) : power;
  return fed > 0 ? double(dt_s) * fed : 0.0;
}

/// Scales every term of `forces` alike, by the largest factor in [0, 1]
/// whose velocity change over `dt_s` adds at most `allowance_J` of kinetic
/// energy relative to the water (linear and angular together) to a body
/// moving at `relativeVelocity_mps` and `angularVelocity_radps` (the clamp
/// stage passes the velocities the conservative forces give this substep,
/// and dissipationAllowance_J of the terms before the clamp), `total` their
/// sum (forces.total()). Returns the scale (1: nothing limited).
btScalar limitToDissipation(HydrodynamicForces& forces, const ForceTorque& total, const btVector3& relativeVelocity_mps,
                            const btVector3& angularVelocity_radps, btScalar inverseMass_pkg,
                            const btMatrix3x3& inverseInertia, btScalar dt_s, double allowance_J) {
  // The terms' velocity change dv = F dt / m, dw = I^-1 tau dt changes the
  // kinetic energy K = 1/2 m |v|^2 + 1/2 w.I w (v relative to the water) by
  // s P + s^2 Q when scaled by s, with P = dt (v.F + w.tau) the work the
  // terms do and Q = dt^2 (|F|^2 / m + tau.I^-1 tau) / 2 >= 0 the overshoot
  // of a finite step. The scale kept is s = min(1, (1 - margin) s*), s*
  // the positive root of Q s^2 + P s = A, the allowance (-P / Q when
  // A = 0). The change is convex in s and 0 at s = 0, so at l s*, l <= 1,
  // it is at most l A - l (1 - l) s*^2 Q: within A, by a margin that covers
  // the rounding of the velocity change (its error is relative to P and
  // Q, not to A). In double: at 1000 m/s and 1000 rad/s the products exceed
  // float's range of exact cancellation.
  const btVector3 turn = inverseInertia * total.torque_Nm;  // I^-1 tau
  const double dt = double(dt_s);
  const double work = dt * (dot(relativeVelocity_mps, total.force_N) + dot(angularVelocity_radps, total.torque_Nm));
  const double overshoot = 0.5 * dt * dt *
                           (dot(total.force_N, total.force_N) * double(inverseMass_pkg) + dot(total.torque_Nm, turn));
  if (!(overshoot > 0)) return 1;
  double keep = 1;
  if (allowance_J > 0) {
    // The root in the form that does not cancel: -P + sqrt(P^2 + 4 Q A)
    // loses digits when P > 0, P + sqrt(...) when P < 0.
    const double root = std::sqrt(work * work + 4 * overshoot * allowance_J);
    const double s = work > 0 ? 2 * allowance_J / (work + root) : (root - work) / (2 * overshoot);
    keep = std::min(1.0, s * (1 - kEnergyMargin));
  } else if (work < 0) {
    keep = std::min(1.0, -work / overshoot * (1 - kEnergyMargin));
  } else {
    keep = 0;  // no allowance: a step that does not dissipate is not taken
  }
  if (keep >= 1) return 1;
  const auto scale = btScalar(keep);
  for (ForceTorque* term : termsOf(forces)) {
    term->force_N *= scale;
    term->torque_Nm *= scale;
  }
  return scale;
}

}  // namespace

void clampToVelocity(HydrodynamicForces& forces, const btVector3& relativeVelocity_mps,
                     const btVector3& angularVelocity_radps, btScalar inverseMass_pkg,
                     const btMatrix3x3& inverseInertia, btScalar dt_s) {
  clampToVelocity(forces, forces.total(), relativeVelocity_mps, angularVelocity_radps, inverseMass_pkg, inverseInertia,
                  dt_s);
}

void clampDrag(const BoatModel& boat, BoatState& state, const BodySnapshot& body, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::Clamp);
  HydrodynamicForces& f = state.hydrodynamics;
  const btVector3 water = body.linearVelocity_mps - s.relativeVelocity_mps;  // the reference water
  // The terms' sum, summed again only when the first clamp scaled them.
  ForceTorque total = f.total();
  const double allowance = dissipationAllowance_J(f, total, s.relativeVelocity_mps, body.angularVelocity_radps,
                                                  boat.dynamics.wind_mps - water, s.dt_s, s.plan.uniformWater);
  state.referenceWater_mps = water;
  state.energyAllowance_J = allowance;
  // What the terms accelerate: the body, and with the added mass its water.
  const btScalar inverseMass = s.effectiveInverseMass_pkg;
  const btMatrix3x3& inverseInertia = s.effectiveInverseInertia;
  clampToVelocity(f, total, s.relativeVelocity_mps, body.angularVelocity_radps, inverseMass, inverseInertia, s.dt_s);
  if (f.clampScale < 1 || f.angularClampScale < 1) {
    s.flags |= StatusDragClamped;
    total = f.total();
  }
  // The base is the velocity the conservative forces (buoyancy, gravity)
  // give this substep: the drag must dissipate from there, or it could turn
  // their impulse sideways into energy they never gave.
  // (With the added mass, gravity pulls the body's own mass only.)
  const btVector3 gravity = s.plan.addedMass ? body.gravity_mps2 * (inverseMass / body.inverseMass_pkg)
                                             : body.gravity_mps2;
  const btVector3 baseLinear = s.relativeVelocity_mps + (state.hydrostatics.force_N * inverseMass + gravity) * s.dt_s;
  const btVector3 baseAngular = body.angularVelocity_radps + inverseInertia * state.hydrostatics.torque_Nm * s.dt_s;
  f.energyScale = limitToDissipation(f, total, baseLinear, baseAngular, inverseMass, inverseInertia, s.dt_s, allowance);
  if (f.energyScale < 1) {
    s.flags |= StatusDragEnergyLimited;
    total = f.total();
  }
  s.termsTotal = total;  // the terms' sum as left here: VelocityChange need not sum them again
  s.termsSummed = true;
}

}  // namespace keel::KEEL_ABI::detail
