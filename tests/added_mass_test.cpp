// The added-mass model (docs/model.md, "Added mass"): Lamb's ellipsoid
// against the test's own quadrature of his integrals and Newman's closed
// form for a spheroid, then the model on polyhedral hulls against the
// sphere's rho V / 2 and the floating hemisphere's infinite-frequency heave
// (Hulme, JFM 121, 1982), its symmetries, and its continuity.

#include <keel/added_mass.hpp>

#include "added_mass/added_mass.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>

namespace keel::test {
namespace {

constexpr double kRho = 1025;
constexpr double kPi = std::numbers::pi;

/// abc integral_0^inf dl / ((p + l)(q + l) Delta) (q = 0: one factor only)
/// by the trapezoid rule in s = log(l): the integrand, times l, is analytic
/// in a strip of half-width pi and falls exponentially at both ends, so the
/// rule converges geometrically (Trefethen and Weideman, SIAM Rev. 56, 2014).
double lambIntegral(double a, double b, double c, double p, double q = -1) {
  const double lo = std::log(std::min({a * a, b * b, c * c})) - 45, hi = std::log(std::max({a * a, b * b, c * c})) + 35;
  const double h = 0.02;
  double sum = 0;
  for (double s = lo; s <= hi; s += h) {
    const double l = std::exp(s);
    const double delta = std::sqrt((a * a + l) * (b * b + l) * (c * c + l));
    sum += l / ((p + l) * (q < 0 ? 1 : q + l) * delta);
  }
  return a * b * c * sum * h;
}

struct Lamb {
  std::array<double, 6> diagonal{};
  std::array<double, 3> coefficient{};
};

/// Lamb's added mass (§373) from the quadrature: translation rho V c_i /
/// (2 - c_i), rotation about i (rho V / 5) (s_j^2 - s_k^2)^2 (c_k - c_j) /
/// (2 (s_j^2 - s_k^2) + (s_j^2 + s_k^2)(c_j - c_k)), with c_k - c_j = (s_j^2
/// - s_k^2) abc integral dl / ((s_j^2 + l)(s_k^2 + l) Delta) as he writes it
/// (no difference of nearly equal coefficients near a round section).
Lamb lambByQuadrature(double a, double b, double c) {
  const double s2[3] = {a * a, b * b, c * c}, mass = kRho * 4.0 / 3 * kPi * a * b * c;
  Lamb out;
  for (int i = 0; i < 3; ++i) out.coefficient[i] = lambIntegral(a, b, c, s2[i]);
  for (int i = 0; i < 3; ++i) {
    const double ci = out.coefficient[i];
    out.diagonal[i] = mass * ci / (2 - ci);
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double d = s2[j] - s2[k], g = lambIntegral(a, b, c, s2[j], s2[k]);
    out.diagonal[3 + i] = mass / 5 * d * d * g / (2 - (s2[j] + s2[k]) * g);
  }
  return out;
}

void expectDiagonalOnly(const AddedMass& m) {
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c)
      if (r != c) {
        EXPECT_EQ(m(r, c), 0) << r << ", " << c;
      }
}

TEST(EllipsoidAddedMass, MatchesLambsIntegralsByQuadrature) {
  const double shapes[][3] = {{3, 1, 1},    {1, 3, 1},     {1, 1, 0.2},       {2, 1, 0.5},         {1, 0.3, 2},
                              {5, 4, 0.05}, {1, 1.001, 1}, {2, 1, 1.0000001}, {1e-3, 2e-3, 1.5e-3}};
  for (const auto& s : shapes) {
    const Lamb q = lambByQuadrature(s[0], s[1], s[2]);
    EXPECT_NEAR(q.coefficient[0] + q.coefficient[1] + q.coefficient[2], 2, 1e-13);  // Lamb's identity
    const AddedMass m = ellipsoidAddedMass(s[0], s[1], s[2], kRho);
    expectDiagonalOnly(m);
    for (int i = 0; i < 6; ++i) {
      // Within 2^-16 of a round section the library takes the rotation's
      // difference quotient across that spread (ellipsoid.cpp): O(2^-34).
      const double sj = s[(i + 1) % 3] * s[(i + 1) % 3], sk = s[(i + 2) % 3] * s[(i + 2) % 3];
      const double relative = i >= 3 && std::abs(sj - sk) < 0x1p-16 * (sj + sk) ? 2e-10 : 1e-12;
      EXPECT_NEAR(m(i, i), q.diagonal[i], relative * q.diagonal[i])
          << s[0] << " " << s[1] << " " << s[2] << " mode " << i;
    }
  }
}

TEST(EllipsoidAddedMass, SphereIsHalfItsDisplacedMassAndNoRotation) {
  const double r = 0.7, mass = kRho * 4.0 / 3 * kPi * r * r * r;
  const AddedMass m = ellipsoidAddedMass(r, r, r, kRho);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(m(i, i), mass / 2, 1e-15 * mass);
  for (int i = 3; i < 6; ++i) EXPECT_EQ(m(i, i), 0);
}

TEST(EllipsoidAddedMass, ProlateSpheroidMatchesNewmansClosedForm) {
  // Newman 1977, §4.13: a > b = c, e^2 = 1 - b^2 / a^2.
  for (const double ratio : {1.5, 2.0, 5.0, 10.0}) {
    const double a = ratio, b = 1, e = std::sqrt(1 - b * b / (a * a)), e2 = e * e;
    const double log = std::log((1 + e) / (1 - e));
    const double alpha = 2 * (1 - e2) / (e2 * e) * (log / 2 - e);
    const double beta = 1 / e2 - (1 - e2) / (2 * e2 * e) * log;
    const double mass = kRho * 4.0 / 3 * kPi * a * b * b;
    const double inertia = mass * (a * a + b * b) / 5;  // the spheroid's own, about y
    const double kRotation = e2 * e2 * (beta - alpha) / ((2 - e2) * (2 * e2 - (2 - e2) * (beta - alpha)));
    const AddedMass m = ellipsoidAddedMass(a, b, b, kRho);
    EXPECT_NEAR(m(0, 0), mass * alpha / (2 - alpha), 1e-12 * mass) << ratio;
    EXPECT_NEAR(m(1, 1), mass * beta / (2 - beta), 1e-12 * mass) << ratio;
    EXPECT_NEAR(m(2, 2), m(1, 1), 1e-13 * mass) << ratio;
    EXPECT_NEAR(m(3, 3), 0, 1e-12 * inertia) << ratio;  // about its axis of symmetry
    EXPECT_NEAR(m(4, 4), kRotation * inertia, 1e-11 * inertia) << ratio;
    EXPECT_NEAR(m(5, 5), m(4, 4), 1e-12 * inertia) << ratio;
  }
}

TEST(EllipsoidAddedMass, NearlyRoundIsContinuous) {
  // Through b = c the rotation about x goes to zero as (b - c)^2, no 0/0.
  double last = -1;
  for (double c = 1 - 1e-3; c <= 1 + 1e-3; c += 1e-5) {
    const double rotation = ellipsoidAddedMass(2, 1, c, kRho)(3, 3);
    ASSERT_TRUE(std::isfinite(rotation) && rotation >= 0) << c;
    const double d = 1 - c * c;  // (b^2 - c^2); rotation ~ k d^2
    EXPECT_LE(rotation, 2 * kRho * 8 * d * d + 1e-30) << c;
    if (last >= 0) {
      EXPECT_LT(std::abs(rotation - last), kRho * 1e-6) << c;
    }
    last = rotation;
  }
  EXPECT_EQ(ellipsoidAddedMass(2, 1, 1, kRho)(3, 3), 0);
}

TEST(EllipsoidAddedMass, RefusesBadInput) {
  for (const double bad : {0.0, -1.0, std::nan(""), HUGE_VAL}) {
    EXPECT_THROW((void)ellipsoidAddedMass(bad, 1, 1, kRho), std::invalid_argument);
    EXPECT_THROW((void)ellipsoidAddedMass(1, bad, 1, kRho), std::invalid_argument);
    EXPECT_THROW((void)ellipsoidAddedMass(1, 1, bad, kRho), std::invalid_argument);
    EXPECT_THROW((void)ellipsoidAddedMass(1, 1, 1, bad), std::invalid_argument);
  }
  EXPECT_FALSE(ellipsoidAddedMass(1, 1, 1, kRho).isZero());
  EXPECT_TRUE(AddedMass{}.isZero());
}

}  // namespace
}  // namespace keel::test
