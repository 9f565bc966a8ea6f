// The waterline cut of a vector of crossing triangles, lane by lane
// (docs/model.md, "The cut"): what the cut kernels (cut.cpp) and the small
// hull's kernel (small_hull.cpp) share, so that both cut, and sum the
// pieces they cut, to the same bits. Included once per instruction set
// (its include guard toggles as simd-inl.hpp's does), after
// pressure_sums-inl.hpp.

#include "kernels/pressure_sums-inl.hpp"
#include "kernels/simd-inl.hpp"

#if defined(KEEL_KERNELS_CUT_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef KEEL_KERNELS_CUT_LANES_INL_H_
#undef KEEL_KERNELS_CUT_LANES_INL_H_
#else
#define KEEL_KERNELS_CUT_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>

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
    // One corner wet (else two): an odd count of wet corners, a crossing
    // triangle having one or two (and the lanes past the last none, their
    // heights 0, or one, as sumCutPieces sets them).
    single = hn::Xor(hn::Xor(w0, w1), w2);
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
  [[nodiscard]] HWY_INLINE M odd(M wet) const { return hn::Not(hn::Xor(single, wet)); }
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

/// (c0 + c1 + c2) / 3, given 1/3 as `third`.
HWY_INLINE V3 mean(const V3 (&c)[3], V third) { return scale(add(add(c[0], c[1]), c[2]), third); }

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
  HWY_INLINE PieceShares(D d, const CutLanes& cut) : PieceShares(d, cut, hn::And(cut.valid, cut.twoWet)) {}
  /// `secondPiece`: the valid lanes with two corners wet; cut.twoWet alone
  /// where no lane past the last has two (sumCutPieces' lanes).
  HWY_INLINE PieceShares(D d, const CutLanes& cut, M secondPiece)
      : depths{{cut.only(cut.single, hn::Neg(cut.g0)), hn::IfThenElseZero(secondPiece, hn::Neg(cut.g1)),
                hn::IfThenElseZero(secondPiece, hn::Neg(cut.g2))},
               {hn::Zero(d), hn::IfThenElseZero(secondPiece, hn::Neg(cut.g2)), hn::Zero(d)}},
        fractions{cut.sel(hn::Mul(cut.t1, cut.t2), cut.a),
                  hn::IfThenElseZero(secondPiece, hn::Mul(cut.b, hn::Sub(hn::Set(d, T(1)), cut.a)))},
        some{cut.valid, secondPiece} {}
};

/// Cuts crossing triangles k... (`in`, lanes past the last zero and not
/// `valid`) and adds their pieces' pressure terms to `pieces`, summed as
/// the pressure kernel sums the stored ones (addTerms; storePiece's
/// values): the first pieces in slots k..., the second (k < twoSlots) in
/// slots + k..., whose sums are the first's (slots, a multiple of kPad, is
/// one of the sums' slot count): added at k.
///
/// A lane without a piece adds terms of +-0 (which change no sum: a sum
/// started at +0 is never -0) when the piece's depths and share are zero
/// there and its corners finite: so only those are masked, not every
/// corner as storePiece's are. Lanes past the last are cut as a triangle
/// with one corner wet (heights -1, 1, 1: finite fractions whatever their
/// heights were), so that their corners are finite, and have no second
/// piece; a triangle with one corner wet has none either, whatever its
/// second piece's corners.
HWY_INLINE void sumCutPieces(D d, const StagedTriangles& in, M valid, std::size_t k, std::size_t twoSlots, V3 upv,
                             Sum* pieces) {
  const V one = hn::Set(d, T(1)), third = hn::Set(d, T(1.0 / 3.0));
  const V minusOne = hn::Neg(one);
  const CutLanes cut(d, valid, hn::IfThenElse(valid, in.h0, minusOne), hn::IfThenElse(valid, in.h1, one),
                     hn::IfThenElse(valid, in.h2, one));
  const CutLanes::Rotated r = cut.rotate(in.p0, in.p1, in.p2);
  const auto pick = [&](V3 x, V3 y) HWY_ATTR {
    return V3{hn::IfThenElse(cut.single, x.x, y.x), hn::IfThenElse(cut.single, x.y, y.y),
              hn::IfThenElse(cut.single, x.z, y.z)};
  };
  // No lane past the last has two corners wet.
  const PieceShares share(d, cut, cut.twoWet);
  for (int slot = 0; slot < (k < twoSlots ? 2 : 1); ++slot) {
    PieceTerms p;
    // atPieceCorners' corners, unmasked, one piece at a time: both pieces'
    // corners made before the loop, as atPieceCorners makes them, make GCC
    // spill them in the small kernel.
    if (slot == 0)
      p.a = pick(r.q0, r.j1), p.b = pick(r.j1, r.q1), p.c = pick(r.j2, r.q2);
    else
      p.a = r.j1, p.b = r.q2, p.c = r.j2;
    const V3 corners[3] = {p.a, p.b, p.c};
    p.g = mean(corners, third);
    p.s = scale(in.sv, share.fractions[slot]);
    p.d0 = share.depths[slot][0], p.d1 = share.depths[slot][1], p.d2 = share.depths[slot][2];
    p.weightedArea = hn::Mul(in.area, share.fractions[slot]);  // (storePiece's weight, 1, times it: the same bits)
    if (slot == 0)
      addTerms<false>(d, p, upv, k, pieces);
    else  // depths 0, d, 0
      addTerms<false, true>(d, p, upv, k, pieces);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace keel::KEEL_ABI::detail
HWY_AFTER_NAMESPACE();

#endif  // KEEL_KERNELS_CUT_LANES_INL_H_
