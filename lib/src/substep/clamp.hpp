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

}  // namespace keel::KEEL_ABI::detail
