// The column kernel (column_soa.hpp), one copy per instruction set
// (kernels/simd-inl.hpp): each column's immersed length, volume and centre
// from its centroid's height above the water (docs/columns.md, "Buoyancy").

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "columns/column_kernel.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "columns/column_soa.hpp"
#include "kernels/simd-inl.hpp"

#include <algorithm>
#include <cmath>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// The wet length of a column section that starts at a ramp of half-width
/// r about its mean bottom, for water x above that mean: 0 below the ramp,
/// (x + r)^2 / 4r on it, x above (continuous, with its slope). `inverse`
/// is 1 / 4r, or 0 when r is 0 (a flat bottom: max(x, 0)).
HWY_INLINE V ramp(D d, V x, V r, V inverse) {
  const V on = hn::Min(hn::Max(x, hn::Neg(r)), r);
  const V part = hn::Add(on, r);
  return mulAdd(hn::Mul(part, part), inverse, hn::Max(hn::Sub(x, on), hn::Zero(d)));
}

/// The columns' ends along the axis as the water sees it, bottom first.
/// Upside down (the axis points into the water), the wet part is the
/// column's top: the same formula on the axis reversed (lo and hi swap and
/// change sign, `sign` -1).
struct UpwardEnds {
  T sign;
  const T *lo, *hi, *loRamp, *hiRamp, *loRampInverse, *hiRampInverse;
};

HWY_INLINE UpwardEnds upwardEnds(const ColumnSoA& c, T axisUp) {
  const bool flip = axisUp < 0;
  UpwardEnds e;
  e.sign = flip ? T(-1) : T(1);
  e.lo = (flip ? c.hi : c.lo).data();
  e.hi = (flip ? c.lo : c.hi).data();
  e.loRamp = (flip ? c.hiRamp : c.loRamp).data();
  e.hiRamp = (flip ? c.loRamp : c.hiRamp).data();
  e.loRampInverse = (flip ? c.hiRampInverse : c.loRampInverse).data();
  e.hiRampInverse = (flip ? c.loRampInverse : c.hiRampInverse).data();
  return e;
}

/// The kernel's pass with or without the columns' sloped ends (a hull of
/// flat bottoms and decks has none, and skips their cost): its factors, and
/// its sums and extremes so far.
template <bool kRamps>
struct ColumnPass {
  const ColumnSoA& c;
  const T *h_m, *water_m;
  T* fraction;
  UpwardEnds e;
  std::size_t n;  ///< the real columns; past them, padding
  V inverseSlope, vSign, vSlope, inverseExcursion, cellMoment;
  Sum sv, sx, sy, sz, sa, sd, st, sw;
  V lowest, least;

  HWY_INLINE ColumnPass(const ColumnSoA& columns, const T* h, const T* water, const ColumnParameters& p, T* f)
      : c(columns),
        h_m(h),
        water_m(water),
        fraction(f),
        e(upwardEnds(columns, p.axisUp)),
        n(columns.points.vertexCount) {
    const D d;
    // On its side the axis meets the water far away: the column is wholly
    // wet or dry, a step (docs/columns.md, "Limits").
    const T slope = std::max(std::abs(p.axisUp), T(1e-6));
    inverseSlope = hn::Set(d, T(1) / slope), vSign = hn::Set(d, e.sign), vSlope = hn::Set(d, slope);
    inverseExcursion = hn::Set(d, p.inverseExcursion_pm), cellMoment = hn::Set(d, c.cell_m * c.cell_m / 12);
    lowest = hn::Set(d, BT_LARGE_FLOAT), least = hn::Set(d, T(1));
  }

