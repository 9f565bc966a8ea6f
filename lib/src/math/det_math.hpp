#pragma once
// Internal to Keel: sin, cos, exp, expm1, log and pow of doubles with the
// same bits on every CPU and every instruction set. glibc picks FMA variants
// of sin, cos and exp at run time (docs/determinism.md), and Highway's Sin,
// Cos and Exp fuse their multiply-adds on AVX2 and AVX-512 only, so neither
// may compute a number a substep or a water surface depends on.
//
// Only correctly rounded IEEE operations (+, -, *, /), exact bit
// manipulation and comparisons: the results are the same on any IEEE 754
// machine, compiled without contraction (the library's -ffp-contract=off).
// det_math-inl.hpp does the same operations, in the same order, on Highway
// vectors, so that a lane gives the bits of the scalar function here.
//
// Method: Cody & Waite's additive range reduction (W. J. Cody and W. Waite,
// "Software Manual for the Elementary Functions", Prentice-Hall, 1980,
// ch. 4 and 8): x = n c + r with the constant c (pi/2 or ln 2) split into
// pieces whose products with n are exact; then polynomials of the reduced
// argument evaluated by Horner's rule: for sin and cos, Chebyshev
// approximations on the reduced interval (near-minimax: Press et al.,
// "Numerical Recipes", 3rd ed., 2007, §5.8; fitted in 50-digit arithmetic
// with mpmath's chebyfit, error below an eighth of an ulp), for exp and log
// Taylor series (Abramowitz & Stegun 4.2.1, 4.1.28) with as many terms as
// make the truncation error below a tenth of an ulp. log reduces to a mantissa in
// [sqrt(1/2), sqrt(2)) and sums the series of 2 atanh((m - 1) / (m + 1))
// (A&S 4.1.28). tests/det_math_test.cpp measures the error against long
// double (docs/determinism.md lists it).

#include <keel/config.hpp>

#include <array>
#include <cstddef>
#include <cstdint>

