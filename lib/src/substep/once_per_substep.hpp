#pragma once
// How an action makes a force act exactly once in the next substep
// (docs/model.md §3): the velocity change Bullet's solver would give it,
// added at the end of this substep, divided by the damping Bullet applies at
// the start of the next. WaterAction (velocity_change.hpp) and Propulsion
// (lib/src/propulsion/propulsion.cpp) both apply their forces this way.

#include <keel/config.hpp>

#include "finite.hpp"

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btScalar.h>
#include <LinearMath/btVector3.h>

namespace keel::KEEL_ABI::detail {

/// Bullet's damping factor for one substep, as btRigidBody::applyDamping
/// computes it: velocity *= (1 - damping)^dt.
inline btScalar dampingFactor(btScalar damping, btScalar dt_s) { return btPow(btScalar(1) - damping, dt_s); }

/// Below this factor the damping wipes the velocity each substep: dividing
/// would blow up a velocity that Bullet then zeroes, so the change is
/// applied uncompensated.
inline constexpr btScalar kMinDampingFactor = btScalar(1e-3);

/// The velocity changes [m/s, rad/s] a force and torque about the centre of
/// mass (world) give over `dt_s`: the expressions
/// btSequentialImpulseConstraintSolver uses for external forces, F / m dt
/// along the linear factor and tau I^-1 dt (I^-1 symmetric, world axes).
inline void forceVelocityChange(const btVector3& force_N, const btVector3& torque_Nm, btScalar inverseMass_pkg,
                                const btMatrix3x3& inverseInertia, const btVector3& linearFactor,
                                const btVector3& angularFactor, btScalar dt_s, btVector3& linear_mps,
                                btVector3& angular_radps) {
  // Lane by lane (btVector3's products on x, y and z: the same bits), so
  // that the changes stay in vector registers. The fourth lane is padding,
  // as timesRows leaves it.
  const btScalar scale = inverseMass_pkg * dt_s;
  const btVector3 turn = timesRows(torque_Nm * angularFactor, inverseInertia);
  btScalar* linear = linear_mps;
  btScalar* angular = angular_radps;
  for (int i = 0; i < 4; ++i) {
    linear[i] = force_N[i] * linearFactor[i] * scale;
    angular[i] = turn[i] * dt_s;
  }
}

/// Multiplies the changes by the damping factors' reciprocals `inverse`
/// (linear, angular), so that Bullet's damping of (v + dv / s) leaves
/// damping(v) + dv exactly; true when it did, false (the changes as they
/// were) when a factor `factor` is below kMinDampingFactor. btVector3's
/// division by s multiplies by 1 / s: a reciprocal kept from substep to
/// substep gives its bits.
inline bool undoNextDamping(const btScalar (&factor)[2], const btScalar (&inverse)[2], btVector3& linear_mps,
                            btVector3& angular_radps) {
  if (!(factor[0] > kMinDampingFactor && factor[1] > kMinDampingFactor)) return false;
  // btVector3's *= lane by lane (the fourth lane, padding, too), so the
  // changes stay in vector registers.
  btScalar* linear = linear_mps;
  btScalar* angular = angular_radps;
  for (int i = 0; i < 4; ++i) {
    linear[i] *= inverse[0];
    angular[i] *= inverse[1];
  }
  return true;
}

/// undoNextDamping with the reciprocals of the factors just computed.
inline bool undoNextDamping(btScalar linearFactor, btScalar angularFactor, btVector3& linear_mps,
                            btVector3& angular_radps) {
  const btScalar factor[2] = {linearFactor, angularFactor};
  const btScalar inverse[2] = {btScalar(1) / linearFactor, btScalar(1) / angularFactor};
  return undoNextDamping(factor, inverse, linear_mps, angular_radps);
}

}  // namespace keel::KEEL_ABI::detail
