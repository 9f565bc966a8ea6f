// Stage 11 of the substep: the hydrodynamic terms limited so that they
// cannot reverse the motion within the substep (docs/model.md §2,
// "Stability"; as Jolt clamps its drag).
#include "substep/stages.hpp"
#include "substep/clamp.hpp"

namespace keel::detail {
namespace {

/// Speeds below this [m/s] have no direction.
constexpr btScalar kTinySpeed_mps = btScalar(1e-6);

/// The fraction of `change`'s component against `velocity` that can be kept
/// without reversing `velocity` (1 when nothing opposes or the velocity is
/// too small to have a direction).
btScalar keptFraction(const btVector3& change, const btVector3& velocity) {
  const btScalar speed = velocity.length();
  if (speed <= kTinySpeed_mps) return 1;
  const btScalar opposing = -change.dot(velocity) / speed;
  return opposing > speed ? speed / opposing : btScalar(1);
}

/// Scales the component of `v` along unit `axis` by `keep`.
btVector3 scaleAlong(const btVector3& v, const btVector3& axis, btScalar keep) {
  return v - axis * ((1 - keep) * v.dot(axis));
}

}  // namespace

void clampToVelocity(HydrodynamicForces& forces, const btVector3& relativeVelocity_mps,
                     const btVector3& angularVelocity_radps, btScalar inverseMass_pkg,
                     const btMatrix3x3& inverseInertia, btScalar dt_s) {
  const ForceTorque total = forces.total();
  forces.clampScale = keptFraction(total.force_N * (inverseMass_pkg * dt_s), relativeVelocity_mps);
  forces.angularClampScale = keptFraction(inverseInertia * total.torque_Nm * dt_s, angularVelocity_radps);
  if (forces.clampScale == 1 && forces.angularClampScale == 1) return;
  const btVector3 along = forces.clampScale < 1 ? relativeVelocity_mps.normalized() : btVector3(0, 0, 0);
  // The limit is on the angular velocity change I^-1 tau dt along omega:
  // with I^-1 symmetric, scaling the torque's component along a = I^-1 omega
  // scales exactly that change's component along omega.
  const btVector3 turn = inverseInertia * angularVelocity_radps;
  const btVector3 around = turn.length() > 0 ? turn.normalized() : btVector3(0, 0, 0);
  for (ForceTorque* term : {&forces.viscous, &forces.pressureDrag, &forces.slamming, &forces.air, &forces.damping}) {
    if (forces.clampScale < 1) term->force_N = scaleAlong(term->force_N, along, forces.clampScale);
    if (forces.angularClampScale < 1) term->torque_Nm = scaleAlong(term->torque_Nm, around, forces.angularClampScale);
  }
}

void clampDrag(BoatState& state, const BodySnapshot& body, Substep& s) {
  HydrodynamicForces& f = state.hydrodynamics;
  clampToVelocity(f, s.relativeVelocity_mps, body.angularVelocity_radps, body.inverseMass_pkg, body.inverseInertia,
                  s.dt_s);
  if (f.clampScale < 1 || f.angularClampScale < 1) s.flags |= StatusDragClamped;
}

}  // namespace keel::detail