namespace keel::KEEL_ABI::detail::det {

/// x + kRoundMagic - kRoundMagic is x rounded to the nearest integer, ties
/// to even, for |x| < 2^51; the low bits of x + kRoundMagic hold that
/// integer in two's complement.
inline constexpr double kRoundMagic = 0x1.8p52;

/// 2 / pi, and pi / 2 as three pieces: the first two of 24 bits, so that
/// their products with a quadrant count n below 2^29 are exact; the third
/// carries the rest to double's precision (their sum is pi / 2 within
/// 1e-31, which n below 2^29 makes 5e-23 rad at most).
inline constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
inline constexpr std::array<double, 3> kHalfPi = {0x1.921fb6p+0, -0x1.777a5cp-25, -0x1.ee59d9cceba40p-50};
/// |x| [rad] up to which the quadrant count stays below 2^29 and the
/// reduction is exact but for the last piece's rounding: sin and cos are
/// within a few ulp there (a phase of omega t reaches it only after 1e6 s
/// at omega = 840 rad/s). Beyond it the reduced argument's error grows
/// like the spacing of doubles at x, as does x's own.
inline constexpr double kSinCosAccurate_rad = 8.4e8;
/// Beyond this |x| [rad] the spacing of doubles exceeds 0.1 rad, the phase
/// carries no information and the reduction would fail: sin and cos are
/// those of 0 (infinities still give NaN).
inline constexpr double kSinCosLargest_rad = 0x1p50;

/// sin r = r + r^3 sum_k kSinPoly[k] r^{2k}, |r| <= pi/4, to r^13: the
/// Chebyshev approximation of (sin r - r) / r^3 in r^2 on [0, (pi/4)^2],
/// within 2e-17 of it (1.3e-17 of sin r, an eighth of an ulp at pi/4).
inline constexpr std::array<double, 6> kSinPoly = {-0x1.5555555555555p-3,  0x1.1111111110bb2p-7,
                                                   -0x1.a01a019e83aaep-13, 0x1.71de37968a100p-19,
                                                   -0x1.ae600b02b6262p-26, 0x1.5e0b19f8b1451p-33};
/// cos r = 1 + r^2 sum_k kCosPoly[k] r^{2k}, to r^14: the Chebyshev
/// approximation of (cos r - 1) / r^2 in r^2, within 2e-19 of it.
inline constexpr std::array<double, 7> kCosPoly = {
    -0x1.0000000000000p-1,  0x1.5555555555551p-5,  -0x1.6c16c16c15d79p-10, 0x1.a01a019de131fp-16,
    -0x1.27e4f8e4a2e74p-22, 0x1.1eea7f259b344p-29, -0x1.8ff9d439a204ap-37};
/// The sign bit of a double.
inline constexpr std::uint64_t kSignBit = 0x8000000000000000ULL;

/// ln 2 as two pieces, the first of 32 bits (exact products with n < 2^21).
inline constexpr double kLn2High = 0x1.62e42ffp-1, kLn2Low = -0x1.718432a1b0e26p-35;
inline constexpr double kInverseLn2 = 0x1.71547652b82fep+0;
/// e^r - 1 = r + r^2 sum_k kExpTaylor[k] r^k, |r| <= ln 2 / 2: 1 / (k + 2)!
/// to r^13 (the next term is below 5e-18 of the result).
inline constexpr std::array<double, 12> kExpTaylor = {1.0 / 2,       1.0 / 6,        1.0 / 24,        1.0 / 120,
                                                      1.0 / 720,     1.0 / 5040,     1.0 / 40320,     1.0 / 362880,
                                                      1.0 / 3628800, 1.0 / 39916800, 1.0 / 479001600, 1.0 / 6227020800};
/// e^x overflows above this and is 0 below kExpLowest (half the smallest
/// subnormal).
inline constexpr double kExpHighest = 709.782712893384, kExpLowest = -745.1332191019412;
/// expm1 takes its polynomial directly for |x| <= ln 2 / 2; it is -1 below
/// kExpm1Lowest (e^x below half an ulp of 1).
inline constexpr double kHalfLn2 = 0.34657359027997264, kExpm1Lowest = -40;

/// log m = 2 s + 2 s^3 sum_k kLogSeries[k] s^{2k}, s = (m - 1) / (m + 1),
/// |s| <= 0.1716: 1 / (2k + 3) to s^23 (the next term is below 1e-19).
inline constexpr std::array<double, 11> kLogSeries = {1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,  1.0 / 11, 1.0 / 13,
                                                      1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21, 1.0 / 23};
inline constexpr double kSqrt2 = 0x1.6a09e667f3bcdp+0;

/// atan v = v + v^3 sum_k kAtanSeries[k] v^{2k}, |v| <= tan(pi/16) = 0.199:
/// (-1)^{k+1} / (2k + 3) to v^25 (A&S 4.4.42; the next term is below 1e-19
/// of the result). atan2 reaches it from [0, 1] by atan t = pi/4 +
/// atan((t - 1) / (t + 1)) above tan(pi/8) and the halving
/// atan u = 2 atan(u / (1 + sqrt(1 + u^2))) (A&S 4.4.34, 4.4.42).
inline constexpr std::array<double, 12> kAtanSeries = {-1.0 / 3,  1.0 / 5,  -1.0 / 7,  1.0 / 9,  -1.0 / 11, 1.0 / 13,
                                                       -1.0 / 15, 1.0 / 17, -1.0 / 19, 1.0 / 21, -1.0 / 23, 1.0 / 25};
inline constexpr double kTanPiOver8 = 0x1.a827999fcef32p-2;
/// pi, pi/2 and pi/4 as a double and the rest.
inline constexpr double kPiHigh = 0x1.921fb54442d18p+1, kPiLow = 0x1.1a62633145c07p-53;

/// sin and cos of one angle.
struct SinCos {
  double sine, cosine;
};

/// sin and cos of x [rad] (see kSinCosAccurate_rad for the range).
[[nodiscard]] SinCos sinCos(double x_rad);
[[nodiscard]] inline double sin(double x_rad) { return sinCos(x_rad).sine; }
[[nodiscard]] inline double cos(double x_rad) { return sinCos(x_rad).cosine; }
/// e^x.
[[nodiscard]] double exp(double x);
/// e^x - 1, accurate near 0.
[[nodiscard]] double expm1(double x);
/// Natural logarithm: -inf at 0, NaN below.
[[nodiscard]] double log(double x);
/// x^y = e^{y log x} for x > 0 (1 for y = 0, 0 at x = 0 with y > 0): its error grows
/// with |y log x| as that of any such power.
[[nodiscard]] double pow(double x, double y);
/// The angle of (x, y) in [-pi, pi] [rad] for finite x and y (0 at the
/// origin), within a few ulp.
[[nodiscard]] double atan2(double y, double x);
/// sqrt(x^2 + y^2) without the library's hypot (for values far from
/// overflow and underflow, such as wavenumbers).
[[nodiscard]] double hypot(double x, double y);

}  // namespace keel::KEEL_ABI::detail::det
