// The AddedMass stage, and the added mass's share of the VelocityChange
// stage: the water's inertia, solved with the body's own (docs/model.md,
// "Added mass"; docs/integration.md, "Added mass").
#include "added_mass/added_mass.hpp"
#include "action/raised_mass.hpp"
#include "hull/hull_access.hpp"
#include "substep/profile.hpp"
#include "substep/stages.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <utility>

namespace keel::KEEL_ABI::detail {
namespace {

btVector3 toScalar(double x, double y, double z) { return btVector3(btScalar(x), btScalar(y), btScalar(z)); }

/// The waterplane's hydrostatic stiffness [N/m, N, N m] (row-major 6 x 6,
/// body axes about the centre of mass): a small motion (dx, dtheta) raises
/// the hull at a waterplane point r by dz = u . dx + (r x u) . dtheta, and
/// the water pushes back rho g dz per area, so K = rho g times the integral
/// over the waterplane of g g^T, g = (u, r x u) (Newman 1977, §6.16, without
/// the displaced volume's term in roll and pitch: K stays positive
/// semi-definite). The waterplane's area and moments come from the cut's
/// waterline segments by Green's theorem, in the plane across `up`.
std::array<double, 36> waterplaneStiffness(const PieceBuffer& p, std::size_t crossing, const btVector3& up,
                                           double rhoG) {
  std::array<double, 36> k{};
  if (crossing == 0) return k;
  // Axes e1, e2 across up, with e2 = up x e1, so e1 x e2 = up.
  btVector3 e1, e2;
  btPlaneSpace1(up, e1, e2);
  double area = 0, sx = 0, sy = 0, ixx = 0, iyy = 0, ixy = 0;
  for (std::size_t i = 0; i < crossing; ++i) {
    const btVector3 a(p.px[i], p.py[i], p.pz[i]), b(p.qx[i], p.qy[i], p.qz[i]);
    const double x0 = double(a.dot(e1)), y0 = double(a.dot(e2)), x1 = double(b.dot(e1)), y1 = double(b.dot(e2));
    const double c = x0 * y1 - x1 * y0;
    area += c / 2;
    sx += (x0 + x1) * c / 6, sy += (y0 + y1) * c / 6;
    ixx += (x0 * x0 + x0 * x1 + x1 * x1) * c / 12, iyy += (y0 * y0 + y0 * y1 + y1 * y1) * c / 12;
    ixy += (x0 * y1 + 2 * x0 * y0 + 2 * x1 * y1 + x1 * y0) * c / 24;
  }
  const double sign = area < 0 ? -1 : 1;  // the segments' winding
  // r x u = y e1 - x e2 for r = x e1 + y e2 + h u.
  std::array<double, 6> g[3];  // the integrals of g_i's parts: 1, x, y
  for (int j = 0; j < 3; ++j) {
    g[0][std::size_t(j)] = double(up[j]), g[0][(std::size_t(j) + 3)] = 0;
    g[1][std::size_t(j)] = 0, g[1][(std::size_t(j) + 3)] = -double(e2[j]);
    g[2][std::size_t(j)] = 0, g[2][(std::size_t(j) + 3)] = double(e1[j]);
  }
  // g = g0 + x g1 + y g2: the integral of g g^T from those of 1, x, y, x^2, xy, y^2.
  const double m[3][3] = {{area, sx, sy}, {sx, ixx, ixy}, {sy, ixy, iyy}};
  for (std::size_t r = 0; r < 6; ++r)
    for (std::size_t c = 0; c < 6; ++c) {
      double sum = 0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) sum += m[i][j] * g[i][r] * g[j][c];
      k[6 * r + c] = sign * rhoG * sum;
    }
  return k;
}

/// The integral of |r|^2 over the wet hull [m^4] (r from the centre of
/// mass; whole wet triangles and the cut's pieces at their centroids).
double wetRadiusMoment(const Hull& hull, const Substep& s) {
  const BoatBuffers& b = s.buffers;
  double sum = 0;
  auto add = [&](const PieceStream& p) {
    for (std::size_t i = 0; i < p.count; ++i)
      if (p.weight[i] > 0) sum += double(p.area[i]) * double(p.gx[i] * p.gx[i] + p.gy[i] * p.gy[i] + p.gz[i] * p.gz[i]);
  };
  add(b.triangles(soaOf(hull)));
  add(b.pieces.stream());
  return sum;
}

/// A bound on how fast the pressure drag takes the body's turning relative
/// to the water [N m s]: every wet piece's linear and quadratic drag at the
/// relative speed `speed_mps`, C / vr + 2 C2 speed / vr^2 per area, at its
/// lever arm |r| (the torque's derivative is at most that over the wet
/// hull; Kerner's pressure drag, docs/model.md §2).
double turningDrag(const HydrodynamicSettings& h, double wetRadiusMoment_m4, double speed_mps) {
  const double vr = double(h.referenceSpeed_mps);
  const double linear = double(std::max(h.pressureLinear_Pa, h.suctionLinear_Pa));
  const double quadratic = double(std::max(h.pressureQuadratic_Pa, h.suctionQuadratic_Pa));
  return (linear / vr + 2 * quadratic * speed_mps / (vr * vr)) * wetRadiusMoment_m4;
}

}  // namespace