  /// Columns i..., the vector at place k of its block of kSlots (its
  /// partial sums'). `kMasked`: some of its lanes may be padding, which
  /// adds no volume whatever its height (the others' lanes are all real).
  template <bool kMasked>
  HWY_INLINE void add(std::size_t i, std::size_t k) {
    const D d;
    const V zero = hn::Zero(d), half = hn::Set(d, T(0.5)), one = hn::Set(d, T(1));
    [[maybe_unused]] const M real = hn::FirstN(d, kMasked ? n - std::min(i, n) : hn::Lanes(d));
    const auto onlyReal = [&](V x) {
      if constexpr (kMasked) return hn::IfThenElseZero(real, x);
      return x;
    };
    const auto realOr = [&](V x, V other) {
      if constexpr (kMasked) return hn::IfThenElse(real, x, other);
      return x;
    };
    const V lo = hn::Mul(vSign, hn::LoadU(d, e.lo + i)), hi = hn::Mul(vSign, hn::LoadU(d, e.hi + i));
    const V h = hn::LoadU(d, h_m + i);
    const V length = hn::Sub(hi, lo);
    // The water crosses the axis at -h / slope from the centroid; the wet
    // length from the bottom, continuous in the water height.
    const V surface = hn::Mul(hn::Neg(h), inverseSlope);
    const V above = hn::Sub(surface, lo);  // the water above the column's mean bottom
    V wet = hn::Min(hn::Max(above, zero), length);
    if constexpr (kRamps) {
      const V hiRamp = hn::LoadU(d, e.hiRamp + i);
      const V ramps = hn::Sub(ramp(d, above, hn::LoadU(d, e.loRamp + i), hn::LoadU(d, e.loRampInverse + i)),
                              ramp(d, hn::Sub(above, length), hiRamp, hn::LoadU(d, e.hiRampInverse + i)));
      // Past the top's ramp the column is full: its length exactly.
      wet = hn::IfThenElse(hn::Ge(above, hn::Add(length, hiRamp)), length, hn::Min(hn::Max(ramps, zero), length));
    }
    // (A full column's fraction is 1 exactly, whatever 1 / length rounds to.)
    const V f = hn::IfThenElse(hn::Ge(wet, length), one, hn::Mul(wet, hn::LoadU(d, c.inverseLength.data() + i)));
    hn::StoreU(f, d, fraction + i);
    const V area = hn::LoadU(d, c.area.data() + i);
    const V volume = onlyReal(hn::Mul(area, wet));
    // The wet part's centre along the axis: its middle, moved towards the
    // column's centroid as it fills, so that a full column acts at its
    // exact centroid: lo + wet / 2 - f (lo + hi) / 2.
    const V centre = negMulAdd(hn::Mul(f, half), hn::Add(lo, hi), mulAdd(wet, half, lo));
    sv.add(k, volume);
    sx.addProduct(k, volume, hn::LoadU(d, c.points.x.data() + i));
    sy.addProduct(k, volume, hn::LoadU(d, c.points.y.data() + i));
    sz.addProduct(k, volume, hn::LoadU(d, c.points.z.data() + i));
    sa.addProduct(k, volume, centre);
    sd.addProduct(k, volume, wet);
    // Tilted, the wet length varies linearly across the footprint: the
    // wet part's centre moves off the axis by its second moment (exact
    // while the water crosses only the column's sides; the weight falls to
    // 0 as it reaches the bottom or top, keeping it continuous).
    const V margin = hn::Min(wet, hn::Sub(length, wet));
    const V weight = hn::Min(hn::Mul(margin, inverseExcursion), one);
    st.addProduct(k, onlyReal(hn::Mul(area, cellMoment)), weight);
    const V bottom = kRamps ? hn::Sub(lo, hn::LoadU(d, e.loRamp + i)) : lo;  // the lowest point of the column
    lowest = hn::Min(lowest, realOr(mulAdd(bottom, vSlope, h), lowest));
    least = hn::Min(least, realOr(f, least));
    sw.add(k, onlyReal(hn::LoadU(d, water_m + i)));
  }

  [[nodiscard]] HWY_INLINE ColumnSums sums() const {
    const D d;
    ColumnSums out;
    out.volume_m3 = sv.total();
    out.moment_m4[0] = sx.total();
    out.moment_m4[1] = sy.total();
    out.moment_m4[2] = sz.total();
    out.along_m4 = double(e.sign) * sa.total();
    out.volumeDepth_m4 = sd.total();
    out.tiltMoment_m4 = st.total();
    out.lowestAbove_m = leastLane(d, lowest);
    out.leastFraction = leastLane(d, least);
    out.waterHeight_m = sw.total();
    return out;
  }
};

/// The columns a block of kSlots at a time (the padding fills whole
/// blocks), each vector of a block in turn: a vector's partial sums,
/// SlotSum::at its place k in the block, are then the same registers every
/// block, not memory. The blocks of real columns alone need no mask. A
/// vector past the last real column holds only padding, which adds nothing
/// to a sum (SlotSum) nor to an extreme: skipped, its fractions (never
/// read: columnImmersion stops at the real columns) left unwritten.
template <bool kRamps>
ColumnSums ColumnKernelOf(const ColumnSoA& c, const T* h_m, const T* water_m, const ColumnParameters p, T* fraction) {
  ColumnPass<kRamps> pass(c, h_m, water_m, p, fraction);
  const std::size_t lanes = hn::Lanes(D()), n = c.points.vertexCount, real = n / kSlots * kSlots;
  for (std::size_t block = 0; block < real; block += kSlots)
#pragma GCC unroll 16
    for (std::size_t k = 0; k < kSlots; k += lanes) pass.template add<false>(block + k, k);
  for (std::size_t block = real; block < n; block += kSlots)
#pragma GCC unroll 16
    for (std::size_t k = 0; k < kSlots; k += lanes)
      if (block + k < n) pass.template add<true>(block + k, k);
  return pass.sums();
}

ColumnSums ColumnKernel(const ColumnSoA& c, const T* h_m, const T* water_m, const ColumnParameters p, T* fraction) {
  return c.ramps ? ColumnKernelOf<true>(c, h_m, water_m, p, fraction)
                 : ColumnKernelOf<false>(c, h_m, water_m, p, fraction);
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(ColumnKernel);

ColumnSums columnSums(const ColumnSoA& c, const btScalar* h_m, const btScalar* water_m, const ColumnParameters& p,
                      btScalar* fraction) {
  return HWY_DYNAMIC_DISPATCH(ColumnKernel)(c, h_m, water_m, p, fraction);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
