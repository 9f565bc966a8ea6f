// The cut kernels (cut.hpp), one copy per instruction set (simd-inl.hpp):
// the cut into stored pieces, and a small hull's cut summed into the
// pressure integral as it is cut (cutAndSum); and the scalar passes around
// them.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cut.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/cut.hpp"
#include "kernels/cut_lanes-inl.hpp"
#include "kernels/pressure_sums-inl.hpp"
#include "kernels/simd-inl.hpp"

#include <algorithm>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// Triangles k... of the stage: four groups of four per triangle (seven with
/// `velocities` or `heads`), transposed into vectors.
HWY_INLINE StagedTriangles loadStaged(D d, const T* const* stage, std::size_t k, bool velocities, bool heads) {
  const V zero = hn::Zero(d);
  StagedTriangles s;
  s.u0 = s.u1 = s.u2 = V3{zero, zero, zero};
  s.e0 = s.e1 = s.e2 = zero;
  hn::LoadInterleaved4(d, stage[0] + 4 * k, s.p0.x, s.p0.y, s.p0.z, s.area);
  hn::LoadInterleaved4(d, stage[1] + 4 * k, s.p1.x, s.p1.y, s.p1.z, s.h0);
  hn::LoadInterleaved4(d, stage[2] + 4 * k, s.p2.x, s.p2.y, s.p2.z, s.h1);
  hn::LoadInterleaved4(d, stage[3] + 4 * k, s.sv.x, s.sv.y, s.sv.z, s.h2);
  if (velocities || heads) {
    hn::LoadInterleaved4(d, stage[4] + 4 * k, s.u0.x, s.u0.y, s.u0.z, s.e0);
    hn::LoadInterleaved4(d, stage[5] + 4 * k, s.u1.x, s.u1.y, s.u1.z, s.e1);
    hn::LoadInterleaved4(d, stage[6] + 4 * k, s.u2.x, s.u2.y, s.u2.z, s.e2);
  }
  return s;
}

/// The crossing triangles' data in order (BoatBuffers::stage), each group
/// of four one copy from the hull's record, with the corners' heights in
/// the free fourth places; loadStaged transposes four groups into vectors.
/// This beats vector gathers (about a cycle per lane; measured with
/// keel_bench) and copies field by field. The lanes past `count` are
/// zeroed: the kernel masks them, and zeros keep them finite.
HWY_INLINE void stageCrossing(const HullSoA& hull, BoatBuffers& b, std::size_t count, bool velocities, bool heads) {
  const std::size_t group = 4 * sizeof(btScalar);
  const int groups = velocities || heads ? kStageGroups : 4;
  // Every pointer in a local first: memcpy's stores may alias anything in
  // memory, so the compiler would reload them from `b` after each copy.
  btScalar* stage[kStageGroups];
  std::copy_n(b.stage, kStageGroups, stage);
  const ScalarIndex* crossing = b.crossing.data();
  const btScalar *records = hull.cutRecord.data(), *h0 = b.corner0.data(), *h1 = b.corner1.data(),
                 *h2 = b.corner2.data();
  for (std::size_t k = 0; k < count; ++k) {
    const auto t = std::size_t(crossing[k]);
    const btScalar* record = records + HullSoA::kCutRecord * t;
    for (std::size_t g = 0; g < 4; ++g) std::memcpy(stage[g] + 4 * k, record + 4 * g, group);
    stage[1][4 * k + 3] = h0[t];
    stage[2][4 * k + 3] = h1[t];
    stage[3][4 * k + 3] = h2[t];
  }
  // The corners' fields in a pass of their own: fewer live pointers than
  // in the pass above, which then spilled them.
  const btScalar *water = b.water_mps.data(), *e = b.head_m.data();
  const std::uint64_t* corners = hull.corners.data();
  for (std::size_t k = 0; k < count && (velocities || heads); ++k) {
    const std::uint64_t c = corners[std::size_t(crossing[k])];
    for (int j = 0; j < 3; ++j) {
      const std::size_t i = HullSoA::corner(c, j);
      btScalar* out = stage[4 + j] + 4 * k;
      // The whole (u, v, w, 0): one 16-byte copy in float; the head, when
      // wanted, over the zero.
      if (velocities) std::memcpy(out, water + 4 * i, 4 * sizeof(btScalar));
      if (heads) out[3] = e[i];
    }
  }
  for (int g = 0; g < groups; ++g) std::memset(stage[g] + 4 * count, 0, (padded(count) - count) * group);
}

