// The heights stage's kernels (heights.hpp), one copy per instruction set
// (simd-inl.hpp).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/heights.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/heights-inl.hpp"
#include "kernels/heights.hpp"
#include "kernels/simd-inl.hpp"
// After simd-inl.hpp.
#include "kernels/compress-inl.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

VertexHeights VertexHeightsKernel(const HullSoA& hull, const T* up, T centreUp_m, const T* waterHeight_m, T* h_m,
                                  T* above_m) {
  // Up to the last vector that holds a vertex: past it, only padding, which
  // no triangle names (as smallHullSums leaves it).
  return heightsAbove(hull, up, centreUp_m, waterHeight_m, h_m, above_m, roundUp(hull.vertexCount, hn::Lanes(D())));
}

void CoordinatesKernel(const HullSoA& hull, const T* east, const T* north, const T* up, double centreEast_m,
                       double centreNorth_m, T centreUp_m, T* u_m, T* v_m, T* w_m) {
  const D d;
  const V3 e = set3(d, {east[0], east[1], east[2]}), n = set3(d, {north[0], north[1], north[2]});
  const V3 z = set3(d, {up[0], up[1], up[2]});
  const V c = hn::Set(d, centreUp_m);
  const T *px = hull.x.data(), *py = hull.y.data(), *pz = hull.z.data();  // locals: see simd-inl.hpp
  for (std::size_t i = 0; i < hull.vertexPadded; i += hn::Lanes(d)) {
    const V3 p = load3(d, px, py, pz, i);
    hn::StoreU(addToDouble(d, dot(p, e), centreEast_m), d, u_m + i);
    hn::StoreU(addToDouble(d, dot(p, n), centreNorth_m), d, v_m + i);
    if (w_m) hn::StoreU(hn::Add(c, dot(p, z)), d, w_m + i);
  }
}

constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(T);

/// The samples at the corners (0, 0), (1, 0), (0, 1) and (1, 1) of each
/// lane's cell, whose (0, 0) is at grid + first[lane] (rows `side` apart).
/// The next row read from its own start, grid + side: each cell's offset
/// then serves both loads as it is (no address sum per lane).
HWY_INLINE void cellCorners(const T* grid, const ScalarIndex* first, std::size_t side, V& h00, V& h10, V& h01, V& h11) {
  const D d;
  const T* next = grid + side;
#if KEEL_QUAD_TRANSPOSE
  // A point's cell as a row (its two rows' two samples each), the rows
  // transposed (simd-inl.hpp): no gathers, which cost about a cycle per
  // element and are microcoded on AMD Zen 4.
  V corner[4];
  rowsToLanes(
      d,
      [&](std::size_t j) {
        const std::size_t k = asOffset(first[j]);
        // Two samples into the lower half, then two into the upper half
        // (movq, movhps; KEEL_QUAD_TRANSPOSE is x86 only): Combine of two
        // 64-bit loads adds a shuffle a point.
        const __m128 lower = _mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(grid + k)));
        return hn::Vec128<T>{_mm_loadh_pi(lower, reinterpret_cast<const __m64*>(next + k))};
      },
      corner);
  h00 = corner[0], h10 = corner[1], h01 = corner[2], h11 = corner[3];
#else
  // A point at a time into memory, read back interleaved.
  HWY_ALIGN T quad[4 * kMaxLanes];  // each point's (0, 0), (1, 0), (0, 1), (1, 1)
  for (std::size_t j = 0; j < hn::Lanes(d); ++j) {
    const std::size_t k = asOffset(first[j]);
    std::memcpy(quad + 4 * j, grid + k, 2 * sizeof(T));
    std::memcpy(quad + 4 * j + 2, next + k, 2 * sizeof(T));
  }
  hn::LoadInterleaved4(d, quad, h00, h10, h01, h11);
#endif
}

/// The samples of a grid of at most two vectors of them (a far boat's 4 x 4
/// patch in float from AVX2 on, in double on AVX-512) held in two
/// registers: a sample is a lane of one, chosen by its index, where
/// cellCorners loads each point's four samples apart. The same samples, so
/// the same bits.
struct SmallGrid {
  V low, high;
  /// Whether `side` x `side` samples fit.
  static bool fits(int side) { return std::size_t(side) * std::size_t(side) <= 2 * hn::Lanes(D()); }
  /// The samples, the lanes past them zero (all zero when they do not fit).
  explicit SmallGrid(const T* grid, int side) : low(hn::Zero(D())), high(hn::Zero(D())) {
    if (!fits(side)) return;
    const D d;
    HWY_ALIGN T samples[2 * kMaxLanes] = {};
    std::copy_n(grid, std::size_t(side) * std::size_t(side), samples);
    low = hn::Load(d, samples);
    high = hn::Load(d, samples + hn::Lanes(d));
  }
  /// The sample at each lane's index k (< 2 Lanes).
  HWY_INLINE V at(hn::Vec<DI> k) const {
    const D d;
    const DI di;
    const auto lanes = ScalarIndex(hn::Lanes(d));
    const auto within = hn::IndicesFromVec(d, hn::And(k, hn::Set(di, lanes - 1)));  // Lanes: a power of 2
    return hn::IfThenElse(hn::RebindMask(d, hn::Gt(k, hn::Set(di, lanes - 1))), hn::TableLookupLanes(high, within),
                          hn::TableLookupLanes(low, within));
  }
};

