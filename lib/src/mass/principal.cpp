// Mass properties from mass moments: the centre of mass, the inertia about
// it, its principal moments and axes (a Jacobi eigen-solver in double), and
// the hull or mesh moved into that frame.

#include <keel/mass_properties.hpp>

#include "hull/refuse_overlaps.hpp"
#include "mass/mass_detail.hpp"

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace keel::KEEL_ABI {
namespace detail {

using Matrix3d = std::array<std::array<double, 3>, 3>;

namespace {

/// One Jacobi rotation in the (p, q) plane that zeroes a[p][q]
/// (Golub and Van Loan, Algorithm 8.5.1), applied to a and accumulated in v.
void rotate(Matrix3d& a, Matrix3d& v, int p, int q) {
  const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
  // The smaller root of t^2 + 2 theta t - 1 = 0: a rotation of at most 45 degrees.
  const double t = std::abs(theta) > 1e100 ? 0.5 / theta
                                           : std::copysign(1.0, theta) / (std::abs(theta) + std::hypot(theta, 1.0));
  const double c = 1 / std::sqrt(t * t + 1), s = t * c;
  for (int k = 0; k < 3; ++k) {
    const double akp = a[k][p], akq = a[k][q];
    a[k][p] = c * akp - s * akq;
    a[k][q] = s * akp + c * akq;
  }
  for (int k = 0; k < 3; ++k) {
    const double apk = a[p][k], aqk = a[q][k];
    a[p][k] = c * apk - s * aqk;
    a[q][k] = s * apk + c * aqk;
  }
  for (int k = 0; k < 3; ++k) {
    const double vkp = v[k][p], vkq = v[k][q];
    v[k][p] = c * vkp - s * vkq;
    v[k][q] = s * vkp + c * vkq;
  }
  a[p][q] = a[q][p] = 0;  // zero by construction; round-off left out
}

}  // namespace

SymmetricEigen symmetricEigen(Matrix3d a) {
  Matrix3d v{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  // Convergence is quadratic: a handful of sweeps reach an exactly zero
  // off-diagonal; the bound only guards against a pathological cycle.
  static constexpr int kPairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
  for (int sweep = 0; sweep < 50; ++sweep) {
    bool diagonal = true;
    for (const auto& pq : kPairs) {
      if (a[pq[0]][pq[1]] == 0) continue;
      diagonal = false;
      rotate(a, v, pq[0], pq[1]);
    }
    if (diagonal) break;
  }
  SymmetricEigen e;
  for (int i = 0; i < 3; ++i) e.values[i] = a[i][i];
  e.vectors = v;
  return e;
}

namespace {

/// The eigenvectors reordered and signed so that column i is the one
/// nearest hull axis i and points its way, and the whole a rotation.
void alignWithHullAxes(SymmetricEigen& e) {
  int order[3] = {0, 1, 2}, best[3] = {0, 1, 2};
  double bestScore = -1;
  do {
    double score = 0;
    for (int i = 0; i < 3; ++i) score += std::abs(e.vectors[i][order[i]]);
    if (score > bestScore) {
      bestScore = score;
      std::copy(order, order + 3, best);
    }
  } while (std::next_permutation(order, order + 3));
  SymmetricEigen out;
  for (int j = 0; j < 3; ++j) {
    out.values[j] = e.values[best[j]];
    const double sign = e.vectors[j][best[j]] < 0 ? -1 : 1;
    for (int i = 0; i < 3; ++i) out.vectors[i][j] = sign * e.vectors[i][best[j]];
  }
  const auto& m = out.vectors;
  const double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                     m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (det < 0)
    for (int i = 0; i < 3; ++i) out.vectors[i][2] = -out.vectors[i][2];
  e = out;
}

btMatrix3x3 toBt(const Matrix3d& m) {
  return btMatrix3x3(btScalar(m[0][0]), btScalar(m[0][1]), btScalar(m[0][2]), btScalar(m[1][0]), btScalar(m[1][1]),
                     btScalar(m[1][2]), btScalar(m[2][0]), btScalar(m[2][1]), btScalar(m[2][2]));
}

}  // namespace
}  // namespace detail

MassProperties massProperties(const Moments& moments) {
  bool finite = std::isfinite(moments.zeroth);
  for (double f : moments.first) finite = finite && std::isfinite(f);
  for (double s : moments.second) finite = finite && std::isfinite(s);
  if (!finite || !(moments.zeroth > 0)) {
    std::ostringstream s;
    s << "keel::massProperties: the mass is " << moments.zeroth
      << " kg; it must be positive and every moment finite (is the model empty, or a density negative?)";
    throw std::invalid_argument(s.str());
  }
  const double m = moments.zeroth;
  const double c[3] = {moments.first[0] / m, moments.first[1] / m, moments.first[2] / m};
  // Second moments about the centre of mass (parallel-axis theorem), then
  // the inertia tensor I = tr(S) 1 - S.
  const auto& q = moments.second;
  const double sxx = q[0] - m * c[0] * c[0], syy = q[1] - m * c[1] * c[1], szz = q[2] - m * c[2] * c[2];
  const double sxy = q[3] - m * c[0] * c[1], syz = q[4] - m * c[1] * c[2], szx = q[5] - m * c[2] * c[0];
  const detail::Matrix3d inertia{{{syy + szz, -sxy, -szx}, {-sxy, sxx + szz, -syz}, {-szx, -syz, sxx + syy}}};
  detail::SymmetricEigen e = detail::symmetricEigen(inertia);
  detail::alignWithHullAxes(e);
  const double largest = std::max({e.values[0], e.values[1], e.values[2]});
  for (double& value : e.values) {
    // Round-off may leave a point mass's or a rod's zero moment slightly negative.
    if (value < -1e-9 * largest) {
      std::ostringstream s;
      s << "keel::massProperties: a principal moment of inertia is " << value
        << " kg m^2: negative densities outweigh the rest somewhere";
      throw std::invalid_argument(s.str());
    }
    value = std::max(value, 0.0);
  }
  MassProperties out;
  out.mass_kg = btScalar(m);
  out.centreOfMass_m = btVector3(btScalar(c[0]), btScalar(c[1]), btScalar(c[2]));
  out.inertia_kgm2 = detail::toBt(inertia);
  out.principalInertia_kgm2 = btVector3(btScalar(e.values[0]), btScalar(e.values[1]), btScalar(e.values[2]));
  out.principalAxes = detail::toBt(e.vectors);
  return out;
}

MassProperties massProperties(const Hull& hull, double density_kgpm3) {
  detail::refuseOverlappingParts(hull, "keel::massProperties");
  detail::checkedNonNegative(density_kgpm3, "keel::massProperties: the density [kg/m^3]", true);
  return massProperties(volumeMoments(hull).scaled(density_kgpm3));
}

std::shared_ptr<const Hull> toBodyFrame(const Hull& hull, const btTransform& bodyToHull, const HullOptions& options) {
  const btTransform hullToBody = bodyToHull.inverse();
  std::vector<btVector3> vertices(hull.vertices().begin(), hull.vertices().end());
  for (btVector3& v : vertices) v = hullToBody * v;
  return std::make_shared<const Hull>(vertices, hull.triangles(), options);
}

namespace {

/// Copies every triangle of a Bullet mesh, moved, into another.
class MovingCopy final : public btInternalTriangleIndexCallback {
 public:
  MovingCopy(btTriangleMesh& out, const btTransform& move) : out_(out), move_(move) {}
  void internalProcessTriangleIndex(btVector3* triangle, int, int) override {
    out_.addTriangle(move_ * triangle[0], move_ * triangle[1], move_ * triangle[2], false);
  }

 private:
  btTriangleMesh& out_;
  btTransform move_;
};

}  // namespace

std::unique_ptr<btTriangleMesh> toBodyFrame(const btStridingMeshInterface& mesh, const btTransform& bodyToHull) {
  auto out = std::make_unique<btTriangleMesh>(true, false);
  MovingCopy copy(*out, bodyToHull.inverse());
  const btVector3 huge(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT);
  mesh.InternalProcessAllTriangles(&copy, -huge, huge);
  return out;
}

}  // namespace keel::KEEL_ABI
