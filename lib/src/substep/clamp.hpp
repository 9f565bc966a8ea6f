#pragma once
// The drag limit of the clamp stage (clamp.cpp), for the tests.

#include <keel/hydrodynamics.hpp>

#include <LinearMath/btMatrix3x3.h>

namespace keel::KEEL_ABI::detail {

/// Limits `forces` so that, applied for `dt_s` on a body of inverse mass
/// `inverseMass_pkg` and world inverse inertia `inverseInertia`, they cannot
/// reverse the relative linear velocity `relativeVelocity_mps` (world) nor
/// the angular velocity (world). Linear and angular parts are limited
/// separately, and only their components along the velocity they oppose: a
/// steady drag torque (skin friction below the centre of mass pitches a
/// boat) must not cancel the linear drag, nor a sideways force be lost to a
/// forward clamp. Every term is scaled alike.
void clampToVelocity(HydrodynamicForces& forces, const btVector3& relativeVelocity_mps,
                     const btVector3& angularVelocity_radps, btScalar inverseMass_pkg,
                     const btMatrix3x3& inverseInertia, btScalar dt_s);

/// The kinetic energy [J] the terms of `forces`, as computed and before any
/// clamp, may add relative to the reference water in a substep of `dt_s`:
/// dt max(0, P0), P0 their power at the body's `relativeVelocity_mps`
/// (relative to that water, world) and `angularVelocity_radps`. Each term
/// opposes its piece's motion through its own medium, so P0 is at most the
/// work the water's velocity differences and the wind do through them; in
/// uniform water it is capped by the wind's, the air term's force dotted
/// with `windRelative_mps` (the wind relative to the reference water): 0 in
/// still air. The hull's lift's power counts only when it takes energy (its
/// moved roll moment opposes no medium). See clamp.cpp.
[[nodiscard]] double dissipationAllowance_J(const HydrodynamicForces& forces, const btVector3& relativeVelocity_mps,
                                            const btVector3& angularVelocity_radps, const btVector3& windRelative_mps,
                                            btScalar dt_s, bool waterUniform);

/// Scales every term of `forces` alike, by the largest factor in [0, 1]
/// whose velocity change over `dt_s` adds at most `allowance_J` of kinetic
/// energy relative to the water (linear and angular together) to a body
/// moving at `relativeVelocity_mps` and `angularVelocity_radps` (the clamp
/// stage passes the velocities the conservative forces give this substep,
/// and dissipationAllowance_J of the terms before the clamp): see
/// clamp.cpp. Returns the scale (1: nothing limited).
btScalar limitToDissipation(HydrodynamicForces& forces, const btVector3& relativeVelocity_mps,
                            const btVector3& angularVelocity_radps, btScalar inverseMass_pkg,
                            const btMatrix3x3& inverseInertia, btScalar dt_s, double allowance_J);

}  // namespace keel::KEEL_ABI::detail