/// A vertex's place along one of the water's axes in the patch's cells
/// (before clamping to the grid), from its body coordinates.
/// - In float: (centre / cell - origin) + p . (axis / cell), the first term
///   and the scaled axis rounded from double once per call. Every term is
///   under the patch's side in cells, so the sum errs by float's rounding
///   of the side (a millionth of a cell for a boat's 7-node patch), as the
///   body coordinates themselves do of the hull's size, however far the
///   patch is from the origin: no double lanes, which held half the
///   vertices a vector and cost conversions.
/// - In double: WaterPatch::locate's (centre + p . axis) / cell - origin,
///   the world coordinate itself, which double holds: the test of the
///   velocities' records rebuilds it exactly from the cell.
struct CellPlacer {
#if defined(BT_USE_DOUBLE_PRECISION)
  V centre, ax, ay, az, inverse, origin;
  CellPlacer(double centre_m, const T* axis, double inverseCell_pm, double originCell)
      : centre(hn::Set(D(), centre_m)),
        ax(hn::Set(D(), axis[0])),
        ay(hn::Set(D(), axis[1])),
        az(hn::Set(D(), axis[2])),
        inverse(hn::Set(D(), inverseCell_pm)),
        origin(hn::Set(D(), originCell)) {}
  HWY_INLINE V operator()(V x, V y, V z) const {
    const V along = hn::Add(centre, hn::Add(hn::Add(hn::Mul(x, ax), hn::Mul(y, ay)), hn::Mul(z, az)));
    return hn::Sub(hn::Mul(along, inverse), origin);
  }
#else
  V centre, ax, ay, az;
  CellPlacer(double centre_m, const T* axis, double inverseCell_pm, double originCell)
      : centre(hn::Set(D(), T(centre_m * inverseCell_pm - originCell))),
        ax(hn::Set(D(), T(double(axis[0]) * inverseCell_pm))),
        ay(hn::Set(D(), T(double(axis[1]) * inverseCell_pm))),
        az(hn::Set(D(), T(double(axis[2]) * inverseCell_pm))) {}
  HWY_INLINE V operator()(V x, V y, V z) const {
    return hn::Add(centre, hn::Add(hn::Add(hn::Mul(x, ax), hn::Mul(y, ay)), hn::Mul(z, az)));
  }
#endif
};

