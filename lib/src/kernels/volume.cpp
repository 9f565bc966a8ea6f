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
  VD volume = hn::Zero(dd), mx = volume, my = volume, mz = volume, section = volume, sx = volume, sy = volume,
     sz = volume;
  for (const PieceRange* r = ranges; r != ranges + count; ++r) {
    const PieceStream& p = *r->stream;
    const std::size_t end = r->end;
    for (std::size_t i = r->begin; i < end; i += hn::Lanes(dd)) {
      // The lanes past `end` and the pieces of weight 0 add zeros (masked, so
      // whatever lies past `end` cannot add a NaN).
      const VD weight = load(p.weight, i);
      const auto m = hn::And(hn::FirstN(dd, end - i), hn::Ne(weight, hn::Zero(dd)));
      const VD Sx = hn::IfThenElseZero(m, hn::Mul(weight, load(p.sx, i)));
      const VD Sy = hn::IfThenElseZero(m, hn::Mul(weight, load(p.sy, i)));
      const VD Sz = hn::IfThenElseZero(m, hn::Mul(weight, load(p.sz, i)));
      const VD gx = hn::IfThenElseZero(m, load(p.gx, i)), gy = hn::IfThenElseZero(m, load(p.gy, i)),
               gz = hn::IfThenElseZero(m, load(p.gz, i));
      const VD v3 = hn::MulAdd(Sx, hn::Sub(gx, ox), hn::MulAdd(Sy, hn::Sub(gy, oy), hn::Mul(Sz, hn::Sub(gz, oz))));
      const VD sUp = hn::MulAdd(Sx, ux, hn::MulAdd(Sy, uy, hn::Mul(Sz, uz)));
      volume = hn::Add(volume, v3);
      mx = hn::MulAdd(v3, hn::MulAdd(three, gx, ox), mx);
      my = hn::MulAdd(v3, hn::MulAdd(three, gy, oy), my);
      mz = hn::MulAdd(v3, hn::MulAdd(three, gz, oz), mz);
      section = hn::Sub(section, sUp);
      sx = hn::NegMulAdd(sUp, gx, sx), sy = hn::NegMulAdd(sUp, gy, sy), sz = hn::NegMulAdd(sUp, gz, sz);
    }
  }
  const auto sum = [&](VD v) { return hn::GetLane(hn::SumOfLanes(dd, v)); };
  sums.volume3_m3 += sum(volume), sums.section_m2 += sum(section);
  sums.moment12_m4[0] += sum(mx), sums.moment12_m4[1] += sum(my), sums.moment12_m4[2] += sum(mz);
  sums.sectionMoment_m3[0] += sum(sx), sums.sectionMoment_m3[1] += sum(sy), sums.sectionMoment_m3[2] += sum(sz);
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
