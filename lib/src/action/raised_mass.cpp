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
  // (a light hull's roll rides on its sway: its roll alone is lighter than
  // the diagonal of M + A says). M + A is symmetric positive definite:
  // Cholesky, M + A = L L^T, then (M + A)^-1 = X^T X with X = L^-1.
  const std::array<double, 36> m = bodyAndWater(ownInverseMass_pkg, ownInverseInertiaLocal, a);
  std::array<double, 36> l{}, x{};
  for (std::size_t j = 0; j < 6; ++j) {
    double d = m[7 * j];
    for (std::size_t k = 0; k < j; ++k) d -= l[6 * j + k] * l[6 * j + k];
    if (!(d > 0)) return BulletMass{ownInverseMass_pkg, ownInverseInertiaLocal};  // rounding: the own
    l[7 * j] = std::sqrt(d);
    for (std::size_t i = j + 1; i < 6; ++i) {
      double e = m[6 * i + j];
      for (std::size_t k = 0; k < j; ++k) e -= l[6 * i + k] * l[6 * j + k];
      l[6 * i + j] = e / l[7 * j];
    }
  }
  std::array<double, 6> w{};
  for (std::size_t c = 0; c < 6; ++c) {
    x[7 * c] = 1 / l[7 * c];
    for (std::size_t i = c + 1; i < 6; ++i) {
      double e = 0;
      for (std::size_t k = c; k < i; ++k) e += l[6 * i + k] * x[6 * k + c];
      x[6 * i + c] = -e / l[7 * i];
    }
    for (std::size_t i = c; i < 6; ++i) w[c] += x[6 * i + c] * x[6 * i + c];
  }
  BulletMass out;
  out.inverseMass_pkg = btScalar((w[0] + w[1] + w[2]) / 3);
  for (int k = 0; k < 3; ++k)
    out.inverseInertiaLocal[k] = ownInverseInertiaLocal[k] > 0 ? btScalar(w[(std::size_t(k) + 3)]) : btScalar(0);
  return out;
}

void holdRaisedMass(btRigidBody& body, RaisedMass& raised, const BulletMass* target, bool gravityInTotal) {
  if (!raised.active && !target) return;  // never raised: the body is the user's
  btScalar ownMass = 0;
  btVector3 ownInertia;
  ownMassOf(body, raised, ownMass, ownInertia);
  if (!(ownMass > 0)) {  // static, or made so by the user: nothing to raise
    raised = RaisedMass{};
    return;
  }
  const BulletMass m = target ? *target : BulletMass{ownMass, ownInertia};
  if (body.getInvMass() != m.inverseMass_pkg || body.getInvInertiaDiagLocal() != m.inverseInertiaLocal)
    setMass(body, m.inverseMass_pkg, m.inverseInertiaLocal, gravityInTotal);
  if (!target) {
    raised = RaisedMass{};
    return;
  }
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