/// Whether the crossing triangles are looked up in registers instead of
/// staged: a hull of at most two vectors of triangles (a small one), cut
/// without velocities or heads. Its triangles' fields are then each one or
/// two vectors, from which a permutation picks the crossing ones: no copy
/// through memory, whose wide loads of narrow stores would wait.
HWY_INLINE bool looksUp(D d, const HullSoA& hull, bool velocities, bool heads) {
  return !velocities && !heads && hull.trianglePadded <= 2 * hn::Lanes(d);
}

/// Crossing triangles k... as loadStaged gives them, looked up in the
/// hull's arrays and the corners' heights (looksUp): zero past `valid`, as
/// the staged ones.
HWY_INLINE StagedTriangles lookUpCrossing(D d, const HullSoA& hull, const BoatBuffers& b, std::size_t k, M valid) {
  const DI di;
  const auto lanes = ScalarIndex(hn::Lanes(d));
  // (A triangle padded count of 16 or 32 masks the list's stale entries
  // past `count` into range; their lanes are zeroed below.)
  const auto index = hn::And(hn::LoadU(di, b.crossing.data() + k), hn::Set(di, ScalarIndex(hull.trianglePadded - 1)));
  const auto lane = hn::IndicesFromVec(d, hn::And(index, hn::Set(di, lanes - 1)));
  const M inSecond = hn::RebindMask(d, hn::Gt(index, hn::Set(di, lanes - 1)));
  const bool two = hull.trianglePadded > std::size_t(lanes);
  const auto field = [&](const T* a) HWY_ATTR {
    V x = hn::TableLookupLanes(hn::LoadU(d, a), lane);
    if (two) x = hn::IfThenElse(inSecond, hn::TableLookupLanes(hn::LoadU(d, a + lanes), lane), x);
    return hn::IfThenElseZero(valid, x);
  };
  const V zero = hn::Zero(d);
  StagedTriangles s;
  s.p0 = {field(hull.ax.data()), field(hull.ay.data()), field(hull.az.data())};
  s.p1 = {field(hull.bx.data()), field(hull.by.data()), field(hull.bz.data())};
  s.p2 = {field(hull.cx.data()), field(hull.cy.data()), field(hull.cz.data())};
  s.sv = {field(hull.sx.data()), field(hull.sy.data()), field(hull.sz.data())};
  s.area = field(hull.area.data());
  s.h0 = field(b.corner0.data()), s.h1 = field(b.corner1.data()), s.h2 = field(b.corner2.data());
  s.u0 = s.u1 = s.u2 = V3{zero, zero, zero};
  s.e0 = s.e1 = s.e2 = zero;
  return s;
}

HWY_INLINE void store3(D d, V3 v, T* x, T* y, T* z, std::size_t i) {
  hn::StoreU(v.x, d, x + i), hn::StoreU(v.y, d, y + i), hn::StoreU(v.z, d, z + i);
}

