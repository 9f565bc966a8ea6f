// Internal to Keel: det_math.hpp's sin, cos, exp, expm1 and log on Highway
// vectors of doubles, each lane the bits of the scalar function: the same
// operations in the same order (det_math.cpp), no fused multiply-add, no
// table, nothing that depends on the vector's width.
//
// Included once per instruction set by each SIMD source, after
// hwy/foreach_target.h (Highway's per-target include guard below), and after
// water/fp_contract_off.hpp, which the source includes first.

#include <hwy/highway.h>

#include "math/det_math.hpp"

#include <cstdint>
#include <limits>

#if defined(KEEL_MATH_DET_MATH_INL_HPP_) == defined(HWY_TARGET_TOGGLE)
#ifdef KEEL_MATH_DET_MATH_INL_HPP_
#undef KEEL_MATH_DET_MATH_INL_HPP_
#else
#define KEEL_MATH_DET_MATH_INL_HPP_
#endif

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail::HWY_NAMESPACE {
namespace det_simd {

namespace hn = hwy::HWY_NAMESPACE;

/// p[0] + z (p[1] + z (p[2] + ...)) by Horner's rule, det_math.cpp's horner.
template <class D, std::size_t N, class V = hn::Vec<D>>
HWY_INLINE V horner(D d, const std::array<double, N>& p, V z) {
  V sum = hn::Set(d, p[N - 1]);
  for (std::size_t k = N - 1; k-- > 0;) sum = hn::Add(hn::Mul(sum, z), hn::Set(d, p[k]));
  return sum;
}

/// x rounded to an integer (ties to even) for |x| < 2^51, as x + magic - magic.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V roundToInteger(D d, V x) {
  return hn::Sub(hn::Add(x, hn::Set(d, det::kRoundMagic)), hn::Set(d, det::kRoundMagic));
}

/// 2^k for integer-valued lanes k in [-1022, 1023].
template <class D, class V = hn::Vec<D>>
HWY_INLINE V pow2(D d, V k) {
  const hn::RebindToUnsigned<D> du;
  const auto bits = hn::BitCast(du, hn::Add(k, hn::Set(d, det::kRoundMagic)));
  return hn::BitCast(d, hn::ShiftLeft<52>(hn::Add(bits, hn::Set(du, std::uint64_t{1023}))));
}

/// e^r - 1 for |r| <= ln 2 / 2.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V expm1Reduced(D d, V r) {
  return hn::Add(r, hn::Mul(hn::Mul(r, r), horner(d, det::kExpTaylor, r)));
}

/// Lanes clamped to [lo, hi] by comparison (NaN lanes stay NaN, as in the
/// scalar code; Min and Max treat NaN differently per instruction set).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V clamp(D d, V x, double lo, double hi) {
  const V high = hn::IfThenElse(hn::Gt(x, hn::Set(d, hi)), hn::Set(d, hi), x);
  return hn::IfThenElse(hn::Lt(x, hn::Set(d, lo)), hn::Set(d, lo), high);
}

template <class V>
struct SinCosV {
  V sine, cosine;
};

/// det::sinCos in every lane.
template <class D, class V = hn::Vec<D>>
HWY_INLINE SinCosV<V> SinCos(D d, V xRad) {
  const hn::RebindToUnsigned<D> du;
  const auto huge = hn::Gt(hn::Abs(xRad), hn::Set(d, det::kSinCosLargest_rad));
  const V x = hn::IfThenElse(huge, hn::Mul(xRad, hn::Zero(d)), xRad);
  const V shifted = hn::Add(hn::Mul(x, hn::Set(d, det::kTwoOverPi)), hn::Set(d, det::kRoundMagic));
  const auto quadrant = hn::BitCast(du, shifted);
  const V n = hn::Sub(shifted, hn::Set(d, det::kRoundMagic));
  V r = hn::Sub(x, hn::Mul(n, hn::Set(d, det::kHalfPi[0])));
  r = hn::Sub(r, hn::Mul(n, hn::Set(d, det::kHalfPi[1])));
  r = hn::Sub(r, hn::Mul(n, hn::Set(d, det::kHalfPi[2])));
  const V z = hn::Mul(r, r);
  const V s = hn::Add(r, hn::Mul(hn::Mul(r, z), horner(d, det::kSinPoly, z)));
  const V c = hn::Add(hn::Set(d, 1.0), hn::Mul(z, horner(d, det::kCosPoly, z)));
  const auto one = hn::Set(du, std::uint64_t{1});
  const auto odd = hn::RebindMask(d, hn::Ne(hn::And(quadrant, one), hn::Zero(du)));
  const V sine = hn::IfThenElse(odd, c, s), cosine = hn::IfThenElse(odd, s, c);
  const auto sign = hn::Set(du, det::kSignBit);
  const auto flip = [&](V v, auto q) {
    return hn::BitCast(d, hn::Xor(hn::BitCast(du, v), hn::And(hn::ShiftLeft<62>(q), sign)));
  };
  return {flip(sine, quadrant), flip(cosine, hn::Add(quadrant, one))};
}

