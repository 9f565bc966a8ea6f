#pragma once
// The VelocityChange stage: the total force and torque made to act exactly
// once in the next substep, as a velocity change (docs/model.md §3). Inline
// where the models run (triangle_model.cpp, column_model.cpp): a call
// fewer a substep, and the stage reads the substep's results where the
// model left them. What runs only when the force is refused or the damping
// changed is out of line (velocity_change.cpp).
#include "substep/once_per_substep.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <cstdint>

namespace keel::KEEL_ABI::detail {

/// Sleeping bodies ignore velocity changes: wake the boat when the water
/// under it moved (or always, unless sleeping in still water is allowed:
/// only then is the water compared with the last substep's).
inline bool waterMoved(const BoatModel& boat, const BoatState& state, const PointWater& water) {
  if (!state.anyWet) return false;
  bool moved = !boat.statics.allowSleepInStillWater || !water.havePrevious;
  for (std::size_t i = 0; i < water.height_m.size() && !moved; ++i)
    moved = water.height_m[i] != water.previousHeight_m[i];
  return moved;
}

/// A non-finite force or velocity change: nothing is applied. (The wetness
/// is kept: the drawn cut still shows where the water was.) Returns false,
/// for velocityChange (velocity_change.cpp).
bool refuseForce(BoatState& state, std::uint32_t flags);

/// Bullet's damping factors for `body` over `dt_s` and their reciprocals,
/// kept in the state with what they were computed from (velocity_change.cpp).
void remakeDampingFactors(BoatState& state, const BodySnapshot& body, btScalar dt_s);

/// VelocityChange. Reads state.hydrostatics, state.hydrodynamics,
/// state.flood.force, water.height_m, the body. Writes state.total,
/// state.pendingLinear_mps and pendingAngular_radps, state.wake,
/// state.flags, with allowSleepInStillWater water.previousHeight_m. False
/// when nothing is to be applied.
[[nodiscard, gnu::always_inline]] inline bool velocityChange(const BoatModel& boat, BoatState& state, PointWater& water,
                                                             const BodySnapshot& body, Substep& s) {
  const StageScope scope(s.profile, SubstepStage::VelocityChange);
  // No term planned, none ran: the hydrodynamic forces are the zeros the
  // substep began with, which add nothing. The Clamp stage leaves their sum.
  ForceTorque terms;
  if (s.plan.anyTerm()) terms = s.termsSummed ? s.termsTotal : state.hydrodynamics.total();
  // Summed lane by lane (btVector3's +=, the same bits) and kept in vector
  // registers: read back from state.total, narrower stores would stall the
  // wide loads.
  const HydrostaticResult& p = state.hydrostatics;
  const ForceTorque& flood = state.flood.force;
  const ForceTorque total{plusLanes(plusLanes(terms.force_N, p.force_N), flood.force_N),
                          plusLanes(plusLanes(terms.torque_Nm, p.torque_Nm), flood.torque_Nm)};
  state.total = total;
  // A non-finite force or torque makes a non-finite velocity change (inf
  // times a factor of 0 is NaN), which the test below refuses: tested here
  // only before the added mass's solve, which reads it.
  if (s.plan.addedMass && (!isFinite(total.force_N) || !isFinite(total.torque_Nm))) return refuseForce(state, s.flags);
  // Bullet multiplies the velocities by (1 - damping)^dt at the start of the
  // next substep and only then adds the accumulated forces' impulse, so a
  // force's velocity change escapes that damping. Dividing by the factor now
  // makes damping(v + dv / s) = damping(v) + dv exactly (docs/model.md §3).
  if (!(state.dampingOf[0] == s.dt_s && state.dampingOf[1] == body.linearDamping &&
        state.dampingOf[2] == body.angularDamping))
    remakeDampingFactors(state, body, s.dt_s);
  btVector3 linear, angular;
  forceVelocityChange(total.force_N, total.torque_Nm, body.inverseMass_pkg, body.inverseInertia, body.linearFactor,
                      body.angularFactor, s.dt_s, linear, angular);
  if (s.plan.addedMass) {
    // Through copies: the call taking the changes' own addresses would keep
    // them in memory on every substep, not only on those with added mass.
    btVector3 dv = linear, dw = angular;
    implicitVelocityChange(boat, state, body, s, dv, dw);
    linear = dv, angular = dw;
  }
  state.dampingCompensated = undoNextDamping(state.dampingFactors, state.dampingInverse, linear, angular);
  // Every component finite, in one test (finiteZero's) rather than six.
  if (!(finiteZero(linear, angular) == btScalar(0))) return refuseForce(state, s.flags);
  state.pendingLinear_mps = linear;
  state.pendingAngular_radps = angular;
  state.wake = waterMoved(boat, state, water);
  // The heights kept for the next substep's comparison only when it makes
  // one: a boat that may not sleep in still water is woken whenever wet.
  water.havePrevious = boat.statics.allowSleepInStillWater;
  if (water.havePrevious) water.previousHeight_m.swap(water.height_m);
  state.flags = s.flags;
  return true;
}

}  // namespace keel::KEEL_ABI::detail
