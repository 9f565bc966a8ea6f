// Keel's own sin, cos, exp, expm1, log and pow (det_math.hpp says why and
// how). Each step here has its twin in det_math-inl.hpp, in the same order.

#include "math/det_math.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace keel::KEEL_ABI::detail::det {
namespace {

/// p[0] + z (p[1] + z (p[2] + ...)) by Horner's rule.
template <std::size_t N>
[[nodiscard]] double horner(const std::array<double, N>& p, double z) {
  double sum = p[N - 1];
  for (std::size_t k = N - 1; k-- > 0;) sum = sum * z + p[k];
  return sum;
}

/// 2^k for an integer-valued k in [-1022, 1023]: its biased exponent in
/// place, from the low bits of k + kRoundMagic.
[[nodiscard]] double pow2(double k) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(k + kRoundMagic);
  return std::bit_cast<double>((bits + 1023) << 52);
}

/// e^r - 1 for |r| <= ln 2 / 2.
[[nodiscard]] double expm1Reduced(double r) { return r + (r * r) * horner(kExpTaylor, r); }

/// x = n ln 2 + r: n, and r = e^x / 2^n - 1 computed.
struct ExpReduced {
  double n, expm1r;
};
[[nodiscard]] ExpReduced reduceExp(double x) {
  const double n = (x * kInverseLn2 + kRoundMagic) - kRoundMagic;
  const double r = (x - n * kLn2High) - n * kLn2Low;
  return {n, expm1Reduced(r)};
}

}  // namespace

SinCos sinCos(double x_rad) {
  // Past the largest phase: that of 0 (NaN for infinities).
  const double x = std::abs(x_rad) > kSinCosLargest_rad ? x_rad * 0.0 : x_rad;
  const double shifted = x * kTwoOverPi + kRoundMagic;
  const std::uint64_t quadrant = std::bit_cast<std::uint64_t>(shifted);
  const double n = shifted - kRoundMagic;
  double r = x - n * kHalfPi[0];
  r = r - n * kHalfPi[1];
  r = r - n * kHalfPi[2];
  const double z = r * r;
  const double s = r + (r * z) * horner(kSinPoly, z);
  const double c = 1.0 + z * horner(kCosPoly, z);
  // Quadrant q: sin x = (s, c, -s, -c)[q], cos x = (c, -s, -c, s)[q]: the
  // sign from bit 1 of q (of q + 1 for cos) moved to the sign bit.
  const bool odd = (quadrant & 1) != 0;
  const double sine = odd ? c : s, cosine = odd ? s : c;
  const auto flip = [](double v, std::uint64_t q) {
    return std::bit_cast<double>(std::bit_cast<std::uint64_t>(v) ^ ((q << 62) & kSignBit));
  };
  return {flip(sine, quadrant), flip(cosine, quadrant + 1)};
}

double exp(double x) {
  const double clamped = x > kExpHighest ? kExpHighest : (x < kExpLowest ? kExpLowest : x);
  const ExpReduced e = reduceExp(clamped);
  // 2^n in two factors: n reaches 1024 and -1075, beyond one double's exponent.
  const double half = (e.n * 0.5 + kRoundMagic) - kRoundMagic;
  const double result = ((1.0 + e.expm1r) * pow2(half)) * pow2(e.n - half);
  return x > kExpHighest ? std::numeric_limits<double>::infinity() : (x < kExpLowest ? 0.0 : result);
}

double expm1(double x) {
  // e^x - 1 = (2^n - 1) + 2^n (e^r - 1): 2^n - 1 is exact for the n here.
  const double clamped = x > kExpHighest ? kExpHighest : (x < kExpm1Lowest ? kExpm1Lowest : x);
  const ExpReduced e = reduceExp(clamped);
  const double scale = pow2(e.n > 1023 ? 1023.0 : e.n);
  const double reduced = (scale - 1.0) + scale * e.expm1r;
  const double result = std::abs(x) <= kHalfLn2 ? expm1Reduced(x) : reduced;
  return x > 709.0 ? exp(x) - 1.0 : (x < kExpm1Lowest ? -1.0 : result);
}

double log(double x) {
  // Subnormals scaled into the normal range first.
  const bool tiny = x < 0x1p-1022;
  const double scaled = tiny ? x * 0x1p54 : x;
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(scaled);
  const double biased = std::bit_cast<double>((bits >> 52) | std::bit_cast<std::uint64_t>(0x1p52)) - 0x1p52;  // exact
  double m = std::bit_cast<double>((bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);                   // [1, 2)
  const bool high = m > kSqrt2;
  m = high ? m * 0.5 : m;
  const double e = (biased - 1023.0) + (high ? 1.0 : 0.0) - (tiny ? 54.0 : 0.0);
  const double s = (m - 1.0) / (m + 1.0), z = s * s;
  const double logM = 2.0 * s + (2.0 * s * z) * horner(kLogSeries, z);
  const double result = e * kLn2High + (logM + e * kLn2Low);
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (!(x >= 0)) return std::numeric_limits<double>::quiet_NaN();
  return x == std::numeric_limits<double>::infinity() ? x : result;
}

double pow(double x, double y) {
  if (y == 0) return 1;
  return x == 0 && y > 0 ? 0.0 : exp(y * log(x));
}

double atan2(double y, double x) {
  const double a = std::abs(y), b = std::abs(x);
  const bool swap = a > b;
  const double t = a == 0 && b == 0 ? 0.0 : (swap ? b / a : a / b);  // [0, 1]
  const bool high = t > kTanPiOver8;
  const double u = high ? (t - 1.0) / (t + 1.0) : t;
  const double v = u / (1.0 + std::sqrt(1.0 + u * u));
  const double z = v * v;
  const double twice = 2.0 * (v + (v * z) * horner(kAtanSeries, z));
  // Angles built from pi's pieces: each high part is exact in the sums here
  // up to the last rounding.
  double angle = high ? 0.25 * kPiHigh + (0.25 * kPiLow + twice) : twice;
  angle = swap ? (0.5 * kPiHigh - angle) + 0.5 * kPiLow : angle;
  angle = std::signbit(x) ? (kPiHigh - angle) + kPiLow : angle;
  return std::copysign(angle, y);
}

double hypot(double x, double y) { return std::sqrt(x * x + y * y); }

}  // namespace keel::KEEL_ABI::detail::det
