// The whole triangles' fields the cut stage's kernels (cut.hpp) give
// besides the pieces: the water velocity at their centroids, one copy per
// instruction set (simd-inl.hpp), and their corners' pressure heads.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/triangle_fields.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/cut.hpp"
#include "kernels/simd-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

#if HWY_TARGET != HWY_SCALAR && !defined(BT_USE_DOUBLE_PRECISION)
/// The means of the triangles from t on, a lane each (four, or eight with
/// 256-bit vectors), into u, v, w: each corner's (u, v, w, 0) is one
/// 128-bit row (the rows of triangles q and q + 4 the halves of one vector
/// with 256 bits), three rows summed and scaled, then transposed into u, v,
/// w (a third of the loads of three arrays; the same operations lane by
/// lane). The corners' offsets into water come from the per-corner index
/// arrays, a vector each: no unpacking of the packed corners per triangle.
template <class DV>
HWY_INLINE void triangleMeans(DV d, const T* water, const ScalarIndex* const (&vertexOf)[3], std::size_t t, T* u, T* v,
                              T* w) {
  constexpr std::size_t kLanes = hn::MaxLanes(DV());
  const hn::Full128<T> d4;
  const hn::Rebind<ScalarIndex, DV> di;
  HWY_ALIGN ScalarIndex at[3][kLanes];
  for (int k = 0; k < 3; ++k) hn::Store(hn::ShiftLeft<2>(hn::LoadU(di, vertexOf[k] + t)), di, at[k]);
  const auto scale = hn::Set(d, T(1.0 / 3.0));
  hn::Vec<DV> mean[4];
  for (std::size_t q = 0; q < 4; ++q) {
    hn::Vec<DV> corner[3];
    for (int k = 0; k < 3; ++k) {
#if KEEL_QUAD_TRANSPOSE
      corner[k] = quadRows(d, q, [&](std::size_t j) { return hn::LoadU(d4, water + asOffset(at[k][j])); });
#else
      corner[k] = hn::LoadU(d4, water + asOffset(at[k][q]));
#endif
    }
    mean[q] = hn::Mul(hn::Add(hn::Add(corner[0], corner[1]), corner[2]), scale);
  }
#if KEEL_QUAD_TRANSPOSE
  hn::Vec<DV> column[4];
  transposeQuads(d, mean[0], mean[1], mean[2], mean[3], column);
  hn::StoreU(column[0], d, u + t), hn::StoreU(column[1], d, v + t), hn::StoreU(column[2], d, w + t);
#else
  const auto lower01 = hn::InterleaveLower(d, mean[0], mean[1]), lower23 = hn::InterleaveLower(d, mean[2], mean[3]);
  const auto upper01 = hn::InterleaveUpper(d, mean[0], mean[1]), upper23 = hn::InterleaveUpper(d, mean[2], mean[3]);
  hn::StoreU(hn::ConcatLowerLower(d, lower23, lower01), d, u + t);
  hn::StoreU(hn::ConcatUpperUpper(d, lower23, lower01), d, v + t);
  hn::StoreU(hn::ConcatLowerLower(d, upper23, upper01), d, w + t);
#endif
}
#endif

/// triangleWaterVelocity: in float, triangleMeans; in double, a triangle
/// at a time.
void TriangleVelocityKernel(const HullSoA& hull, const BoatBuffers& b, T* u, T* v, T* w) {
  const T* water = b.water_mps.data();
  const std::uint32_t* kind = b.blockKind.data();
#if HWY_TARGET == HWY_SCALAR || defined(BT_USE_DOUBLE_PRECISION)
  const T third = T(1.0 / 3.0);
  const std::uint64_t* corners = hull.corners.data();
#else
  const ScalarIndex* const vertexOf[3] = {hull.vertexOf[0].data(), hull.vertexOf[1].data(), hull.vertexOf[2].data()};
#if KEEL_QUAD_TRANSPOSE
  const hn::Full256<T> d;
#else
  const hn::Full128<T> d;
#endif
  const auto zero = hn::Zero(d);
  const T* weight = b.weight.data();
#endif
  for (std::size_t block = 0; block < hull.trianglePadded / kPad; ++block) {
    if (kind[block] == kBlockDry) continue;
#if HWY_TARGET == HWY_SCALAR || defined(BT_USE_DOUBLE_PRECISION)
    for (std::size_t t = block * kPad; t < (block + 1) * kPad; ++t) {
      const std::uint64_t c = corners[t];
      const T *p0 = water + 4 * HullSoA::corner(c, 0), *p1 = water + 4 * HullSoA::corner(c, 1),
              *p2 = water + 4 * HullSoA::corner(c, 2);
      u[t] = (p0[0] + p1[0] + p2[0]) * third;
      v[t] = (p0[1] + p1[1] + p2[1]) * third;
      w[t] = (p0[2] + p1[2] + p2[2]) * third;
    }
#else
    const bool mixed = kind[block] == kBlockMixed;
    for (std::size_t t = block * kPad; t < (block + 1) * kPad; t += hn::Lanes(d)) {
      // In a block the water crosses, a vector of triangles none of them
      // wholly wet is skipped: the flow reads their means with weight 0
      // (and what they hold is an earlier mean or zero, finite).
      if (mixed && hn::AllFalse(d, hn::Gt(hn::LoadU(d, weight + t), zero))) continue;
      triangleMeans(d, water, vertexOf, t, u, v, w);
    }
#endif
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(TriangleVelocityKernel);

void triangleWaterVelocity(const HullSoA& hull, const BoatBuffers& b, btScalar* u, btScalar* v, btScalar* w) {
  // The mean of the corners', in every block with water: a whole block
  // without a branch per triangle beats skipping the dry ones (mispredicted).
  HWY_DYNAMIC_DISPATCH(TriangleVelocityKernel)(hull, b, u, v, w);
}

void triangleHeads(const HullSoA& hull, BoatBuffers& b) {
  // The weight (1 or 0) times the corner's head: exact, and 0 for the dry
  // and crossing triangles, as their depths.
  const btScalar* e = b.head_m.data();
  for (std::size_t block = 0; block < hull.trianglePadded / kPad; ++block) {
    if (b.blockKind[block] == kBlockDry) continue;
    for (std::size_t t = block * kPad; t < (block + 1) * kPad; ++t) {
      const std::uint64_t c = hull.corners[t];
      const btScalar w = b.weight[t];
      b.head0[t] = w * e[HullSoA::corner(c, 0)];
      b.head1[t] = w * e[HullSoA::corner(c, 1)];
      b.head2[t] = w * e[HullSoA::corner(c, 2)];
    }
  }
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
