// Mass properties from mass moments: the centre of mass, the inertia about
// it, its principal moments and axes (a Jacobi eigen-solver in double), and
// the hull or mesh moved into that frame.

#include <keel/mass_properties.hpp>

#include "finite.hpp"
#include "hull/refuse_overlaps.hpp"
#include "mass/mass_detail.hpp"
#include "math/det_math.hpp"

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI {
namespace detail {

using Matrix3d = std::array<std::array<double, 3>, 3>;

namespace {

/// One Jacobi rotation in the (p, q) plane that zeroes a[p][q]
/// (Golub and Van Loan, Algorithm 8.5.1), applied to a and accumulated in v.
void rotate(Matrix3d& a, Matrix3d& v, int p, int q) {
  const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
  // The smaller root of t^2 + 2 theta t - 1 = 0: a rotation of at most 45 degrees.
  const double t = std::abs(theta) > 1e100
                       ? 0.5 / theta
                       : std::copysign(1.0, theta) / (std::abs(theta) + detail::det::hypot(theta, 1.0));
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

/// The bounds of a body's mass and moments, as messages print them.
std::ostream& bodyBounds(std::ostream& s, const char* unit) {
  return s << std::setprecision(2) << kLightestBody << " to " << kHeaviestBody << " " << unit
           << " (docs/mass.md, \"Bounds\")";
}

void refuseNoMass(const Moments& moments) {
  bool finite = std::isfinite(moments.zeroth);
  for (double f : moments.first) finite = finite && std::isfinite(f);
  for (double s : moments.second) finite = finite && std::isfinite(s);
  if (!finite || !(moments.zeroth > 0)) {
    std::ostringstream s;
    s << "keel::massProperties: the mass is " << moments.zeroth
      << " kg; it must be positive and every moment finite (is the model empty, or a density negative?)";
    throw std::invalid_argument(s.str());
  }
  if (moments.zeroth < kLightestBody || moments.zeroth > kHeaviestBody) {
    std::ostringstream s;
    s << "keel::massProperties: the mass is " << moments.zeroth << " kg, outside the ";
    bodyBounds(s, "kg") << " a body may weigh: is a density or a thickness in the wrong units?";
    throw std::invalid_argument(s.str());
  }
}

/// A principal moment under this fraction of the trace of the second
/// moments about the hull origin is not resolved: the parallel-axis step
/// leaves an error of a few ulps of that trace (about 1e-15 of it), so the
/// moment would keep fewer than four significant digits (docs/mass.md,
/// "Bounds").
constexpr double kResolved = 1e-11;

/// Refuses principal moments [kg m^2] a rigid body cannot have: negative
/// beyond rounding (holes heavier than the solid around them), lost in the
/// rounding of `aboutOrigin_kgm2` (no extent, or far from the origin), or
/// outside the bounds Bullet can invert.
void refuseUnusableMoments(const std::array<double, 3>& values, double aboutOrigin_kgm2, const double c[3]) {
  const double rounding_kgm2 = kResolved * aboutOrigin_kgm2;
  const double smallest = std::min({values[0], values[1], values[2]});
  const double largest = std::max({values[0], values[1], values[2]});
  std::ostringstream s;
  s << "keel::massProperties: a principal moment of inertia is ";
  if (smallest < -rounding_kgm2) {
    s << smallest << " kg m^2: negative densities outweigh the rest somewhere";
  } else if (smallest <= rounding_kgm2) {
    s << smallest << " kg m^2, not above the rounding of the moments about the hull frame's origin (" << rounding_kgm2
      << " kg m^2): the body has no extent along an axis (a lone point mass, a rod), or its centre of mass is "
      << std::hypot(c[0], c[1], c[2]) << " m from the hull frame's origin (give its geometry there)";
  } else if (smallest < kLightestBody || largest > kHeaviestBody) {
    s << (smallest < kLightestBody ? smallest : largest) << " kg m^2, outside the ";
    bodyBounds(s, "kg m^2") << " a body may have";
  } else {
    return;
  }
  throw std::invalid_argument(s.str());
}

/// Principal moments closer than this many times their rounding are equal
/// (equalMomentsTolerance).
constexpr double kEqualRoundings = 4;

/// How close two principal moments [kg m^2] must be to count as equal: the
/// rounding of the input, whose coordinates are btScalar (half an ulp of a
/// vertex at |c| + r from the origin moves a moment by about 2 m r (|c| +
/// r) eps, r the radius of gyration), and of the arithmetic in double (a
/// few ulps of the moments about the origin). Within it, any axes of the
/// eigenspace are as principal as the input can tell (docs/mass.md, "Equal
/// moments").
double equalMomentsTolerance(double m, const double c[3], double aboutCentre_kgm2, double aboutOrigin_kgm2) {
  const double gyration_m = std::sqrt(aboutCentre_kgm2 / m);
  const double input = 2 * std::numeric_limits<btScalar>::epsilon() *
                       (aboutCentre_kgm2 + m * gyration_m * std::hypot(c[0], c[1], c[2]));
  const double arithmetic = std::numeric_limits<double>::epsilon() * aboutOrigin_kgm2;
  return kEqualRoundings * (input + arithmetic);
}

/// Within a set of equal principal moments any axes are principal, and the
/// solver's are arbitrary (up to 45 degrees from the hull's): replaced by
/// the hull's own, projected into the eigenspace. Three equal: the hull's
/// axes. Two: the rotation within their plane that brings them nearest
/// the two hull axes i, j they stand for (the 2 x 2 orthogonal Procrustes
/// problem: the solver's pair u, v turned by atan2(v_i - u_j, u_i + v_j)),
/// so the frame stays a rotation and the result does not depend on the
/// solver's pair. The moments become the inertia's along the chosen axes.
void keepHullAxesWhereEqual(SymmetricEigen& e, const Matrix3d& inertia, double tolerance_kgm2) {
  int o[3] = {0, 1, 2};
  std::sort(o, o + 3, [&](int a, int b) { return e.values[a] < e.values[b]; });
  const bool low = e.values[o[1]] - e.values[o[0]] <= tolerance_kgm2;
  const bool high = e.values[o[2]] - e.values[o[1]] <= tolerance_kgm2;
  if (low && high) {
    for (int i = 0; i < 3; ++i) {
      for (int k = 0; k < 3; ++k) e.vectors[k][i] = i == k ? 1 : 0;
      e.values[i] = inertia[i][i];
    }
    return;
  }
  if (!low && !high) return;
  const int i = std::min(o[low ? 0 : 1], o[low ? 1 : 2]), j = std::max(o[low ? 0 : 1], o[low ? 1 : 2]);
  const auto& v = e.vectors;
  // The rotation by atan2(y, x), its cos and sin as x and y over their
  // length (no atan2, cos or sin, whose bits are the platform's).
  const double y = v[i][j] - v[j][i], x = v[i][i] + v[j][j], length = detail::det::hypot(x, y);
  const double cos = length > 0 ? x / length : 1, sin = length > 0 ? y / length : 0;
  std::array<double, 3> ai{}, aj{};
  for (int k = 0; k < 3; ++k) {
    ai[k] = cos * v[k][i] + sin * v[k][j];
    aj[k] = -sin * v[k][i] + cos * v[k][j];
  }
  const auto along = [&](const std::array<double, 3>& a) {
    double sum = 0;
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < 3; ++k) sum += a[r] * inertia[r][k] * a[k];
    return sum;
  };
  for (int k = 0; k < 3; ++k) {
    e.vectors[k][i] = ai[k];
    e.vectors[k][j] = aj[k];
  }
  e.values[i] = along(ai);
  e.values[j] = along(aj);
}

}  // namespace
}  // namespace detail

MassProperties massProperties(const Moments& moments) {
  detail::refuseNoMass(moments);
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
  const double aboutOrigin_kgm2 = std::abs(q[0]) + std::abs(q[1]) + std::abs(q[2]);
  detail::refuseUnusableMoments(e.values, aboutOrigin_kgm2, c);
  detail::keepHullAxesWhereEqual(e, inertia, detail::equalMomentsTolerance(m, c, sxx + syy + szz, aboutOrigin_kgm2));
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

namespace {

/// Refuses a transform that is not finite (it would move every vertex to
/// NaN) or not a rigid motion.
void refuseNonFinite(const btTransform& bodyToHull) {
  const auto refuse = [](const char* what, const btVector3& v) {
    if (detail::isFinite(v)) return;
    std::ostringstream s;
    s << "keel::toBodyFrame: bodyToHull's " << what << " is (" << v.x() << ", " << v.y() << ", " << v.z()
      << "), not finite (MassProperties::bodyToHull() is, for a model it accepted)";
    throw std::invalid_argument(s.str());
  };
  for (int row = 0; row < 3; ++row) refuse("basis", bodyToHull.getBasis()[row]);
  refuse("origin", bodyToHull.getOrigin());
  // btTransform::inverse() transposes the basis, which inverts a rotation
  // only: a scaled or sheared basis would move the mesh somewhere else,
  // silently. A rotation made in btScalar (a quaternion's, or several
  // composed) is orthonormal to a few ulps; 1e-4 leaves room for many.
  const btMatrix3x3& b = bodyToHull.getBasis();
  const btMatrix3x3 product = b * b.transpose();
  double off = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) off = std::max(off, std::abs(double(product[i][j]) - (i == j ? 1.0 : 0.0)));
  if (!(off <= 1e-4) || !(b.determinant() > 0)) {
    std::ostringstream s;
    s << "keel::toBodyFrame: bodyToHull's basis is no rotation (B B^T differs from the identity by " << off
      << ", determinant " << b.determinant()
      << "): its inverse would not move the mesh back; scale the mesh first, or pass MassProperties::bodyToHull()";
    throw std::invalid_argument(s.str());
  }
}

/// Copies every triangle of a Bullet mesh, moved, into another; notes the
/// first that moves to a non-finite vertex instead (thrown after the walk,
/// not through Bullet's).
class MovingCopy final : public btInternalTriangleIndexCallback {
 public:
  MovingCopy(btTriangleMesh& out, const btTransform& move) : out_(out), move_(move) {}
  void internalProcessTriangleIndex(btVector3* triangle, int part, int index) override {
    if (!bad_.empty()) return;
    const btVector3 moved[3] = {move_ * triangle[0], move_ * triangle[1], move_ * triangle[2]};
    for (const btVector3& v : moved)
      if (!detail::isFinite(v)) {
        std::ostringstream s;
        s << "keel::toBodyFrame: triangle " << index << " of part " << part << " moves to (" << v.x() << ", " << v.y()
          << ", " << v.z() << "), not finite: the mesh's vertex is not, or bodyToHull moves it out of range";
        bad_ = s.str();
        return;
      }
    out_.addTriangle(moved[0], moved[1], moved[2], false);
  }
  [[nodiscard]] const std::string& bad() const { return bad_; }

 private:
  btTriangleMesh& out_;
  btTransform move_;
  std::string bad_;
};

}  // namespace

std::shared_ptr<const Hull> toBodyFrame(const Hull& hull, const btTransform& bodyToHull, const HullOptions& options) {
  refuseNonFinite(bodyToHull);
  const btTransform hullToBody = bodyToHull.inverse();
  std::vector<btVector3> vertices(hull.vertices().begin(), hull.vertices().end());
  for (btVector3& v : vertices) v = hullToBody * v;
  return std::make_shared<const Hull>(vertices, hull.triangles(), options);
}

std::unique_ptr<btTriangleMesh> toBodyFrame(const btStridingMeshInterface& mesh, const btTransform& bodyToHull) {
  refuseNonFinite(bodyToHull);
  auto out = std::make_unique<btTriangleMesh>(true, false);
  MovingCopy copy(*out, bodyToHull.inverse());
  const btVector3 huge(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT);
  mesh.InternalProcessAllTriangles(&copy, -huge, huge);
  if (!copy.bad().empty()) throw std::invalid_argument(copy.bad());
  return out;
}

}  // namespace keel::KEEL_ABI
