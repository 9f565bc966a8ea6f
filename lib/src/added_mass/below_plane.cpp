// The added mass of a hull below a level waterplane (docs/model.md, "Added
// mass"): the wet part reflected in the plane (the double body), replaced by
// the ellipsoid of its volume and the ratios of its second moments, whose
// added mass is Lamb's, moved to the centre of mass and halved; deep under
// the water, the hull's own ellipsoid.

#include "added_mass/added_mass.hpp"

#include <keel/volume_moments.hpp>

#include "finite.hpp"
#include "mass/mass_detail.hpp"
#include "math/det_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

namespace keel::KEEL_ABI::detail {
namespace {

using Matrix3d = std::array<std::array<double, 3>, 3>;
using Vector3d = std::array<double, 3>;
using Matrix6d = std::array<double, 36>;

/// The shortest semi-axis of an equivalent ellipsoid, as a fraction of its
/// longest at the least: a thinner one would stand for a flat plate, whose
/// added mass stays finite as its volume vanishes (Lamb's disc, 8/3 rho
/// R^3), so that a flat bottom touching the water would take it in one
/// step. With the floor, the added mass of a thin wet layer is at most a
/// fixed multiple of its displaced mass and vanishes with it
/// (docs/model.md, "Added mass", Assumptions).
constexpr double kThinnest = 0.1;

/// A region's volume [m^3], centroid [m] and second moments about its
/// centroid [m^5] (the integral of r r^T, hull axes).
struct Body {
  double volume_m3 = 0;
  Vector3d centre_m{};
  Matrix3d spread_m5{};
};

Body bodyOf(const Moments& m) {
  Body b;
  b.volume_m3 = m.zeroth;
  for (int i = 0; i < 3; ++i) b.centre_m[i] = m.first[i] / m.zeroth;
  // Moments' order: xx, yy, zz, xy, yz, zx.
  static constexpr int kIndex[3][3] = {{0, 3, 5}, {3, 1, 4}, {5, 4, 2}};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) b.spread_m5[i][j] = m.second[kIndex[i][j]] - m.zeroth * b.centre_m[i] * b.centre_m[j];
  return b;
}

/// `b` and its mirror image in the plane n . x = h: twice the volume, the
/// centroid projected on the plane, the second moments of both halves
/// (H S H for the image, H = 1 - 2 n n^T, and each half's offset d n).
Body doubled(const Body& b, const Vector3d& n, double h) {
  const double d = n[0] * b.centre_m[0] + n[1] * b.centre_m[1] + n[2] * b.centre_m[2] - h;
  Body out;
  out.volume_m3 = 2 * b.volume_m3;
  for (int i = 0; i < 3; ++i) out.centre_m[i] = b.centre_m[i] - d * n[i];
  Matrix3d hs{};  // H S
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double ns = 0;  // (n^T S)_j
      for (int k = 0; k < 3; ++k) ns += n[k] * b.spread_m5[k][j];
      hs[i][j] = b.spread_m5[i][j] - 2 * n[i] * ns;
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double hsn = hs[i][0] * n[0] + hs[i][1] * n[1] + hs[i][2] * n[2];  // (H S n)_i
      out.spread_m5[i][j] = b.spread_m5[i][j] + (hs[i][j] - 2 * hsn * n[j]) + 2 * b.volume_m3 * d * d * n[i] * n[j];
    }
  return out;
}

/// The semi-axes [m] of the ellipsoid of `volume_m3` whose axes have the
/// ratios of the square roots of the principal second moments `values`
/// (negative ones, from rounding, read as zero), none under kThinnest of
/// the longest.
Vector3d semiAxes(const Vector3d& values, double volume_m3) {
  Vector3d sigma{};
  for (int i = 0; i < 3; ++i) sigma[i] = std::sqrt(std::max(values[i], 0.0));
  const double longest = std::max({sigma[0], sigma[1], sigma[2]});
  for (double& s : sigma) s = longest > 0 ? std::max(s / longest, kThinnest) : 1;
  // (4/3) pi t^3 prod(sigma) = volume.
  const double t = det::pow(volume_m3 * 3 / (4 * std::numbers::pi * sigma[0] * sigma[1] * sigma[2]), 1.0 / 3);
  return {t * sigma[0], t * sigma[1], t * sigma[2]};
}