/// WaterPatch::height at every vertex, in btScalar lanes:
/// the vertex's place in the patch in cells (CellPlacer), its cell, and
/// the plane of the cell's triangle (split on the (1,0)-(0,1) diagonal)
/// through the three samples around it, in detail::cellHeight's order.
/// Separate multiplies and adds: the same bits on every instruction set.
void PatchHeightsKernel(const HullSoA& hull, const T* east, const T* north, const T* up, double centreEast_m,
                        double centreNorth_m, T centreUp_m, const T* grid, int side, double inverseCell_pm,
                        double originI, double originJ, T* out_m, PatchCells cells) {
  const D d;
  const DI di;
  const V one = hn::Set(d, T(1)), zero = hn::Zero(d);
  const CellPlacer placeU(centreEast_m, east, inverseCell_pm, originI);
  const CellPlacer placeV(centreNorth_m, north, inverseCell_pm, originJ);
  const V3 upAxis = set3(d, {up[0], up[1], up[2]});
  const V cw = hn::Set(d, centreUp_m);
  const V last = hn::Set(d, T(side - 1)), lastCell = hn::Set(d, T(side - 2)), width = hn::Set(d, T(side));
  T* record = cells.record;
  const T *px = hull.x.data(), *py = hull.y.data(), *pz = hull.z.data();  // locals: see simd-inl.hpp
  const bool small = SmallGrid::fits(side);
  const SmallGrid table(grid, side);
  const auto nextRow = hn::Set(di, ScalarIndex(side));
  // The vectors past the last vertex hold only padding, whose heights no
  // kernel reads but vertexHeights, which leaves them out (as Direct
  // sampling leaves them unwritten); their cells, when wanted, are read in
  // whole runs, so those are all written.
  const std::size_t end = record != nullptr ? hull.vertexPadded : roundUp(hull.vertexCount, hn::Lanes(d));
  // The loop twice: for a far boat's small patch without cells (neither
  // tested in the loop), and for the rest.
  const auto heights = [&](auto general) HWY_ATTR __attribute__((always_inline)) {
    const bool recorded = general && record != nullptr, inTable = !general || small;
    for (std::size_t i = 0; i < end; i += hn::Lanes(d)) {
      const V x = hn::LoadU(d, px + i), y = hn::LoadU(d, py + i), z = hn::LoadU(d, pz + i);
      const V fu = hn::Min(hn::Max(placeU(x, y, z), zero), last), fv = hn::Min(hn::Max(placeV(x, y, z), zero), last);
      const V ci = hn::Min(hn::Floor(fu), lastCell), cj = hn::Min(hn::Floor(fv), lastCell);
      const V a = hn::Sub(fu, ci), b = hn::Sub(fv, cj);
      const auto k00 = wholeToIndex(d, hn::Add(hn::Mul(cj, width), ci));  // WaterPatch::configure: < 2^22 nodes
      if (recorded) {
        // worldCoordinates' w (CoordinatesKernel's operations, lane for lane).
        const V w = hn::Add(cw, dot(V3{x, y, z}, upAxis));
        hn::StoreInterleaved4(hn::BitCast(d, k00), a, b, w, d, record + PatchCells::kRecord * i);
      }
      V h00, h10, h01, h11;
      if (inTable) {
        const auto k10 = hn::Add(k00, hn::Set(di, ScalarIndex(1)));
        h00 = table.at(k00), h10 = table.at(k10), h01 = table.at(hn::Add(k00, nextRow));
        h11 = table.at(hn::Add(k10, nextRow));
      } else {
        HWY_ALIGN ScalarIndex first[kMaxLanes];
        hn::Store(k00, di, first);
        cellCorners(grid, first, std::size_t(side), h00, h10, h01, h11);
      }
      // detail::cellHeight: the lower triangle (a + b <= 1) from node (0, 0),
      // the upper from (1, 1).
      const auto lower = hn::Le(hn::Add(a, b), one);
      const V h0 = hn::IfThenElse(lower, h00, h11);
      const V hA = hn::IfThenElse(lower, h10, h01), hB = hn::IfThenElse(lower, h01, h10);
      const V wa = hn::IfThenElse(lower, a, hn::Sub(one, a)), wb = hn::IfThenElse(lower, b, hn::Sub(one, b));
      const V h = hn::Add(hn::Add(h0, hn::Mul(wa, hn::Sub(hA, h0))), hn::Mul(wb, hn::Sub(hB, h0)));
      hn::StoreU(h, d, out_m + i);
    }
  };
  if (record == nullptr && small)
    heights(std::false_type{});
  else
    heights(std::true_type{});
}

std::size_t ListVerticesKernel(const T* h_m, const std::uint32_t* stamp, std::uint32_t stampNow, std::size_t count,
                               std::uint32_t* out) {
  std::size_t listed = 0;
#if defined(BT_USE_DOUBLE_PRECISION)
  // 64-bit lanes: no mask for the 32-bit indices' lanes; a scalar loop.
  for (std::uint32_t i = 0; i < count; ++i)
    if (h_m[i] < 0 || stamp[i] == stampNow) out[listed++] = i;
#else
  const D d;
  const hn::RebindToUnsigned<D> du;
  const V zero = hn::Zero(d);
  const auto now = hn::Set(du, stampNow);
  auto index = hn::Iota(du, 0);
  const auto step = hn::Set(du, std::uint32_t(hn::Lanes(d)));
  for (std::size_t i = 0; i < count; i += hn::Lanes(d)) {
    const auto wet = hn::RebindMask(du, hn::Lt(hn::LoadU(d, h_m + i), zero));
    const auto marked = hn::Eq(hn::LoadU(du, stamp + i), now);
    const auto mask = hn::And(hn::Or(wet, marked), hn::FirstN(du, count - i));
    // Compress in a register (compress-inl.hpp), then a whole-vector store
    // (out has room past them): CompressStore's masked compressing store to
    // memory is microcoded on AMD Zen 4 (keel_bench's substep benchmarks;
    // docs/performance.md, "Instruction counts").
    hn::StoreU(LaneCompress(du, mask)(index), du, out + listed);
    listed += hn::CountTrue(du, mask);
    index = hn::Add(index, step);
  }
#endif
  return listed;
}