void waterInertia(const BoatModel& boat, BoatState& state, const PointWater& water, const BodySnapshot& body,
                  Substep& s, const HullSoA& points) {
  if (!s.plan.addedMass) {
    if (!state.addedMassCleared) state.addedMass = AddedMass{}, state.addedMassCleared = true;
    return;
  }
  state.addedMassCleared = false;
  const StageScope scope(s.profile, SubstepStage::AddedMass);
  // The level plane at the mean water height under the points, along up
  // from the centre of mass.
  const double level_m = meanWaterHeight(std::span(water.height_m.data(), points.vertexCount)) -
                         double(s.axes.centreUp_m);
  if (!state.hullMomentsKnown) state.hullMoments = volumeMoments(boat.hull), state.hullMomentsKnown = true;
  state.addedMass = addedMassBelowPlane(boat.hull, s.axes.up, level_m, double(boat.statics.waterDensity_kgpm3),
                                        &state.hullMoments);
  // The terms' clamps and slamming stop what the body and its water weigh.
  state.raisedTo = raisedMass(body.inverseMass_pkg, body.ownInverseInertiaLocal, state.addedMass);
  s.effectiveInverseMass_pkg = state.raisedTo.inverseMass_pkg;
  s.effectiveInverseInertia = worldInverseInertia(state.basis, state.raisedTo.inverseInertiaLocal);
}

void implicitVelocityChange(const BoatModel& boat, const BoatState& state, const BodySnapshot& body, const Substep& s,
                            btVector3& dv, btVector3& dw) {
  const btMatrix3x3& r = state.basis;  // body axes to world
  // The user's forces: Bullet's accumulated force less the gravity of the
  // mass it holds now (inside a step; between steps it holds none yet).
  btVector3 user = body.totalForce_N;
  if (body.gravityInTotal && body.bulletInverseMass_pkg > 0)
    user -= body.linearFactor * body.gravity_mps2 / body.bulletInverseMass_pkg;
  // What Bullet integrates in the next substep on its own: the user's
  // forces and the gravity of the raised mass, over the raised mass (the
  // AddedMass stage's, which Bullet will hold then).
  const btVector3 bulletLinear = (user * s.effectiveInverseMass_pkg + body.linearFactor * body.gravity_mps2) * s.dt_s;
  const btVector3 bulletAngular = s.effectiveInverseInertia * body.totalTorque_Nm * s.dt_s;
  // The body and its water together: (M + A) a = the water's force,
  // gravity on the body's own mass and the user's forces (body axes).
  const btScalar mass_kg = btScalar(1) / body.inverseMass_pkg;
  const btVector3 force = (state.total.force_N + body.gravity_mps2 * mass_kg + user) * r;
  const btVector3 torque = (state.total.torque_Nm + body.totalTorque_Nm) * r;
  std::array<double, 36> m = bodyAndWater(body.inverseMass_pkg, body.ownInverseInertiaLocal, state.addedMass);
  std::array<double, 6> x = {double(force.x()),  double(force.y()),  double(force.z()),
                             double(torque.x()), double(torque.y()), double(torque.z())};
  // The waterplane's stiffness as inertia: (M + A + dt^2 K) a = F. With
  // the explicit force, a spring k on a mass m then runs at
  // w^2 = k / (m + dt^2 k), so w dt < 1 and it is stable at any time step
  // (symplectic Euler needs w dt < 2), with neither damping nor energy
  // added; its period is longer by sqrt(1 + (w dt)^2) only where w dt
  // nears 1: a light body's heave and roll with its water. (The implicit
  // spring's other term, -dt^2 K v, would damp the body's motion through
  // space, and so its following the waves.)
  const double dt2 = double(s.dt_s) * double(s.dt_s);
  const std::array<double, 36> k = waterplaneStiffness(
      s.buffers.pieces, s.crossingCount, s.axes.up,
      double(boat.statics.waterDensity_kgpm3) * double(body.gravity_mps2.length()));
  for (std::size_t i = 0; i < 36; ++i) m[i] += dt2 * k[i];
  // The pressure drag's grip on the turning, as inertia too: a light hull
  // the drag would turn past the water's own turning within a substep (an
  // explicit drag overshoots once dt D > I) is turned at most to it:
  // (I + dt D) dw = dt tau (Baraff & Witkin's implicit damping, its
  // Jacobian bounded by D).
  if (boat.model == BuoyancyModel::Triangles && s.plan.pressureDrag && state.anyWet) {
    const double speed = double(s.relativeVelocity_mps.length()) +
                         double(body.angularVelocity_radps.length()) * double(boat.hull.radius_m());
    const double d = turningDrag(boat.dynamics, wetRadiusMoment(boat.hull, s), speed);
    for (std::size_t k3 = 3; k3 < 6; ++k3) m[7 * k3] += double(s.dt_s) * d;
  }
  for (std::size_t k = 3; k < 6; ++k)
    if (!(body.ownInverseInertiaLocal[int(k - 3)] > 0)) x[k] = 0;  // a locked axis
  solve6(m, x);
  const btVector3 linear = r * toScalar(x[0], x[1], x[2]);
  const btVector3 angular = r * toScalar(x[3], x[4], x[5]);
  dv = linear * body.linearFactor * s.dt_s - bulletLinear;
  dw = angular * body.angularFactor * s.dt_s - bulletAngular;
}

}  // namespace keel::KEEL_ABI::detail