/// One piece per lane into slot i of o: its corners, their depths [m], and
/// its triangle's area vector and area times the `fraction` it covers;
/// weight 1 in the lanes of `some`. Only what `output` asks for.
HWY_INLINE void storePiece(D d, const V3 (&corner)[3], const V (&depth)[3], V fraction, V triangleArea, V3 triangleS,
                           M some, CutOutput output, PieceBuffer& o, std::size_t i) {
  const V zero = hn::Zero(d), one = hn::Set(d, T(1));
  const V3 centroid = mean(corner, hn::Set(d, T(1.0 / 3.0)));
  store3(d, centroid, o.gx.data(), o.gy.data(), o.gz.data(), i);
  // A piece's area vector is its triangle's times the fraction it covers.
  const V3 pieceS = scale(triangleS, fraction);
  store3(d, pieceS, o.sx.data(), o.sy.data(), o.sz.data(), i);
  hn::StoreU(hn::IfThenElseZero(some, one), d, o.weight.data() + i);
  if (output == CutOutput::Volume) return;
  store3(d, corner[0], o.ax.data(), o.ay.data(), o.az.data(), i);
  store3(d, corner[1], o.bx.data(), o.by.data(), o.bz.data(), i);
  store3(d, corner[2], o.cx.data(), o.cy.data(), o.cz.data(), i);
  hn::StoreU(depth[0], d, o.d0.data() + i);
  hn::StoreU(depth[1], d, o.d1.data() + i);
  hn::StoreU(depth[2], d, o.d2.data() + i);
  const V pieceArea = hn::Mul(triangleArea, fraction);
  hn::StoreU(pieceArea, d, o.area.data() + i);
  if (output == CutOutput::Pressure) return;
  const M positive = hn::Gt(pieceArea, zero);
  store3(d, cross(centroid, pieceS), o.csx.data(), o.csy.data(), o.csz.data(), i);
  hn::StoreU(hn::IfThenElseZero(positive, hn::Div(one, hn::IfThenElse(positive, pieceArea, one))), d,
             o.inverseArea.data() + i);
}

/// The pressure heads at the pieces' corners (CutKernel), placed as the
/// depths are: the wet corners' heads, 0 on the waterline.
HWY_INLINE void storeHeads(D d, const CutLanes& cut, const StagedTriangles& in, int pieces, PieceBuffer& o,
                           std::size_t k) {
  const V zero = hn::Zero(d);
  const V q0 = cut.pick(in.e0, in.e1, in.e2), q1 = cut.pick(in.e1, in.e2, in.e0), q2 = cut.pick(in.e2, in.e0, in.e1);
  const V heads[2][3] = {{cut.only(cut.single, q0), cut.only(cut.twoWet, q1), cut.only(cut.twoWet, q2)},
                         {zero, cut.only(cut.twoWet, q2), zero}};
  for (int slot = 0; slot < pieces; ++slot) {
    const std::size_t i = slot == 0 ? k : o.slots + k;
    hn::StoreU(heads[slot][0], d, o.e0.data() + i);
    hn::StoreU(heads[slot][1], d, o.e1.data() + i);
    hn::StoreU(heads[slot][2], d, o.e2.data() + i);
  }
}

/// Crossing triangles k... (lanes past `count` zero), looked up or staged
/// (looksUp).
HWY_INLINE StagedTriangles crossingTriangles(D d, const HullSoA& hull, const BoatBuffers& b, std::size_t k, M valid,
                                             bool lookUp, bool velocities, bool heads) {
  return lookUp ? lookUpCrossing(d, hull, b, k, valid) : loadStaged(d, b.stage, k, velocities, heads);
}

/// The waterline cut (docs/model.md, "The cut") for a vector of crossing
/// triangles at once: both of its cases are computed and the lane's own is
/// kept (every division there has a positive denominator in both cases, so
/// nothing blows up in the case not taken). With `velocities`, the water
/// velocity at each piece's centroid too: the mean of its corners', each
/// interpolated along the hull's edge as the corner itself is. With
/// `heads`, the pressure heads at the pieces' corners: the wet corners'
/// own, 0 on the waterline, as the depths. Only what `output` asks for
/// (CutOutput).
void CutKernel(const HullSoA& hull, BoatBuffers& b, std::size_t count, bool velocities, bool heads, CutOutput output) {
  const D d;
  const V one = hn::Set(d, T(1)), third = hn::Set(d, T(1.0 / 3.0));
  const bool lookUp = looksUp(d, hull, velocities, heads);
  if (!lookUp) stageCrossing(hull, b, count, velocities, heads);
  PieceBuffer& o = b.pieces;
  const std::size_t slots = o.slots;
  for (std::size_t k = 0; k < slots; k += hn::Lanes(d)) {
    const M valid = validLanes(d, k, count);
    const StagedTriangles in = crossingTriangles(d, hull, b, k, valid, lookUp, velocities, heads);
    const CutLanes cut(d, valid, in.h0, in.h1, in.h2);
    const PieceCorners r = cut.atPieceCorners(d, in.p0, in.p1, in.p2);
    const PieceShares share(d, cut);
    // Only the first o.twoSlots triangles (the two-wet ones, which
    // classifyTriangles puts first) have second slots.
    const int pieces = k < o.twoSlots ? 2 : 1;
    for (int slot = 0; slot < pieces; ++slot)
      storePiece(d, r.of[slot], share.depths[slot], share.fractions[slot], in.area, in.sv, share.some[slot], output, o,
                 slot == 0 ? k : slots + k);
    if (output == CutOutput::Volume) continue;
    if (heads) storeHeads(d, cut, in, pieces, o, k);
    if (output == CutOutput::Pressure) continue;
    if (velocities) {
      V3 u[2];
      cut.pieceMeans(in.u0, in.u1, in.u2, third, u);
      for (int slot = 0; slot < pieces; ++slot)
        store3(d, u[slot], o.ux.data(), o.uy.data(), o.uz.data(), slot == 0 ? k : slots + k);
    }
    // The triangle's emerged fraction and waterline segment.
    hn::StoreU(cut.sel(hn::Sub(one, hn::Mul(cut.t1, cut.t2)), hn::Mul(hn::Sub(one, cut.a), hn::Sub(one, cut.b))), d,
               o.emerged.data() + k);
    store3(d, cut.sel3(r.j1, r.j2), o.px.data(), o.py.data(), o.pz.data(), k);
    store3(d, cut.sel3(r.j2, r.j1), o.qx.data(), o.qy.data(), o.qz.data(), k);
  }
}

