#pragma once
// The added mass on the Bullet body (docs/integration.md, "Added mass"):
// Keel raises the mass and inertia Bullet integrates and its contacts see
// by the water's, keeps the body's own, and gives them back.

#include <keel/added_mass.hpp>

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <array>

#include "substep/substep.hpp"

namespace keel::KEEL_ABI::detail {

/// The body and its water, `M + A` (row-major 6 x 6, body axes about the
/// centre of mass), for a body of own inverse mass and inverse principal
/// inertia with added mass `a`. An infinite own inertia (an inverse of 0)
/// locks its axis: its row and column are the identity's.
[[nodiscard]] std::array<double, 36> bodyAndWater(btScalar ownInverseMass_pkg, const btVector3& ownInverseInertiaLocal,
                                                  const AddedMass& a);

/// Solves `m x = b` for the symmetric positive definite 6 x 6 `m`
/// (row-major, overwritten; `b` becomes x) by Gaussian elimination with
/// partial pivoting: the same operations in the same order on every CPU.
void solve6(std::array<double, 36>& m, std::array<double, 6>& b);

/// The mass and inertia Keel gives Bullet, and the clamps of the terms,
/// for a body with added mass `a`: from the diagonal of `(M + A)^-1`, the
/// body's answer with its water to an impulse along or about each body
/// axis (BulletMass, substep.hpp). The inverse mass is the mean of the three
/// translational terms (Bullet has one scalar mass; the mean does not
/// depend on the body's axes), the inverse principal inertia the three
/// rotational terms. An infinite own inertia stays infinite.
[[nodiscard]] BulletMass raisedMass(btScalar ownInverseMass_pkg, const btVector3& ownInverseInertiaLocal,
                                    const AddedMass& a);

/// The body's own inverse mass and inverse principal inertia: `raised`'s
/// while the body holds what Keel set, else the body's (never raised, or
/// the user set a mass of their own since). Inline: BodySnapshot::of
/// reads it every substep.
inline void ownMassOf(const btRigidBody& body, const RaisedMass& raised, btScalar& inverseMass_pkg,
                      btVector3& inverseInertiaLocal) {
  const bool keels = raised.active && body.getInvMass() == raised.setInverseMass_pkg &&
                     body.getInvInertiaDiagLocal() == raised.setInverseInertiaLocal;
  inverseMass_pkg = keels ? raised.ownInverseMass_pkg : body.getInvMass();
  inverseInertiaLocal = keels ? raised.ownInverseInertiaLocal : body.getInvInertiaDiagLocal();
}

/// Puts on the body the mass and inertia `target` (raisedMass() of its own
/// mass, as the substep found it), or its own when `target` is null, and
/// records them in `raised`. `gravityInTotal`: inside a step,
/// Bullet's accumulated force holds the gravity of the mass it had; it is
/// swapped for the new mass's, so that Bullet's gravity is always its mass
/// times the body's gravity (btRigidBody::setMassProps sets the same).
void holdRaisedMass(btRigidBody& body, RaisedMass& raised, const BulletMass* target, bool gravityInTotal);

/// Rollback, between steps: the body given the mass it had when `saved`
/// was recorded (raised, or its own), `current` describing it now.
void restoreRaisedMass(btRigidBody& body, RaisedMass& current, const RaisedMass& saved);

}  // namespace keel::KEEL_ABI::detail