/// det::exp in every lane.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Exp(D d, V x) {
  const V clamped = clamp(d, x, det::kExpLowest, det::kExpHighest);
  const V n = roundToInteger(d, hn::Mul(clamped, hn::Set(d, det::kInverseLn2)));
  const V r = hn::Sub(hn::Sub(clamped, hn::Mul(n, hn::Set(d, det::kLn2High))), hn::Mul(n, hn::Set(d, det::kLn2Low)));
  const V half = roundToInteger(d, hn::Mul(n, hn::Set(d, 0.5)));
  const V result = hn::Mul(hn::Mul(hn::Add(hn::Set(d, 1.0), expm1Reduced(d, r)), pow2(d, half)),
                           pow2(d, hn::Sub(n, half)));
  const V high = hn::IfThenElse(hn::Gt(x, hn::Set(d, det::kExpHighest)),
                                hn::Set(d, std::numeric_limits<double>::infinity()), result);
  return hn::IfThenElse(hn::Lt(x, hn::Set(d, det::kExpLowest)), hn::Zero(d), high);
}

/// det::expm1 in every lane.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Expm1(D d, V x) {
  const V clamped = clamp(d, x, det::kExpm1Lowest, det::kExpHighest);
  const V n = roundToInteger(d, hn::Mul(clamped, hn::Set(d, det::kInverseLn2)));
  const V r = hn::Sub(hn::Sub(clamped, hn::Mul(n, hn::Set(d, det::kLn2High))), hn::Mul(n, hn::Set(d, det::kLn2Low)));
  const V top = hn::Set(d, 1023.0);
  const V scale = pow2(d, hn::IfThenElse(hn::Gt(n, top), top, n));
  const V reduced = hn::Add(hn::Sub(scale, hn::Set(d, 1.0)), hn::Mul(scale, expm1Reduced(d, r)));
  const V result = hn::IfThenElse(hn::Le(hn::Abs(x), hn::Set(d, det::kHalfLn2)), expm1Reduced(d, x), reduced);
  const V high = hn::IfThenElse(hn::Gt(x, hn::Set(d, 709.0)), hn::Sub(Exp(d, x), hn::Set(d, 1.0)), result);
  return hn::IfThenElse(hn::Lt(x, hn::Set(d, det::kExpm1Lowest)), hn::Set(d, -1.0), high);
}

/// det::log in every lane.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Log(D d, V x) {
  const hn::RebindToUnsigned<D> du;
  const auto tiny = hn::Lt(x, hn::Set(d, 0x1p-1022));
  const V scaled = hn::IfThenElse(tiny, hn::Mul(x, hn::Set(d, 0x1p54)), x);
  const auto bits = hn::BitCast(du, scaled);
  const V biased = hn::Sub(hn::BitCast(d, hn::Or(hn::ShiftRight<52>(bits), hn::BitCast(du, hn::Set(d, 0x1p52)))),
                           hn::Set(d, 0x1p52));
  V m = hn::BitCast(d, hn::Or(hn::And(bits, hn::Set(du, std::uint64_t{0x000fffffffffffff})),
                              hn::Set(du, std::uint64_t{0x3ff0000000000000})));
  const auto high = hn::Gt(m, hn::Set(d, det::kSqrt2));
  m = hn::IfThenElse(high, hn::Mul(m, hn::Set(d, 0.5)), m);
  const V e = hn::Sub(hn::Add(hn::Sub(biased, hn::Set(d, 1023.0)), hn::IfThenElseZero(high, hn::Set(d, 1.0))),
                      hn::IfThenElseZero(tiny, hn::Set(d, 54.0)));
  const V one = hn::Set(d, 1.0), two = hn::Set(d, 2.0);
  const V s = hn::Div(hn::Sub(m, one), hn::Add(m, one)), z = hn::Mul(s, s);
  const V logM = hn::Add(hn::Mul(two, s), hn::Mul(hn::Mul(hn::Mul(two, s), z), horner(d, det::kLogSeries, z)));
  V result = hn::Add(hn::Mul(e, hn::Set(d, det::kLn2High)), hn::Add(logM, hn::Mul(e, hn::Set(d, det::kLn2Low))));
  const V inf = hn::Set(d, std::numeric_limits<double>::infinity());
  result = hn::IfThenElse(hn::Eq(x, inf), x, result);
  result = hn::IfThenElse(hn::Not(hn::Ge(x, hn::Zero(d))), hn::Set(d, std::numeric_limits<double>::quiet_NaN()),
                          result);
  return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), hn::Neg(inf), result);
}

}  // namespace det_simd
}  // namespace keel::KEEL_ABI::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // KEEL_MATH_DET_MATH_INL_HPP_
