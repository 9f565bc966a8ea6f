// The AddedMass stage, and the added mass's share of the VelocityChange
// stage: the water's inertia, solved with the body's own (docs/model.md,
// "Added mass"; docs/integration.md, "Added mass").
#include "added_mass/added_mass.hpp"
#include "action/raised_mass.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <cmath>
#include <span>
#include <utility>

namespace keel::KEEL_ABI::detail {
namespace {

/// Solves `m x = b` for the symmetric positive definite 6 x 6 `m`
/// (row-major, overwritten) by Gaussian elimination with partial
/// pivoting: the same operations in the same order on every CPU.
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

btVector3 toScalar(double x, double y, double z) { return btVector3(btScalar(x), btScalar(y), btScalar(z)); }

}  // namespace

void waterInertia(const BoatModel& boat, BoatState& state, const PointWater& water, const BodySnapshot& body,
                  Substep& s, const HullSoA& points) {
  if (!s.plan.addedMass) {
    state.addedMass = AddedMass{};
    return;
  }
  const StageScope scope(s.profile, SubstepStage::AddedMass);
  // The level plane at the mean water height under the points, along up
  // from the centre of mass.
  const double level_m = meanWaterHeight(std::span(water.height_m.data(), points.vertexCount)) -
                         double(s.axes.centreUp_m);
  state.addedMass = addedMassBelowPlane(boat.hull, s.axes.up, level_m, double(boat.statics.waterDensity_kgpm3));
  // The terms' clamps and slamming stop what the body and its water weigh.
  const BulletMass raised = raisedMass(body.inverseMass_pkg, body.ownInverseInertiaLocal, state.addedMass);
  s.effectiveInverseMass_pkg = raised.inverseMass_pkg;
  s.effectiveInverseInertia = state.basis.scaled(raised.inverseInertiaLocal) * state.basis.transpose();
}

void implicitVelocityChange(const BoatState& state, const BodySnapshot& body, const Substep& s, btVector3& dv,
                            btVector3& dw) {
  const btMatrix3x3& r = state.basis;  // body axes to world
  const BulletMass next = raisedMass(body.inverseMass_pkg, body.ownInverseInertiaLocal, state.addedMass);
  // The user's forces: Bullet's accumulated force less the gravity of the
  // mass it holds now (inside a step; between steps it holds none yet).
  btVector3 user = body.totalForce_N;
  if (body.gravityInTotal && body.bulletInverseMass_pkg > 0)
    user -= body.linearFactor * body.gravity_mps2 / body.bulletInverseMass_pkg;
  // What Bullet integrates in the next substep on its own: the user's
  // forces and the gravity of the raised mass, over the raised mass.
  const btVector3 bulletLinear = (user * next.inverseMass_pkg + body.linearFactor * body.gravity_mps2) * s.dt_s;
  const btVector3 bulletAngular = (r.scaled(next.inverseInertiaLocal) * r.transpose()) * body.totalTorque_Nm * s.dt_s;
  // The body and its water together: (M + A) a = the water's force,
  // gravity on the body's own mass and the user's forces (body axes).
  const double mass_kg = 1 / double(body.inverseMass_pkg);
  const btVector3 force = (state.total.force_N + body.gravity_mps2 * btScalar(mass_kg) + user) * r;
  const btVector3 torque = (state.total.torque_Nm + body.totalTorque_Nm) * r;
  std::array<double, 36> m = state.addedMass.matrix;
  std::array<double, 6> x = {double(force.x()),  double(force.y()),  double(force.z()),
                             double(torque.x()), double(torque.y()), double(torque.z())};
  for (std::size_t k = 0; k < 3; ++k) m[7 * k] += mass_kg;
  for (std::size_t k = 3; k < 6; ++k) {
    const double inverse = double(body.ownInverseInertiaLocal[int(k - 3)]);
    if (inverse > 0) {
      m[7 * k] += 1 / inverse;
      continue;
    }
    // An infinite inertia about this axis: it does not turn.
    for (std::size_t j = 0; j < 6; ++j) m[6 * k + j] = m[6 * j + k] = 0;
    m[7 * k] = 1;
    x[k] = 0;
  }
  solve6(m, x);
  const btVector3 linear = r * toScalar(x[0], x[1], x[2]);
  const btVector3 angular = r * toScalar(x[3], x[4], x[5]);
  dv = linear * body.linearFactor * s.dt_s - bulletLinear;
  dw = angular * body.angularFactor * s.dt_s - bulletAngular;
}

}  // namespace keel::KEEL_ABI::detail
