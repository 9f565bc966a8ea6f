// WaterPatch::velocity at many points (heights.hpp, patchVelocities and
// patchVertexVelocities), one copy per instruction set (simd-inl.hpp): the
// scalar function's operations lane by lane, in its order and without
// fused multiply-adds, so the very same bits. The cell is found in double
// (a world cell index needs it far from the origin), the rest is btScalar:
// in float, twice the lanes of double.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/patch_velocity.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/heights.hpp"
#include "kernels/simd-inl.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {
namespace {

using DD = hn::ScalableTag<double>;
using VD = hn::Vec<DD>;
using VI = hn::Vec<DI>;  // gather indices, as wide as btScalar
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(T);

/// A cell of the patch under btScalar lanes: its node (0, 0) and the
/// fractions across it, rounded to btScalar (WaterPatch::velocity).
struct CellLanes {
  VI k00;
  V a, b;
};

HWY_INLINE CellLanes locateLanes(const PatchVelocityView& p, V u, V v) {
  const int side = int(p.side);
#if defined(BT_USE_DOUBLE_PRECISION)
  const PatchCellLanes c = locatePatchCell(u, v, p.inverseCell_pm, p.originI, p.originJ, side);
  return {hn::ConvertTo(DI(), c.k00), c.a, c.b};
#elif HWY_TARGET == HWY_SCALAR
  const PatchCellLanes c = locatePatchCell(hn::PromoteTo(DD(), u), hn::PromoteTo(DD(), v), p.inverseCell_pm, p.originI,
                                           p.originJ, side);
  return {hn::DemoteTo(DI(), c.k00), hn::DemoteTo(D(), c.a), hn::DemoteTo(D(), c.b)};
#else
  // Each half of the float lanes in double lanes.
  const hn::Half<D> dh;
  const hn::Half<DI> dih;
  const PatchCellLanes lo = locatePatchCell(hn::PromoteTo(DD(), hn::LowerHalf(dh, u)),
                                            hn::PromoteTo(DD(), hn::LowerHalf(dh, v)), p.inverseCell_pm, p.originI,
                                            p.originJ, side);
  const PatchCellLanes hi = locatePatchCell(hn::PromoteTo(DD(), hn::UpperHalf(dh, u)),
                                            hn::PromoteTo(DD(), hn::UpperHalf(dh, v)), p.inverseCell_pm, p.originI,
                                            p.originJ, side);
  return {hn::Combine(DI(), hn::DemoteTo(dih, hi.k00), hn::DemoteTo(dih, lo.k00)),
          hn::Combine(D(), hn::DemoteTo(dh, hi.a), hn::DemoteTo(dh, lo.a)),
          hn::Combine(D(), hn::DemoteTo(dh, hi.b), hn::DemoteTo(dh, lo.b))};
#endif
}

/// Index [node][level] (three btScalars each) of level `m` at `node`.
HWY_INLINE VI levelIndex(VI node, VI m, std::size_t levels) {
#if defined(BT_USE_DOUBLE_PRECISION)
  // 64-bit lanes have no integer multiply everywhere: exact in double.
  const D d;
  return wholeToIndex(d, hn::Mul(hn::Add(hn::Mul(hn::ConvertTo(d, node), hn::Set(d, T(levels))), hn::ConvertTo(d, m)),
                                 hn::Set(d, T(3))));
#else
  return hn::Mul(hn::Add(hn::Mul(node, hn::Set(DI(), ScalarIndex(levels))), m), hn::Set(DI(), ScalarIndex(3)));
#endif
}

#if defined(BT_USE_DOUBLE_PRECISION) || HWY_TARGET == HWY_SCALAR
/// The six btScalars at index `at` of each lane (two levels of a node).
HWY_INLINE void gatherLevels(const T* velocity, VI at, V (&out)[6]) {
  for (int k = 0; k < 6; ++k) out[k] = hn::GatherIndex(D(), velocity, hn::Add(at, hn::Set(DI(), ScalarIndex(k))));
}

/// The corners' weighted sum, sum over c of w0 * upper + w1 * lower level,
/// into e, n, up: its six btScalars gathered per lane.
HWY_INLINE void sumCorners(const T* velocity, const VI (&at)[3], const V (&w0)[3], const V (&w1)[3], V& e, V& n,
                           V& up) {
  const V zero = hn::Zero(D());
  e = zero, n = zero, up = zero;
  for (int c = 0; c < 3; ++c) {
    V level[6];  // the upper level's east, north, up, then the lower's
    gatherLevels(velocity, at[c], level);
    V* sums[3] = {&e, &n, &up};
    for (int axis = 0; axis < 3; ++axis)
      *sums[axis] = hn::Add(*sums[axis], hn::Add(hn::Mul(w0[c], level[axis]), hn::Mul(w1[c], level[3 + axis])));
  }
}
#elif KEEL_QUAD_TRANSPOSE
using D8 = hn::Full256<T>;
using V8 = hn::Vec<D8>;

/// Eight points' corner sums in float: each point's corner block (its two
/// levels' six floats, and two more that are not used: the patch keeps a
/// velocity of padding past its last node) is one row of an 8 x 8
/// transpose (simd-inl.hpp's, on each half), which gives the blocks'
/// floats as lanes, a point a lane. Then each sum is sumCorners' (the
/// gathers') operations lane by lane, in their order: the same bits, with
/// no gather and no trip through memory per point (docs/performance.md,
/// "The water velocity at every wet vertex").
HWY_INLINE void sumCorners8(const T* velocity, const ScalarIndex (&index)[3][kMaxLanes], std::size_t first,
                            const V8 (&w0)[3], const V8 (&w1)[3], V8& e, V8& n, V8& up) {
  const D8 d;
  e = hn::Zero(d), n = hn::Zero(d), up = hn::Zero(d);
  for (int c = 0; c < 3; ++c) {
    V8 row[8];
    for (std::size_t j = 0; j < 8; ++j) row[j] = hn::LoadU(d, velocity + asOffset(index[c][first + j]));
    // Points 0 to 3 and 4 to 7: each 128-bit half of a column holds one
    // block's element for four points (the lower half floats 0 to 3, the
    // upper 4 to 7).
    V8 first4[4], last4[4];
    transposeQuads(d, row[0], row[1], row[2], row[3], first4);
    transposeQuads(d, row[4], row[5], row[6], row[7], last4);
    const V8 upperE = hn::ConcatLowerLower(d, last4[0], first4[0]);
    const V8 upperN = hn::ConcatLowerLower(d, last4[1], first4[1]);
    const V8 upperU = hn::ConcatLowerLower(d, last4[2], first4[2]);
    const V8 lowerE = hn::ConcatLowerLower(d, last4[3], first4[3]);
    const V8 lowerN = hn::ConcatUpperUpper(d, last4[0], first4[0]);
    const V8 lowerU = hn::ConcatUpperUpper(d, last4[1], first4[1]);
    e = hn::Add(e, hn::Add(hn::Mul(w0[c], upperE), hn::Mul(w1[c], lowerE)));
    n = hn::Add(n, hn::Add(hn::Mul(w0[c], upperN), hn::Mul(w1[c], lowerN)));
    up = hn::Add(up, hn::Add(hn::Mul(w0[c], upperU), hn::Mul(w1[c], lowerU)));
  }
}

/// The corners' weighted sum (as the gathers' above), eight points at a time.
HWY_INLINE void sumCorners(const T* velocity, const VI (&at)[3], const V (&w0)[3], const V (&w1)[3], V& e, V& n,
                           V& up) {
  HWY_ALIGN ScalarIndex index[3][kMaxLanes];
  for (int c = 0; c < 3; ++c) hn::Store(at[c], DI(), index[c]);
#if HWY_TARGET == HWY_AVX2
  sumCorners8(velocity, index, 0, w0, w1, e, n, up);
#else
  const D d;
  const hn::Half<D> dh;
  V8 lower0[3], lower1[3], upper0[3], upper1[3], sums[2][3];
  for (int c = 0; c < 3; ++c) {
    lower0[c] = hn::LowerHalf(dh, w0[c]), lower1[c] = hn::LowerHalf(dh, w1[c]);
    upper0[c] = hn::UpperHalf(dh, w0[c]), upper1[c] = hn::UpperHalf(dh, w1[c]);
  }
  sumCorners8(velocity, index, 0, lower0, lower1, sums[0][0], sums[0][1], sums[0][2]);
  sumCorners8(velocity, index, 8, upper0, upper1, sums[1][0], sums[1][1], sums[1][2]);
  e = hn::Combine(d, sums[1][0], sums[0][0]);
  n = hn::Combine(d, sums[1][1], sums[0][1]);
  up = hn::Combine(d, sums[1][2], sums[0][2]);
#endif
}
#else
/// The same sum in float, a point at a time: each corner's two levels (six
/// floats in a row) as two 4-float loads, (east, north, up) in the first
/// three lanes, then transposed. The same operations in the same order as
/// the gathers', so the same bits, without gathers: a float gather costs
/// about a cycle per element and is microcoded on AMD Zen 4, where 16
/// points' 18 double-width gathers took longer than the rest of the kernel.
HWY_INLINE void sumCorners(const T* velocity, const VI (&at)[3], const V (&w0)[3], const V (&w1)[3], V& e, V& n,
                           V& up) {
  const D d;
  const hn::Full128<T> d4;
  HWY_ALIGN ScalarIndex index[3][kMaxLanes];
  HWY_ALIGN T weight0[3][kMaxLanes], weight1[3][kMaxLanes], sum[4 * kMaxLanes];
  for (int c = 0; c < 3; ++c)
    hn::Store(at[c], DI(), index[c]), hn::Store(w0[c], d, weight0[c]), hn::Store(w1[c], d, weight1[c]);
  for (std::size_t j = 0; j < hn::Lanes(d); ++j) {
    auto point = hn::Zero(d4);
    for (int c = 0; c < 3; ++c) {
      const T* node = velocity + asOffset(index[c][j]);
      // (east, north, up) of the upper level, then of the lower; the lower
      // loaded from the upper's up so as not to read past the array.
      const auto upper = hn::LoadU(d4, node), lower = hn::ShiftRightLanes<1>(d4, hn::LoadU(d4, node + 2));
      point = hn::Add(point,
                      hn::Add(hn::Mul(hn::Set(d4, weight0[c][j]), upper), hn::Mul(hn::Set(d4, weight1[c][j]), lower)));
    }
    hn::Store(point, d4, sum + 4 * j);
  }
  V unused;
  hn::LoadInterleaved4(d, sum, e, n, up, unused);
}
#endif

/// The patch's velocity levels' depths [m] in btScalar lanes, set once a
/// call rather than once a vector of points.
struct DepthLevels {
  V depth[WaterPatch::kVelocityLevels];
  std::size_t count;
  HWY_INLINE explicit DepthLevels(const PatchVelocityView& p) : count(std::min(p.levels, WaterPatch::kVelocityLevels)) {
    for (std::size_t j = 0; j < WaterPatch::kVelocityLevels; ++j)
      depth[j] = hn::Set(D(), j < count ? T(p.depths_m[j]) : T(0));
  }
};

/// The velocities at one vector of points in their cells, at heights w
/// under the surface [m], into e, n, u (lanes) [m/s].
HWY_INLINE void velocityLanes(const PatchVelocityView& p, const DepthLevels& levels, const CellLanes& cell, V w,
                              V surface, V& e, V& n, V& up) {
  const D d;
  const DI di;
  const V zero = hn::Zero(d), one = hn::Set(d, T(1));
  const V a = cell.a, b = cell.b;
  const VI k00 = cell.k00;
  // The cell's triangle and its corners' weights.
  const M lower = hn::Le(hn::Add(a, b), one);
  const auto side = ScalarIndex(p.side);
  const VI corner[3] = {hn::IfThenElse(hn::RebindMask(di, lower), k00, hn::Add(k00, hn::Set(di, side + 1))),
                        hn::Add(k00, hn::Set(di, ScalarIndex(1))), hn::Add(k00, hn::Set(di, side))};
  const V weight[3] = {hn::IfThenElse(lower, hn::Sub(hn::Sub(one, a), b), hn::Sub(hn::Add(a, b), one)),
                       hn::IfThenElse(lower, a, hn::Sub(one, b)), hn::IfThenElse(lower, b, hn::Sub(one, a))};
  // The depth's level m: how many of the inner levels lie above it (the
  // depths increase), and the fraction towards the next.
  const V depth = hn::Max(zero, hn::Sub(surface, w));
  VI m = hn::Zero(di);  // counted in integers: a mask's lanes are -1
  V top = levels.depth[0], bottom = levels.depth[1];
  for (std::size_t j = 1; j + 1 < levels.count; ++j) {
    const M deeper = hn::Gt(depth, levels.depth[j]);
    m = hn::Sub(m, hn::VecFromMask(di, hn::RebindMask(di, deeper)));
    top = hn::IfThenElse(deeper, levels.depth[j], top);
    bottom = hn::IfThenElse(deeper, levels.depth[j + 1], bottom);
  }
  const V span = hn::Sub(bottom, top);
  const M positive = hn::Gt(span, zero);
  const V f = hn::IfThenElseZero(
      positive, hn::Min(hn::Max(hn::Div(hn::Sub(depth, top), hn::IfThenElse(positive, span, one)), zero), one));
  VI at[3];
  V w0[3], w1[3];
  for (int c = 0; c < 3; ++c) {
    at[c] = levelIndex(corner[c], m, p.levels);
    w0[c] = hn::Mul(weight[c], hn::Sub(one, f)), w1[c] = hn::Mul(weight[c], f);
  }
  sumCorners(p.velocity, at, w0, w1, e, n, up);
}

/// The vertex indices at `p` as gather indices.
HWY_INLINE VI loadVertices(const std::uint32_t* p) {
  const hn::Rebind<std::int32_t, D> d32;
  const auto x = hn::LoadU(d32, reinterpret_cast<const std::int32_t*>(p));
#if defined(BT_USE_DOUBLE_PRECISION)
  return hn::PromoteTo(DI(), x);
#else
  return x;
#endif
}

/// The listed vertices' records (PatchCells: cell node bits, a, b, w) as
/// lanes: a run of consecutive vertices read whole; otherwise each record
/// as a row of the transpose (simd-inl.hpp), or gathered.
HWY_INLINE void loadRecords(const T* record, const std::uint32_t* vertex, bool run, V (&field)[4]) {
  const D d;
  constexpr std::size_t kRecord = PatchCells::kRecord;
  if (run) {
    hn::LoadInterleaved4(d, record + kRecord * vertex[0], field[0], field[1], field[2], field[3]);
    return;
  }
#if KEEL_QUAD_TRANSPOSE
  // The records' offsets scaled in a vector, read back a lane at a time.
  const hn::Full128<T> d4;
  HWY_ALIGN ScalarIndex at[kMaxLanes];
  hn::Store(hn::ShiftLeft<2>(loadVertices(vertex)), DI(), at);  // kRecord btScalars a vertex
  rowsToLanes(
      d, [&](std::size_t j) { return hn::LoadU(d4, record + asOffset(at[j])); }, field);
#else
  const VI k = hn::ShiftLeft<2>(loadVertices(vertex));  // kRecord btScalars a vertex
  for (std::size_t f = 0; f < kRecord; ++f)
    field[f] = hn::GatherIndex(d, record, hn::Add(k, hn::Set(DI(), ScalarIndex(f))));
#endif
}

}  // namespace

