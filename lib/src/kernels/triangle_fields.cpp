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

/// triangleWaterVelocity. In float, each corner's (u, v, w, 0) is one
/// 128-bit vector: four triangles' means at a time, transposed into u, v, w
/// (a third of the loads of three arrays; the same operations lane by lane).
void TriangleVelocityKernel(const HullSoA& hull, const BoatBuffers& b, T* u, T* v, T* w) {
  const T third = T(1.0 / 3.0);
  const T* water = b.water_mps.data();
  const std::uint32_t* kind = b.blockKind.data();
#if HWY_TARGET == HWY_SCALAR || defined(BT_USE_DOUBLE_PRECISION)
  const std::uint64_t* corners = hull.corners.data();
#else
  const ScalarIndex* vertexOf[3] = {hull.vertexOf[0].data(), hull.vertexOf[1].data(), hull.vertexOf[2].data()};
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
    const hn::Full128<T> d4;
    const hn::Full128<ScalarIndex> di4;
    const auto scale = hn::Set(d4, third), zero = hn::Zero(d4);
    const bool mixed = kind[block] == kBlockMixed;
    const T* weight = b.weight.data();
    for (std::size_t t = block * kPad; t < (block + 1) * kPad; t += 4) {
      // In a block the water crosses, four triangles none of them wholly
      // wet are skipped: the flow reads their means with weight 0 (and
      // what they hold is an earlier mean or zero, finite).
      if (mixed && hn::AllFalse(d4, hn::Gt(hn::LoadU(d4, weight + t), zero))) continue;
      // The four triangles' corners' offsets into water (four btScalars a
      // vertex) from the per-corner index arrays, a vector each: no
      // unpacking of the packed corners per triangle.
      HWY_ALIGN ScalarIndex at[3][4];
      for (int k = 0; k < 3; ++k) hn::Store(hn::ShiftLeft<2>(hn::LoadU(di4, vertexOf[k] + t)), di4, at[k]);
      hn::Vec<decltype(d4)> mean[4];
      for (std::size_t q = 0; q < 4; ++q)
        mean[q] = hn::Mul(hn::Add(hn::Add(hn::LoadU(d4, water + asOffset(at[0][q])),
                                          hn::LoadU(d4, water + asOffset(at[1][q]))),
                                  hn::LoadU(d4, water + asOffset(at[2][q]))),
                          scale);
      const auto lower01 = hn::InterleaveLower(d4, mean[0], mean[1]),
                 lower23 = hn::InterleaveLower(d4, mean[2], mean[3]);
      const auto upper01 = hn::InterleaveUpper(d4, mean[0], mean[1]),
                 upper23 = hn::InterleaveUpper(d4, mean[2], mean[3]);
      hn::StoreU(hn::ConcatLowerLower(d4, lower23, lower01), d4, u + t);
      hn::StoreU(hn::ConcatUpperUpper(d4, lower23, lower01), d4, v + t);
      hn::StoreU(hn::ConcatLowerLower(d4, upper23, upper01), d4, w + t);
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