/// Lamb's added mass of `b`'s equivalent ellipsoid, about the hull frame's
/// origin, hull axes: R diag R^T in each block (R the principal axes), then
/// the rigid transformation to the origin. The ellipsoid's centre moves
/// with v + w x r, r its centre: A_origin = T^T A_centre T, T = [[1, -[r]x],
/// [0, 1]]: the kinetic energy 1/2 u^T A u is the same about either point.
Matrix6d ellipsoidAbout(const Body& b, double density_kgpm3) {
  const SymmetricEigen e = symmetricEigen(b.spread_m5);
  const Vector3d axes = semiAxes(e.values, b.volume_m3);
  const std::array<double, 6> diagonal = ellipsoidDiagonal(axes[0], axes[1], axes[2], density_kgpm3);
  Matrix3d m{}, j{};  // translation [kg] and rotation [kg m^2] blocks, hull axes
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) {
        const double rc = e.vectors[r][k] * e.vectors[c][k];
        m[r][c] += diagonal[std::size_t(k)] * rc;
        j[r][c] += diagonal[(std::size_t(k) + 3)] * rc;
      }
  const Vector3d& p = b.centre_m;
  const Matrix3d s{{{0, p[2], -p[1]}, {-p[2], 0, p[0]}, {p[1], -p[0], 0}}};  // -[p]x
  Matrix3d ms{};                                                             // M S
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) ms[r][c] += m[r][k] * s[k][c];
  Matrix6d out{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      double sms = 0;  // (S^T M S)_rc
      for (int k = 0; k < 3; ++k) sms += s[k][r] * ms[k][c];
      out[6 * std::size_t(r) + std::size_t(c)] = m[r][c];
      out[6 * std::size_t(r) + std::size_t(c) + 3] = ms[r][c];
      out[6 * (std::size_t(r) + 3) + std::size_t(c)] = ms[c][r];
      out[6 * (std::size_t(r) + 3) + std::size_t(c) + 3] = j[r][c] + sms;
    }
  return out;
}

}  // namespace

AddedMass addedMassBelowPlane(const Hull& hull, const btVector3& up, double waterHeight_m, double density_kgpm3,
                              const Moments* whole) {
  if (!isFinite(up) || up.isZero() || std::isnan(waterHeight_m) || !(density_kgpm3 > 0) ||
      !std::isfinite(density_kgpm3))
    return {};
  const hull_build::Vec3d u = unitDirection(up, "keel::detail::addedMassBelowPlane: up");
  const Vector3d n{u.x, u.y, u.z};
  double lowest_m = std::numeric_limits<double>::infinity(), highest_m = -lowest_m;
  for (const btVector3& v : hull.vertices()) {
    const double along = n[0] * double(v.x()) + n[1] * double(v.y()) + n[2] * double(v.z());
    lowest_m = std::min(lowest_m, along);
    highest_m = std::max(highest_m, along);
  }
  if (!(waterHeight_m > lowest_m)) return {};  // dry, exactly
  const bool under = waterHeight_m >= highest_m;
  const Moments wet = !under  ? volumeMomentsBelow(hull.vertices(), hull.triangles(), up, waterHeight_m)
                      : whole ? *whole
                              : volumeMoments(hull.vertices(), hull.triangles());
  if (!(wet.zeroth > 0)) return {};
  const Body body = bodyOf(wet);
  // Under the water the mirrored pair gives way to the hull's own ellipsoid
  // within one height of the hull below the surface: w = (1 - depth /
  // height)^2, 1 as the top reaches the plane (where the double body is
  // the pair touching), 0 with a level slope a height down.
  const double height_m = highest_m - lowest_m, depth_m = under ? waterHeight_m - highest_m : 0;
  const double w = depth_m < height_m ? (1 - depth_m / height_m) * (1 - depth_m / height_m) : 0;
  Matrix6d a{};
  if (w > 0) {
    const Matrix6d pair = ellipsoidAbout(doubled(body, n, waterHeight_m), density_kgpm3);
    for (std::size_t k = 0; k < 36; ++k) a[k] = w * pair[k] / 2;
  }
  if (w < 1) {
    const Matrix6d own = ellipsoidAbout(body, density_kgpm3);
    for (std::size_t k = 0; k < 36; ++k) a[k] += (1 - w) * own[k];
  }
  AddedMass out;
  for (std::size_t k = 0; k < 36; ++k) {
    if (!std::isfinite(a[k])) return {};  // nothing non-finite reaches Bullet
    out.matrix[k] = a[k];
  }
  // Exactly symmetric: S^T M S, summed in one order, is so only to rounding.
  for (std::size_t r = 0; r < 6; ++r)
    for (std::size_t c = r + 1; c < 6; ++c) out.matrix[6 * c + r] = out.matrix[6 * r + c];
  return out;
}

}  // namespace keel::KEEL_ABI::detail