std::size_t PatchVertexVelocitiesKernel(const PatchVelocityView& p, const VertexVelocityQuery& q, std::size_t count,
                                        T* out4) {
  const D d;
  const T *px = q.hull->x.data(), *py = q.hull->y.data(), *pz = q.hull->z.data(), *water = q.waterHeight_m;
  const std::uint32_t* vertex = q.vertex;
  const V3 e = set3(d, {q.east[0], q.east[1], q.east[2]}), n = set3(d, {q.north[0], q.north[1], q.north[2]});
  const V3 z = set3(d, {q.up[0], q.up[1], q.up[2]});
  const V centreUp = hn::Set(d, q.centreUp_m), largest = hn::Set(d, std::numeric_limits<T>::max());
  V bad = hn::Zero(d);
  const DepthLevels levels(p);
  const std::size_t lanes = hn::Lanes(d);
  for (std::size_t i = 0; i < count; i += lanes) {
    // A run of consecutive vertices in the list's increasing part is loaded
    // and stored whole; otherwise gathered and scattered (the tail's lanes
    // repeat the first vertex: q.vertex's padding).
    const std::uint32_t first = vertex[i];
    const bool run = i + lanes <= q.increasing && std::size_t(vertex[i + lanes - 1] - first) == lanes - 1;
    const VI k = loadVertices(vertex + i);
    const V surface = run ? hn::LoadU(d, water + first) : hn::GatherIndex(d, water, k);
    CellLanes cell;
    V w;
    if (q.cells.record != nullptr) {
      V field[PatchCells::kRecord];
      loadRecords(q.cells.record, vertex + i, run, field);
      cell = {hn::BitCast(DI(), field[0]), field[1], field[2]};
      w = field[3];
    } else {
      // worldCoordinates' operations (CoordinatesKernel), lane for lane.
      const V3 at = run ? load3(d, px, py, pz, first)
                        : V3{hn::GatherIndex(d, px, k), hn::GatherIndex(d, py, k), hn::GatherIndex(d, pz, k)};
      cell = locateLanes(p, addToDouble(d, dot(at, e), q.centreEast_m), addToDouble(d, dot(at, n), q.centreNorth_m));
      w = hn::Add(centreUp, dot(at, z));
    }
    V ue, un, uu;
    velocityLanes(p, levels, cell, w, surface, ue, un, uu);
    // velocitiesToBody's operations (VelocitiesKernel), lane for lane.
    const M finite = hn::And(hn::And(hn::Le(hn::Abs(ue), largest), hn::Le(hn::Abs(un), largest)),
                             hn::Le(hn::Abs(uu), largest));
    bad = hn::Add(bad, hn::IfThenElseZero(hn::AndNot(finite, hn::FirstN(d, count - i)), hn::Set(d, T(1))));
    ue = hn::IfThenElseZero(finite, ue), un = hn::IfThenElseZero(finite, un), uu = hn::IfThenElseZero(finite, uu);
    storeVertexVelocities(d, mulAdd(e.x, ue, mulAdd(n.x, un, hn::Mul(z.x, uu))),
                          mulAdd(e.y, ue, mulAdd(n.y, un, hn::Mul(z.y, uu))),
                          mulAdd(e.z, ue, mulAdd(n.z, un, hn::Mul(z.z, uu))), out4, run ? nullptr : vertex,
                          run ? first : i, std::min(lanes, count - i));
  }
  return std::size_t(hn::GetLane(hn::SumOfLanes(d, bad)));
}

