// The added mass on the Bullet body (raised_mass.hpp).
#include "action/raised_mass.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

namespace keel::KEEL_ABI::detail {
namespace {

/// Bullet's setMassProps takes a mass and inertia, 0 for an infinite one.
btScalar fromInverse(btScalar inverse) { return inverse > 0 ? btScalar(1) / inverse : btScalar(0); }

void setMass(btRigidBody& body, btScalar inverseMass_pkg, const btVector3& inverseInertiaLocal, bool gravityInTotal) {
  const btVector3 inertia(fromInverse(inverseInertiaLocal.x()), fromInverse(inverseInertiaLocal.y()),
                          fromInverse(inverseInertiaLocal.z()));
  // Inside a step Bullet's accumulated force holds the gravity of the mass
  // it had: swapped for the new mass's (applyGravity adds mass times
  // gravity; setMassProps remakes it).
  if (gravityInTotal) body.clearGravity();
  body.setMassProps(fromInverse(inverseMass_pkg), inertia);
  if (gravityInTotal) body.applyGravity();
  body.updateInertiaTensor();
}

}  // namespace

BulletMass raisedMass(btScalar ownInverseMass_pkg, const btVector3& ownInverseInertiaLocal, const AddedMass& a) {
  BulletMass m;
  const double translation = (a(0, 0) + a(1, 1) + a(2, 2)) / 3;
  m.inverseMass_pkg = btScalar(1 / (1 / double(ownInverseMass_pkg) + translation));
  for (int k = 0; k < 3; ++k) {
    const double own = double(ownInverseInertiaLocal[k]);
    m.inverseInertiaLocal[k] = own > 0 ? btScalar(1 / (1 / own + a(std::size_t(3 + k), std::size_t(3 + k)))) : 0;
  }
  return m;
}

void ownMassOf(const btRigidBody& body, const RaisedMass& raised, btScalar& inverseMass_pkg,
               btVector3& inverseInertiaLocal) {
  const bool keels = raised.active && body.getInvMass() == raised.setInverseMass_pkg &&
                     body.getInvInertiaDiagLocal() == raised.setInverseInertiaLocal;
  inverseMass_pkg = keels ? raised.ownInverseMass_pkg : body.getInvMass();
  inverseInertiaLocal = keels ? raised.ownInverseInertiaLocal : body.getInvInertiaDiagLocal();
}

void holdRaisedMass(btRigidBody& body, RaisedMass& raised, const AddedMass* a, bool gravityInTotal) {
  if (!raised.active && !a) return;  // never raised: the body is the user's
  btScalar ownMass = 0;
  btVector3 ownInertia;
  ownMassOf(body, raised, ownMass, ownInertia);
  if (!(ownMass > 0)) {  // static, or made so by the user: nothing to raise
    raised = RaisedMass{};
    return;
  }
  if (!a) {
    if (body.getInvMass() != ownMass || body.getInvInertiaDiagLocal() != ownInertia)
      setMass(body, ownMass, ownInertia, gravityInTotal);
    raised = RaisedMass{};
    return;
  }
  const BulletMass m = raisedMass(ownMass, ownInertia, *a);
  if (body.getInvMass() != m.inverseMass_pkg || body.getInvInertiaDiagLocal() != m.inverseInertiaLocal)
    setMass(body, m.inverseMass_pkg, m.inverseInertiaLocal, gravityInTotal);
  raised.active = true;
  raised.ownInverseMass_pkg = ownMass;
  raised.ownInverseInertiaLocal = ownInertia;
  raised.setInverseMass_pkg = body.getInvMass();  // as Bullet holds it (1 / (1 / x) may not be x)
  raised.setInverseInertiaLocal = body.getInvInertiaDiagLocal();
}

void restoreRaisedMass(btRigidBody& body, RaisedMass& current, const RaisedMass& saved) {
  holdRaisedMass(body, current, nullptr, false);
  if (saved.active) setMass(body, saved.setInverseMass_pkg, saved.setInverseInertiaLocal, false);
  current = saved;
}

}  // namespace keel::KEEL_ABI::detail