/// velocitiesToBody: three interleaved components per velocity.
std::size_t VelocitiesKernel(const WaterVelocity* in, std::size_t count, const T* east, const T* north, const T* up,
                             T* out4, const std::uint32_t* vertex) {
  static_assert(sizeof(WaterVelocity) == 3 * sizeof(T), "WaterVelocity is three btScalars");
  const D d;
  const V3 e = set3(d, {east[0], east[1], east[2]}), n = set3(d, {north[0], north[1], north[2]});
  const V3 z = set3(d, {up[0], up[1], up[2]});
  const V largest = hn::Set(d, std::numeric_limits<T>::max());
  V bad = hn::Zero(d);
  const T* flat = &in[0].east_mps;
  for (std::size_t i = 0; i < count; i += hn::Lanes(d)) {
    V ue, un, uu;
    hn::LoadInterleaved3(d, flat + 3 * i, ue, un, uu);
    // Finite when every |component| <= max (a NaN compares false).
    const M finite = hn::And(hn::And(hn::Le(hn::Abs(ue), largest), hn::Le(hn::Abs(un), largest)),
                             hn::Le(hn::Abs(uu), largest));
    const M real = hn::FirstN(d, count - i);
    bad = hn::Add(bad, hn::IfThenElseZero(hn::AndNot(finite, real), hn::Set(d, T(1))));
    ue = hn::IfThenElseZero(finite, ue), un = hn::IfThenElseZero(finite, un), uu = hn::IfThenElseZero(finite, uu);
    storeVertexVelocities(
        d, mulAdd(e.x, ue, mulAdd(n.x, un, hn::Mul(z.x, uu))), mulAdd(e.y, ue, mulAdd(n.y, un, hn::Mul(z.y, uu))),
        mulAdd(e.z, ue, mulAdd(n.z, un, hn::Mul(z.z, uu))), out4, vertex, i, std::min(hn::Lanes(d), count - i));
  }
  return std::size_t(hn::GetLane(hn::SumOfLanes(d, bad)));
}

/// patchMix: (wa x + wb y) lane by lane, without fused multiply-adds, as
/// the scalar tail.
void MixKernel(const T* x, const T* y, std::size_t count, T wa, T wb, T* out) {
  const D d;
  const V a = hn::Set(d, wa), b = hn::Set(d, wb);
  std::size_t i = 0;
  for (; i + hn::Lanes(d) <= count; i += hn::Lanes(d))
    hn::StoreU(hn::Add(hn::Mul(a, hn::LoadU(d, x + i)), hn::Mul(b, hn::LoadU(d, y + i))), d, out + i);
  for (; i < count; ++i) out[i] = wa * x[i] + wb * y[i];
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(VertexHeightsKernel);
HWY_EXPORT(CoordinatesKernel);
HWY_EXPORT(PatchHeightsKernel);
HWY_EXPORT(MixKernel);
HWY_EXPORT(VelocitiesKernel);
HWY_EXPORT(ListVerticesKernel);

VertexHeights vertexHeights(const HullSoA& hull, const btScalar up[3], btScalar centreUp_m,
                            const btScalar* waterHeight_m, btScalar* h_m, btScalar* above_m) {
  return HWY_DYNAMIC_DISPATCH(VertexHeightsKernel)(hull, up, centreUp_m, waterHeight_m, h_m, above_m);
}

void worldCoordinates(const HullSoA& hull, const btScalar east[3], const btScalar north[3], const btScalar up[3],
                      double centreEast_m, double centreNorth_m, btScalar centreUp_m, btScalar* u_m, btScalar* v_m,
                      btScalar* w_m) {
  HWY_DYNAMIC_DISPATCH(CoordinatesKernel)
  (hull, east, north, up, centreEast_m, centreNorth_m, centreUp_m, u_m, v_m, w_m);
}

void patchHeights(const HullSoA& hull, const WaterPatch& patch, const btScalar east[3], const btScalar north[3],
                  const btScalar up[3], double centreEast_m, double centreNorth_m, btScalar centreUp_m, btScalar* out_m,
                  PatchCells cells) {
  HWY_DYNAMIC_DISPATCH(PatchHeightsKernel)
  (hull, east, north, up, centreEast_m, centreNorth_m, centreUp_m, patch.samples_m().data(), patch.samplesPerSide(),
   1.0 / double(patch.cellSize_m()), double(patch.originI()), double(patch.originJ()), out_m, cells);
}

void patchMix(const btScalar* x, const btScalar* y, std::size_t count, btScalar wa, btScalar wb, btScalar* out) {
  HWY_DYNAMIC_DISPATCH(MixKernel)(x, y, count, wa, wb, out);
}

std::size_t listVertices(const btScalar* h_m, const std::uint32_t* stamp, std::uint32_t stampNow, std::size_t count,
                         std::uint32_t* out) {
  return HWY_DYNAMIC_DISPATCH(ListVerticesKernel)(h_m, stamp, stampNow, count, out);
}

std::size_t velocitiesToBody(const WaterVelocity* in, std::size_t count, const btScalar east[3],
                             const btScalar north[3], const btScalar up[3], btScalar* out4,
                             const std::uint32_t* vertex) {
  return HWY_DYNAMIC_DISPATCH(VelocitiesKernel)(in, count, east, north, up, out4, vertex);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
