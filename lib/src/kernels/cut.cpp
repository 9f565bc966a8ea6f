// The cut kernels (cut.hpp), one copy per instruction set (simd-inl.hpp):
// the cut into stored pieces, and a small hull's cut summed into the
// pressure integral as it is cut (cutAndSum); and the scalar passes around
// them.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cut.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/cut.hpp"
#include "kernels/pressure_sums-inl.hpp"
#include "kernels/simd-inl.hpp"

#include <algorithm>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace keel::KEEL_ABI::detail {
namespace HWY_NAMESPACE {

/// A vector of crossing triangles as cutCrossing staged them: corners, area
/// vector, area and corners' heights [m, m^2], and the corners' water
/// velocities [m/s] and pressure heads [m] (zero unless asked for). Body
/// frame.
struct StagedTriangles {
  V3 p0, p1, p2, sv, u0, u1, u2;
  V area, h0, h1, h2, e0, e1, e2;
};

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

/// A field given at a triangle's corners (positions, water velocities) at
/// its pieces' corners, of[piece][corner]. First piece: (v0, J1, J2)
/// covering t1 t2, or (I1, v1, v2) covering a; second piece (two wet only):
/// (I1, v2, I2) covering b (1 - a). Zero in lanes without the piece.
struct PieceCorners {
  V3 of[2][3];
  V3 j1, j2;  ///< the waterline's ends
};

/// The cut of a vector of crossing triangles, from their corners' heights
/// h0, h1, h2 (lanes not `valid` are past the last triangle).
struct CutLanes {
  M valid, single, twoWet, odd0, odd1;
  V g0, g1, g2;  ///< the heights, the odd corner's first [m]
  V t1, t2, a, b;

