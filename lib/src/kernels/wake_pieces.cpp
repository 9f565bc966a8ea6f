// The wake's wet pieces packed (wake_pieces.hpp), one copy per instruction
// set (simd-inl.hpp): each vector of pieces compressed to those of
// positive weight (a whole triangle to its index and depth). The depth is
// (d0 + d1 + d2) / 3 in every lane and in the scalar tail: the same bits on
// every instruction set.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/wake_pieces.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/simd-inl.hpp"
#include "kernels/wake_pieces.hpp"
// After simd-inl.hpp.
#include "kernels/compress-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

std::size_t PackWetPiecesKernel(const PieceStream& p, btScalar* const planes[kWakePlanes], std::size_t at) {
  const D d;
  const std::size_t lanes = hn::Lanes(d);
  const btScalar* in[kPieceDepth] = {p.gx, p.gy, p.gz, p.sx, p.sy, p.sz};
  const V zero = hn::Zero(d), third = hn::Set(d, btScalar(3));
  std::size_t i = 0;
  for (; i + lanes <= p.count; i += lanes) {
    const M wet = hn::Gt(hn::LoadU(d, p.weight + i), zero);
    if (hn::AllFalse(d, wet)) continue;
    // Compressed in registers and stored whole (a store that compresses
    // into memory is slow on some CPUs): the lanes past the wet ones land
    // in the planes' spare vector, and the next vector overwrites them.
    // (compress-inl.hpp: one lane order for the seven vectors.)
    const LaneCompress compress(d, wet);
    for (std::size_t k = 0; k < kPieceDepth; ++k) hn::StoreU(compress(hn::LoadU(d, in[k] + i)), d, planes[k] + at);
    const V depth = hn::Div(hn::Add(hn::Add(hn::LoadU(d, p.d0 + i), hn::LoadU(d, p.d1 + i)), hn::LoadU(d, p.d2 + i)),
                            third);
    hn::StoreU(compress(depth), d, planes[kPieceDepth] + at);
    at += hn::CountTrue(d, wet);
  }
  for (; i < p.count; ++i) {
    if (!(p.weight[i] > 0)) continue;
    for (std::size_t k = 0; k < kPieceDepth; ++k) planes[k][at] = in[k][i];
    planes[kPieceDepth][at++] = (p.d0[i] + p.d1[i] + p.d2[i]) / 3;
  }
  return at;
}

std::size_t PackWetTrianglesKernel(const PieceStream& p, std::uint32_t* triangle, btScalar* depth, std::size_t at) {
  std::size_t i = 0;
#if !defined(BT_USE_DOUBLE_PRECISION)  // the indices in lanes as wide as float's (in double, the loop below)
  const D d;
  const hn::RebindToUnsigned<D> du;
  const std::size_t lanes = hn::Lanes(d);
  const V zero = hn::Zero(d), third = hn::Set(d, btScalar(3));
  for (; i + lanes <= p.count; i += lanes) {
    const M wet = hn::Gt(hn::LoadU(d, p.weight + i), zero);
    if (hn::AllFalse(d, wet)) continue;
    // One lane order (compress-inl.hpp) for the indices and the depths.
    hn::StoreU(LaneCompress(du, hn::RebindMask(du, wet))(hn::Iota(du, std::uint32_t(i))), du, triangle + at);
    const V mean = hn::Div(hn::Add(hn::Add(hn::LoadU(d, p.d0 + i), hn::LoadU(d, p.d1 + i)), hn::LoadU(d, p.d2 + i)),
                           third);
    hn::StoreU(LaneCompress(d, wet)(mean), d, depth + at);
    at += hn::CountTrue(d, wet);
  }
#endif
  for (; i < p.count; ++i) {
    if (!(p.weight[i] > 0)) continue;
    triangle[at] = std::uint32_t(i);
    depth[at++] = (p.d0[i] + p.d1[i] + p.d2[i]) / 3;
  }
  return at;
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(PackWetPiecesKernel);
HWY_EXPORT(PackWetTrianglesKernel);

std::size_t packWetPieces(const PieceStream& p, btScalar* const planes[kWakePlanes], std::size_t at) {
  return HWY_DYNAMIC_DISPATCH(PackWetPiecesKernel)(p, planes, at);
}

std::size_t packWetTriangles(const PieceStream& p, std::uint32_t* triangle, btScalar* depth, std::size_t at) {
  return HWY_DYNAMIC_DISPATCH(PackWetTrianglesKernel)(p, triangle, depth, at);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
