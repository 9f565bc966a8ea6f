// The floodwater's volume kernel (volume.hpp), one copy per instruction set
// (simd-inl.hpp): double lanes, as the volume is the small difference of
// pyramids that cancel over a closed surface.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/volume.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/simd-inl.hpp"
#include "kernels/volume.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

void PyramidKernel(const PieceRange* ranges, std::size_t count, const double* o, const double* up, PyramidSums& sums) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<T, decltype(dd)> dt;  // btScalar lanes, as many as the doubles
  using VD = hn::Vec<decltype(dd)>;
#if defined(BT_USE_DOUBLE_PRECISION)
  auto load = [&](const T* x, std::size_t i) { return hn::LoadU(dt, x + i); };
#else
  auto load = [&](const T* x, std::size_t i) { return hn::PromoteTo(dd, hn::LoadU(dt, x + i)); };
#endif
  const VD ox = hn::Set(dd, o[0]), oy = hn::Set(dd, o[1]), oz = hn::Set(dd, o[2]);
  const VD ux = hn::Set(dd, up[0]), uy = hn::Set(dd, up[1]), uz = hn::Set(dd, up[2]), three = hn::Set(dd, 3.0);
  // Partial sums (SlotSum) by a piece's place in its range, carried from
  // range to range.
  SlotSum<decltype(dd)> volume, mx, my, mz, section, sx, sy, sz;
  for (const PieceRange* r = ranges; r != ranges + count; ++r) {
    const PieceStream& p = *r->stream;
    const std::size_t begin = r->begin, end = r->end;
    for (std::size_t i = begin; i < end; i += hn::Lanes(dd)) {
      // The lanes past `end` and the pieces of weight 0 add zeros (masked, so
      // whatever lies past `end` cannot add a NaN).
      const VD weight = load(p.weight, i);
      const auto m = hn::And(hn::FirstN(dd, end - i), hn::Ne(weight, hn::Zero(dd)));
      const VD Sx = hn::IfThenElseZero(m, hn::Mul(weight, load(p.sx, i)));
      const VD Sy = hn::IfThenElseZero(m, hn::Mul(weight, load(p.sy, i)));
      const VD Sz = hn::IfThenElseZero(m, hn::Mul(weight, load(p.sz, i)));
      const VD gx = hn::IfThenElseZero(m, load(p.gx, i)), gy = hn::IfThenElseZero(m, load(p.gy, i)),
               gz = hn::IfThenElseZero(m, load(p.gz, i));
      const VD v3 = mulAdd(Sx, hn::Sub(gx, ox), mulAdd(Sy, hn::Sub(gy, oy), hn::Mul(Sz, hn::Sub(gz, oz))));
      const VD sUp = mulAdd(Sx, ux, mulAdd(Sy, uy, hn::Mul(Sz, uz)));
      const std::size_t at = i - begin;
      volume.add(at, v3);
      mx.addProduct(at, v3, mulAdd(three, gx, ox));
      my.addProduct(at, v3, mulAdd(three, gy, oy));
      mz.addProduct(at, v3, mulAdd(three, gz, oz));
      const VD down = hn::Neg(sUp);
      section.add(at, down);
      sx.addProduct(at, down, gx), sy.addProduct(at, down, gy), sz.addProduct(at, down, gz);
    }
  }
  sums.volume3_m3 += volume.total(), sums.section_m2 += section.total();
  sums.moment12_m4[0] += mx.total(), sums.moment12_m4[1] += my.total(), sums.moment12_m4[2] += mz.total();
  sums.sectionMoment_m3[0] += sx.total(), sums.sectionMoment_m3[1] += sy.total(),
      sums.sectionMoment_m3[2] += sz.total();
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(PyramidKernel);

void addPyramids(std::span<const PieceRange> ranges, const double o[3], const double up[3], PyramidSums& sums) {
  HWY_DYNAMIC_DISPATCH(PyramidKernel)(ranges.data(), ranges.size(), o, up, sums);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
