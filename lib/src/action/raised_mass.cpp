// The added mass on the Bullet body (raised_mass.hpp).
#include "action/raised_mass.hpp"

#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <cmath>
#include <utility>

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

std::array<double, 36> bodyAndWater(btScalar ownInverseMass_pkg, const btVector3& ownInverseInertiaLocal,
                                    const AddedMass& a) {
  std::array<double, 36> m = a.matrix;
  for (std::size_t k = 0; k < 3; ++k) m[7 * k] += 1 / double(ownInverseMass_pkg);
  for (std::size_t k = 3; k < 6; ++k) {
    const double inverse = double(ownInverseInertiaLocal[int(k - 3)]);
    if (inverse > 0) {
      m[7 * k] += 1 / inverse;
      continue;
    }
    // An infinite inertia about this axis: it does not turn.
    for (std::size_t j = 0; j < 6; ++j) m[6 * k + j] = m[6 * j + k] = 0;
    m[7 * k] = 1;
  }
  return m;
}

void solve6(std::array<double, 36>& m, std::array<double, 6>& b) {
  for (std::size_t c = 0; c < 6; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < 6; ++r)
      if (std::abs(m[6 * r + c]) > std::abs(m[6 * pivot + c])) pivot = r;
    if (pivot != c) {
      for (std::size_t k = 0; k < 6; ++k) std::swap(m[6 * c + k], m[6 * pivot + k]);
      std::swap(b[c], b[pivot]);
    }
    for (std::size_t r = c + 1; r < 6; ++r) {
      const double f = m[6 * r + c] / m[6 * c + c];
      for (std::size_t k = c; k < 6; ++k) m[6 * r + k] -= f * m[6 * c + k];
      b[r] -= f * b[c];
    }
  }
  for (std::size_t c = 6; c-- > 0;) {
    double sum = b[c];
    for (std::size_t k = c + 1; k < 6; ++k) sum -= m[6 * c + k] * b[k];
    b[c] = sum / m[6 * c + c];
  }
}

BulletMass raisedMass(btScalar ownInverseMass_pkg, const btVector3& ownInverseInertiaLocal, const AddedMass& a) {
  // The diagonal of (M + A)^-1: how far a unit impulse along (or about)
  // each body axis moves the body with its water, the couplings included
  // (a light hull's sway carries its roll: its roll alone is lighter than
  // the diagonal of M + A says).
  const std::array<double, 36> m = bodyAndWater(ownInverseMass_pkg, ownInverseInertiaLocal, a);
  std::array<double, 6> w{};
  for (std::size_t k = 0; k < 6; ++k) {
    std::array<double, 36> lu = m;
    std::array<double, 6> unit{};
    unit[k] = 1;
    solve6(lu, unit);
    w[k] = unit[k];
  }
  BulletMass out;
  out.inverseMass_pkg = btScalar((w[0] + w[1] + w[2]) / 3);
  for (int k = 0; k < 3; ++k)
    out.inverseInertiaLocal[k] = ownInverseInertiaLocal[k] > 0 ? btScalar(w[std::size_t(3 + k)]) : btScalar(0);
  return out;
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