  HWY_INLINE CutLanes(D d, M validLanes, V h0, V h1, V h2) : valid(validLanes) {
    const V zero = hn::Zero(d), one = hn::Set(d, T(1));
    const M w0 = hn::Lt(h0, zero), w1 = hn::Lt(h1, zero), w2 = hn::Lt(h2, zero);
    const V wetCount = hn::Add(hn::Add(hn::IfThenElseZero(w0, one), hn::IfThenElseZero(w1, one)),
                               hn::IfThenElseZero(w2, one));
    single = hn::Eq(wetCount, one);  // one corner wet (else two)
    twoWet = hn::Not(single);
    // The odd corner out comes first (the wet one of one, the dry one of
    // two), by rotation: the winding, and so the normal, is kept.
    odd0 = odd(w0), odd1 = odd(w1);
    g0 = pick(h0, h1, h2), g1 = pick(h1, h2, h0), g2 = pick(h2, h0, h1);
    // One wet (v0): J1, J2 at fractions t1, t2 from v0 along v0v1, v0v2.
    // Two wet (v0 dry): I1 at a from v1 towards v0, I2 at b from v2. They
    // are the same points as J1 and J2, where the height crosses zero on
    // v0v1 and v0v2 (the reference computes them from the other end, equal
    // to rounding), so a = 1 - t1 and b = 1 - t2.
    t1 = hn::Div(g0, hn::Sub(g0, g1)), t2 = hn::Div(g0, hn::Sub(g0, g2));
    a = hn::Sub(one, t1), b = hn::Sub(one, t2);
  }
  [[nodiscard]] HWY_INLINE M odd(M wet) const { return hn::Or(hn::And(single, wet), hn::AndNot(single, hn::Not(wet))); }
  /// The value of the odd corner: x0 when it is corner 0, x1 for 1, x2 for 2.
  [[nodiscard]] HWY_INLINE V pick(V x0, V x1, V x2) const {
    return hn::IfThenElse(odd0, x0, hn::IfThenElse(odd1, x1, x2));
  }
  [[nodiscard]] HWY_INLINE V3 pick3(V3 x0, V3 x1, V3 x2) const {
    return V3{pick(x0.x, x1.x, x2.x), pick(x0.y, x1.y, x2.y), pick(x0.z, x1.z, x2.z)};
  }
  /// x where one corner is wet, y where two are; zero in invalid lanes.
  [[nodiscard]] HWY_INLINE V sel(V x, V y) const { return hn::IfThenElseZero(valid, hn::IfThenElse(single, x, y)); }
  [[nodiscard]] HWY_INLINE V3 sel3(V3 x, V3 y) const { return V3{sel(x.x, y.x), sel(x.y, y.y), sel(x.z, y.z)}; }
  /// x where `m` and valid, else zero.
  [[nodiscard]] HWY_INLINE V only(M m, V x) const { return hn::IfThenElseZero(hn::And(valid, m), x); }
  /// A field given at the triangle's corners: at its corners, the odd
  /// one's first (q0, q1, q2), and at the waterline's ends (j1, j2).
  struct Rotated {
    V3 q0, q1, q2, j1, j2;
  };
  [[nodiscard]] HWY_INLINE Rotated rotate(V3 f0, V3 f1, V3 f2) const {
    const V3 q0 = pick3(f0, f1, f2), q1 = pick3(f1, f2, f0), q2 = pick3(f2, f0, f1);
    return {q0, q1, q2, add(q0, scale(sub(q1, q0), t1)), add(q0, scale(sub(q2, q0), t2))};
  }
  [[nodiscard]] HWY_INLINE PieceCorners atPieceCorners(D d, V3 f0, V3 f1, V3 f2) const {
    const V zero = hn::Zero(d);
    const V3 none{zero, zero, zero};
    const Rotated r = rotate(f0, f1, f2);
    return PieceCorners{{{sel3(r.q0, r.j1), sel3(r.j1, r.q1), sel3(r.j2, r.q2)},
                         {sel3(none, r.j1), sel3(none, r.q2), sel3(none, r.j2)}},
                        r.j1,
                        r.j2};
  }
  /// The mean of the field over each piece's corners (atPieceCorners'),
  /// ((c0 + c1) + c2) / 3 as `mean` takes it, each case's sum taken before
  /// the case is picked rather than each corner: the same operations in
  /// every lane that holds the piece, and zero in the rest.
  HWY_INLINE void pieceMeans(V3 f0, V3 f1, V3 f2, V third, V3 (&of)[2]) const {
    const Rotated r = rotate(f0, f1, f2);
    of[0] = scale(sel3(add(add(r.q0, r.j1), r.j2), add(add(r.j1, r.q1), r.q2)), third);
    const V3 second = add(add(r.j1, r.q2), r.j2);
    of[1] = scale(V3{only(twoWet, second.x), only(twoWet, second.y), only(twoWet, second.z)}, third);
  }
};

HWY_INLINE void store3(D d, V3 v, T* x, T* y, T* z, std::size_t i) {
  hn::StoreU(v.x, d, x + i), hn::StoreU(v.y, d, y + i), hn::StoreU(v.z, d, z + i);
}

/// (c0 + c1 + c2) / 3, given 1/3 as `third`.
HWY_INLINE V3 mean(const V3 (&c)[3], V third) { return scale(add(add(c[0], c[1]), c[2]), third); }

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

/// The lanes before `count` of the vector of crossing triangles k... (not an
/// Iota compared with it: on x86 GCC builds the Iota in memory, whose load
/// then waits for its stores).
HWY_INLINE M validLanes(D d, std::size_t k, std::size_t count) { return hn::FirstN(d, count - std::min(count, k)); }

/// Each lane's pieces' depths at their corners [m] and the fractions of
/// the triangle they cover, of[piece][...], from its cut (CutLanes); and
/// the lanes that hold each piece.
struct PieceShares {
  V depths[2][3];
  V fractions[2];
  M some[2];
  HWY_INLINE PieceShares(D d, const CutLanes& cut)
      : depths{{cut.only(cut.single, hn::Neg(cut.g0)), cut.only(cut.twoWet, hn::Neg(cut.g1)),
                cut.only(cut.twoWet, hn::Neg(cut.g2))},
               {hn::Zero(d), cut.only(cut.twoWet, hn::Neg(cut.g2)), hn::Zero(d)}},
        fractions{cut.sel(hn::Mul(cut.t1, cut.t2), cut.a),
                  cut.only(cut.twoWet, hn::Mul(cut.b, hn::Sub(hn::Set(d, T(1)), cut.a)))},
        some{cut.valid, hn::And(cut.valid, cut.twoWet)} {}
};

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
  const V one = hn::Set(d, T(1)), third = hn::Set(d, T(1.0 / 3.0));
  const V3 upv = set3(d, {up[0], up[1], up[2]});
  const PieceStream whole = b.triangles(hull);
  SumBlock<kDepthSums> triangles, pieces;
  static_cast<void>(addBlock<false>(d, whole, 0, whole.count, upv, triangles.sum));
  const bool lookUp = looksUp(d, hull, false, false);
  if (!lookUp) stageCrossing(hull, b, count, false, false);
  const std::size_t slots = b.pieces.slots, twoSlots = b.pieces.twoSlots;
  // Only the vectors that hold a crossing triangle: the slots past them
  // (padding to the widest vector) would add zeros, which change no sum's
  // bits (a sum started at +0 is never -0).
  for (std::size_t k = 0; k < count; k += hn::Lanes(d)) {
    const M valid = validLanes(d, k, count);
    const StagedTriangles in = crossingTriangles(d, hull, b, k, valid, lookUp, false, false);
    const CutLanes cut(d, valid, in.h0, in.h1, in.h2);
    const PieceCorners r = cut.atPieceCorners(d, in.p0, in.p1, in.p2);
    const PieceShares share(d, cut);
    for (int slot = 0; slot < (k < twoSlots ? 2 : 1); ++slot) {
      // storePiece's values.
      PieceTerms p;
      p.a = r.of[slot][0], p.b = r.of[slot][1], p.c = r.of[slot][2];
      p.g = mean(r.of[slot], third);
      p.s = scale(in.sv, share.fractions[slot]);
      p.d0 = share.depths[slot][0], p.d1 = share.depths[slot][1], p.d2 = share.depths[slot][2];
      p.weightedArea = hn::Mul(hn::IfThenElseZero(share.some[slot], one), hn::Mul(in.area, share.fractions[slot]));
      addTerms<false>(d, p, upv, slot == 0 ? k : slots + k, pieces.sum);
    }
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

namespace {

/// The pieces' slots for `count` crossing triangles (PieceBuffer).
void countPieces(PieceBuffer& pieces, std::size_t count, std::size_t twoWet) {
  pieces.crossing = count;
  pieces.slots = padded(count);
  pieces.twoSlots = padded(std::min(count, twoWet));
}

}  // namespace

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
