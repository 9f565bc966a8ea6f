// Lamb's added mass of a solid ellipsoid (Lamb, "Hydrodynamics", 6th ed.,
// 1932, §114 and §373; Newman, "Marine Hydrodynamics", 1977, chapter 4), its
// coefficients by Carlson's symmetric elliptic integral R_D: only + - * /
// and sqrt, so the same bits on every CPU (docs/determinism.md).

#include <keel/added_mass.hpp>

#include "added_mass/added_mass.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

namespace keel::KEEL_ABI {
namespace detail {
namespace {

/// Carlson's R_D(x, y, z) = 3/2 integral_0^inf dt / ((t + z) sqrt((t + x)
/// (t + y) (t + z))), x, y >= 0 (at most one zero), z > 0, by the
/// duplication theorem (Carlson, Numer. Algorithms 10, 1995): each step
/// moves the arguments together by a factor 4; a series to fifth order
/// finishes once they agree to kAgree, its truncation then below double's
/// rounding.
double carlsonRD(double x, double y, double z) {
  constexpr double kAgree = 0.0015;  // the series' truncation, about kAgree^6, is under 2^-53 / 4
  double sum = 0, factor = 1;
  double mean = (x + y + 3 * z) / 5;
  double dx = (mean - x) / mean, dy = (mean - y) / mean, dz = (mean - z) / mean;
  // The relative spread falls about fourfold a step: a handful of steps
  // for any arguments; the bound only guards the loop.
  for (int step = 0; step < 60 && std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) > kAgree; ++step) {
    const double sx = std::sqrt(x), sy = std::sqrt(y), sz = std::sqrt(z);
    const double lambda = sx * (sy + sz) + sy * sz;
    sum += factor / (sz * (z + lambda));
    factor /= 4;
    x = (x + lambda) / 4;
    y = (y + lambda) / 4;
    z = (z + lambda) / 4;
    mean = (x + y + 3 * z) / 5;
    dx = (mean - x) / mean;
    dy = (mean - y) / mean;
    dz = (mean - z) / mean;
  }
  // Carlson's fifth-order series in the elementary symmetric functions of
  // the relative deviations dx, dy, dz (dx + dy + 3 dz = 0).
  const double ea = dx * dy, eb = dz * dz, ec = ea - eb, ed = ea - 6 * eb, ee = ed + ec + ec;
  const double series = 1 + ed * (-3.0 / 14 + (9.0 / 88) * ed - (9.0 / 52) * dz * ee) +
                        dz * (ee / 6 + dz * (-(9.0 / 22) * ec + dz * (3.0 / 26) * ea));
  return 3 * sum + factor * series / (mean * std::sqrt(mean));
}

/// The added moment of inertia about axis i of an ellipsoid of volume V,
/// over rho V / 5 (Lamb §373): (s_j^2 - s_k^2)^2 (c_k - c_j) / (2 (s_j^2 -
/// s_k^2) + (s_j^2 + s_k^2)(c_j - c_k)), c the coefficients. Written with g
/// = (c_k - c_j) / (s_j^2 - s_k^2), finite as s_j -> s_k, and c_i + c_j +
/// c_k = 2 as d^2 g / (c_i + 2 c_j - 2 s_k^2 g), d = s_j^2 - s_k^2, s_j >=
/// s_k: no cancellation as s_k -> 0 (a thin plate), where the original
/// denominator is the difference of two nearly equal terms.
double rotationOverFifth(const double s2[3], const double coefficient[3], double gNear, int i) {
  int j = (i + 1) % 3, k = (i + 2) % 3;
  if (s2[j] < s2[k]) std::swap(j, k);
  const double d = s2[j] - s2[k];
  const double g = gNear >= 0 ? gNear : (coefficient[k] - coefficient[j]) / d;
  return d * d * g / (coefficient[i] + 2 * coefficient[j] - 2 * s2[k] * g);
}

/// Lamb's coefficient alpha_0 of the axis whose square is `along`, the
/// others `across1` and `across2`: (2/3) a b c R_D(b^2, c^2, a^2).
double lambCoefficient(double abc, double along, double across1, double across2) {
  return 2.0 / 3 * abc * carlsonRD(across1, across2, along);
}

}  // namespace

std::array<double, 6> ellipsoidDiagonal(double a_m, double b_m, double c_m, double density_kgpm3) {
  const double s[3] = {a_m, b_m, c_m}, s2[3] = {a_m * a_m, b_m * b_m, c_m * c_m};
  const double abc = a_m * b_m * c_m;
  const double volume_m3 = 4.0 / 3 * std::numbers::pi * abc, mass_kg = density_kgpm3 * volume_m3;
  double coefficient[3];
  for (int i = 0; i < 3; ++i) coefficient[i] = lambCoefficient(abc, s2[i], s2[(i + 1) % 3], s2[(i + 2) % 3]);
  std::array<double, 6> out{};
  for (int i = 0; i < 3; ++i) out[std::size_t(i)] = mass_kg * coefficient[i] / (2 - coefficient[i]);
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    // Close to a body of revolution about i the difference quotient g loses
    // digits (c_k - c_j cancels): g is then taken at the pair of squares
    // m (1 +- kSpread) around their mean m, where it differs from g at the
    // true pair by O(kSpread^2) (g is smooth and even in their difference).
    constexpr double kSpread = 0x1p-17;  // about eps^(1/3): the two errors balance
    const double m = (s2[j] + s2[k]) / 2;
    double gNear = -1;
    if (std::abs(s2[j] - s2[k]) < 2 * kSpread * m) {
      const double hi = std::sqrt(m * (1 + kSpread)), lo = std::sqrt(m * (1 - kSpread));
      double t[3];
      t[i] = s[i];
      t[j] = hi;
      t[k] = lo;
      const double tabc = t[0] * t[1] * t[2];
      const double cj = lambCoefficient(tabc, hi * hi, lo * lo, t[i] * t[i]);
      const double ck = lambCoefficient(tabc, lo * lo, t[i] * t[i], hi * hi);
      gNear = (ck - cj) / (hi * hi - lo * lo);
    }
    out[(std::size_t(i) + 3)] = mass_kg / 5 * rotationOverFifth(s2, coefficient, gNear, i);
  }
  return out;
}

}  // namespace detail

bool AddedMass::isZero() const {
  return std::all_of(matrix.begin(), matrix.end(), [](double e) { return e == 0; });
}

AddedMass ellipsoidAddedMass(double a_m, double b_m, double c_m, double density_kgpm3) {
  const auto check = [](double value, const char* what) {
    if (value > 0 && std::isfinite(value)) return;
    std::ostringstream s;
    s << "keel::ellipsoidAddedMass: " << what << " is " << value << "; it must be positive and finite";
    throw std::invalid_argument(s.str());
  };
  check(a_m, "the semi-axis a along x [m]");
  check(b_m, "the semi-axis b along y [m]");
  check(c_m, "the semi-axis c along z [m]");
  check(density_kgpm3, "the density [kg/m^3]");
  const std::array<double, 6> diagonal = detail::ellipsoidDiagonal(a_m, b_m, c_m, density_kgpm3);
  AddedMass out;
  for (std::size_t i = 0; i < 6; ++i) out.matrix[7 * i] = diagonal[i];
  return out;
}

}  // namespace keel::KEEL_ABI