/// The pressure integral's sums of the whole triangles' stream and of the
/// pieces (cutAndSum): the triangles' block summed first, then each piece
/// cut as CutKernel cuts it and summed as the pressure kernel
/// sums the stored one (addTerms), in the stream's order: a slot's pieces
/// are one triangle's first and second (at most a block of slots), so that
/// adding them in turn, a vector of triangles at a time, is that order. The
/// two blocks' totals then as the pressure kernel's (twoBlockTotals).
void CutSumsKernel(const HullSoA& hull, BoatBuffers& b, std::size_t count, const T* up, PressureSums& out) {
  const D d;
  const V3 upv = set3(d, {up[0], up[1], up[2]});
  const PieceStream whole = b.triangles(hull);
  SumBlock<kDepthSums> triangles, pieces;
  static_cast<void>(addBlock<false>(d, whole, 0, whole.count, upv, triangles.sum));
  const bool lookUp = looksUp(d, hull, false, false);
  if (!lookUp) stageCrossing(hull, b, count, false, false);
  const std::size_t twoSlots = b.pieces.twoSlots;
  // Only the vectors that hold a crossing triangle: the slots past them
  // (padding to the widest vector) would add zeros, which change no sum's
  // bits (a sum started at +0 is never -0).
  for (std::size_t k = 0; k < count; k += hn::Lanes(d)) {
    const M valid = validLanes(d, k, count);
    sumCutPieces(d, crossingTriangles(d, hull, b, k, valid, lookUp, false, false), valid, k, twoSlots, upv, pieces.sum);
  }
  twoBlockTotals<false>(triangles, pieces, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace keel::KEEL_ABI::detail {

HWY_EXPORT(CutKernel);
HWY_EXPORT(CutSumsKernel);

void cutCrossing(const HullSoA& hull, BoatBuffers& b, std::size_t count, bool velocities, bool heads,
                 CutOutput output) {
  countPieces(b.pieces, count, b.twoWetCrossing);
  HWY_DYNAMIC_DISPATCH(CutKernel)(hull, b, count, velocities, heads, output);
}

bool cutSums(const HullSoA& hull, std::size_t count) {
  // One block of the pressure sums' slots for the pieces, one block of
  // eight vectors of them for the triangles (pressure.cpp's kBlock).
  const std::size_t slots = 64 / sizeof(btScalar);
  return padded(count) <= slots && hull.trianglePadded <= 8 * slots;
}

void cutAndSum(const HullSoA& hull, BoatBuffers& b, std::size_t count, const btScalar up[3], PressureSums& sums) {
  countPieces(b.pieces, count, b.twoWetCrossing);
  HWY_DYNAMIC_DISPATCH(CutSumsKernel)(hull, b, count, up, sums);
}

}  // namespace keel::KEEL_ABI::detail
#endif  // HWY_ONCE
