#pragma once
// The waterline cut of one crossing triangle (docs/model.md, "The cut"), for
// the reference cutHull (hydrostatics.cpp); the SIMD path's kernels/cut.cpp
// makes the same cut lane by lane.

#include <keel/hydrostatics.hpp>

#include <cstdint>
#include <span>

namespace keel::detail {

/// A piece vertex and where it lies on the hull.
struct CutPoint {
  btVector3 r;
  btScalar depth_m;
  EdgePoint source;
};

inline CutPoint hullVertex(std::span<const btVector3> r, std::span<const btScalar> h_m, std::uint32_t i) {
  return {r[i], -h_m[i], {i, i, 0}};
}

/// Where the water surface crosses the edge from submerged vertex `below`
/// (h < 0) to `above` (h >= 0), by linear interpolation of h (exact for
/// planar water over the triangle, design.md §1.1 step 3). Depth 0 there.
inline CutPoint waterlinePoint(std::span<const btVector3> r, std::span<const btScalar> h_m, std::uint32_t below,
                        std::uint32_t above) {
  const btScalar t = h_m[below] / (h_m[below] - h_m[above]);  // h_below < 0 <= h_above: denominator < 0
  return {r[below] + (r[above] - r[below]) * t, 0, {below, above, t}};
}

/// Cuts a hull triangle that crosses the waterline (1 or 2 vertices wet),
/// giving `sink` its pieces (`piece(a, b, c, triangle, s, area, fraction)`:
/// the piece covers `fraction` of the triangle of area vector s), its
/// waterline segment and its emerged fraction. The one cut of both the
/// reference pipeline and the SIMD path.
template <class Sink>
void cutCrossingTriangle(std::span<const btVector3> r, std::span<const btScalar> h_m, const Hull::Triangle& tri,
                         std::uint32_t triangle, btScalar area_m2, const bool (&wet)[3], Sink& sink) {
  const int wetCount = int(wet[0]) + int(wet[1]) + int(wet[2]);
  const btVector3 s = areaVector_m2(r[tri[0]], r[tri[1]], r[tri[2]]);
  // Rotate (never reflect: the winding is the outward normal) so that the
  // odd vertex out comes first: the wet one when one is wet, the dry one
  // when two are.
  int first = 0;
  for (int k = 0; k < 3; ++k)
    if (wet[k] == (wetCount == 1)) first = k;
  const std::uint32_t v0 = tri[first], v1 = tri[(first + 1) % 3], v2 = tri[(first + 2) % 3];
  if (wetCount == 1) {
    // Only v0 wet: the piece is (v0, J1, J2), J on edges v0v1 and v0v2 at
    // fractions t1, t2 from v0, so its area is t1 t2 of the triangle's.
    const CutPoint j1 = waterlinePoint(r, h_m, v0, v1), j2 = waterlinePoint(r, h_m, v0, v2);
    const btScalar wetFraction = j1.source.t * j2.source.t;
    sink.piece(hullVertex(r, h_m, v0), j1, j2, triangle, s, area_m2, wetFraction);
    sink.waterline(j1.r, j2.r);
    sink.emerged(triangle, 1 - wetFraction);
  } else {
    // Only v0 dry: the wet quadrilateral (I1, v1, v2, I2) as two triangles,
    // I1 at fraction a from v1 towards v0, I2 at b from v2. (I1, v1, v2) has
    // a times the triangle's height over the same base: area a; the dry
    // corner (v0, I1, I2) has (1 - a)(1 - b); (I1, v2, I2) the rest, b (1 - a).
    const CutPoint i1 = waterlinePoint(r, h_m, v1, v0), i2 = waterlinePoint(r, h_m, v2, v0);
    const btScalar a = i1.source.t, b = i2.source.t;
    sink.piece(i1, hullVertex(r, h_m, v1), hullVertex(r, h_m, v2), triangle, s, area_m2, a);
    sink.piece(i1, hullVertex(r, h_m, v2), i2, triangle, s, area_m2, b * (1 - a));
    sink.waterline(i2.r, i1.r);
    sink.emerged(triangle, (1 - a) * (1 - b));
  }
}

}  // namespace keel::detail