void PatchVelocitiesKernel(const PatchVelocityView& p, const T* u_m, const T* v_m, const T* w_m, const T* surface_m,
                           std::size_t count, WaterVelocity* out) {
  const D d;
  const DepthLevels levels(p);
  const std::size_t lanes = hn::Lanes(d);
  for (std::size_t i = 0; i < count; i += lanes) {
    // The last, partial vector from copies (the arrays end at count).
    std::array<T, kMaxLanes> tail[4];
    const T* in[4] = {u_m + i, v_m + i, w_m + i, surface_m + i};
    const std::size_t here = std::min(lanes, count - i);
    if (here < lanes)
      for (int k = 0; k < 4; ++k) {
        std::fill(tail[k].begin(), tail[k].end(), in[k][0]);
        std::copy_n(in[k], here, tail[k].begin());
        in[k] = tail[k].data();
      }
    V e, n, up;
    velocityLanes(p, levels, locateLanes(p, hn::LoadU(d, in[0]), hn::LoadU(d, in[1])), hn::LoadU(d, in[2]),
                  hn::LoadU(d, in[3]), e, n, up);
    std::array<T, kMaxLanes> east, north, upward;
    hn::StoreU(e, d, east.data()), hn::StoreU(n, d, north.data()), hn::StoreU(up, d, upward.data());
    for (std::size_t j = 0; j < here; ++j) out[i + j] = {east[j], north[j], upward[j]};
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(PatchVelocitiesKernel);
HWY_EXPORT(PatchVertexVelocitiesKernel);

namespace {

PatchVelocityView viewOf(const WaterPatch& patch) {
  const std::span<const double> depths = patch.velocityDepths_m();
  // A WaterVelocity is three btScalars (east, north, up): the kernel gathers them.
  static_assert(sizeof(WaterVelocity) == 3 * sizeof(btScalar));
  return {reinterpret_cast<const btScalar*>(patch.nodeVelocities().data()),
          depths.data(),
          depths.size(),
          double(patch.samplesPerSide()),
          1.0 / double(patch.cellSize_m()),
          double(patch.originI()),
          double(patch.originJ())};
}

}  // namespace

void patchVelocities(const WaterPatch& patch, const btScalar* u_m, const btScalar* v_m, const btScalar* w_m,
                     const btScalar* surface_m, std::size_t count, WaterVelocity* out) {
  HWY_DYNAMIC_DISPATCH(PatchVelocitiesKernel)(viewOf(patch), u_m, v_m, w_m, surface_m, count, out);
}

std::size_t patchVertexVelocities(const WaterPatch& patch, const VertexVelocityQuery& query, std::size_t count,
                                  btScalar* out4) {
  return HWY_DYNAMIC_DISPATCH(PatchVertexVelocitiesKernel)(viewOf(patch), query, count, out4);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
