#pragma once
// One cell's integrals for the column build (column_build.cpp) and the
// union of overlapping parts (column_union.cpp): polygons in the grid's
// plane, a face's height plane over them, and the exact integrals of the
// height over a clipped polygon.

#include <keel/config.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace keel::KEEL_ABI::detail {

/// A point in the grid's coordinates: a along forward, b along side [m].
struct Point2 {
  double a, b;
};

/// A convex polygon of at most N corners.
template <std::size_t N>
struct PolygonOf {
  std::array<Point2, N> p;
  int n = 0;
};

/// A triangle clipped by a cell's four lines.
using Polygon = PolygonOf<8>;

/// The integrals over one cell of one part (signed as the faces point).
struct CellSums {
  double upArea = 0, downArea = 0;      ///< projected areas of the faces pointing up and down [m^2]
  double upHeight = 0, downHeight = 0;  ///< integrals of s over them [m^3]
  double volume = 0, ma = 0, mb = 0, ms = 0;
  /// The least and greatest height of the faces pointing down and up [m].
  double bottomLow = HUGE_VAL, bottomHigh = -HUGE_VAL, topLow = HUGE_VAL,
         topHigh = -HUGE_VAL;  ///< integrals of s, a s, b s, s^2 / 2 (signed) [m^3, m^4]
  /// The faces' footprint's bounding rectangle in the cell [m].
  double aLow = HUGE_VAL, aHigh = -HUGE_VAL, bLow = HUGE_VAL, bHigh = -HUGE_VAL;
};

/// A triangle's height plane s(a, b) = s0 + ga (a - a0) + gb (b - b0).
struct Plane {
  double a0, b0, s0, ga, gb;
  [[nodiscard]] double at(const Point2& p) const { return s0 + ga * (p.a - a0) + gb * (p.b - b0); }
};

/// Widens the heights' ranges and the footprint's rectangle of `sums` by
/// `poly`'s corners (a face pointing up when `up`).
template <std::size_t N>
void extendRanges(const PolygonOf<N>& poly, const Plane& plane, bool up, CellSums& sums) {
  for (std::size_t k = 0; k < std::size_t(poly.n); ++k) {
    const double s = plane.at(poly.p[k]);
    double& low = up ? sums.topLow : sums.bottomLow;
    double& high = up ? sums.topHigh : sums.bottomHigh;
    low = std::min(low, s), high = std::max(high, s);
    sums.aLow = std::min(sums.aLow, poly.p[k].a), sums.aHigh = std::max(sums.aHigh, poly.p[k].a);
    sums.bLow = std::min(sums.bLow, poly.p[k].b), sums.bHigh = std::max(sums.bHigh, poly.p[k].b);
  }
}

/// Adds `weight` (1, or -1 for a piece taken away) times the integrals over
/// `poly` (wound as the triangle's projection: its signed area is positive
/// for a face pointing up). A fan of triangles, each integrated with the
/// edge-midpoint rule, exact for polynomials of degree 2 (so for s, a s,
/// b s and s^2 / 2).
template <std::size_t N>
void integrate(const PolygonOf<N>& poly, const Plane& plane, CellSums& sums, double weight = 1) {
  for (std::size_t k = 1; k + 1 < std::size_t(poly.n); ++k) {
    const Point2 v[3] = {poly.p[0], poly.p[k], poly.p[k + 1]};
    const double area = weight *
                        (0.5 * ((v[1].a - v[0].a) * (v[2].b - v[0].b) - (v[2].a - v[0].a) * (v[1].b - v[0].b)));
    double i1 = 0, ia = 0, ib = 0, iss = 0;
    for (int e = 0; e < 3; ++e) {
      const Point2 m{0.5 * (v[e].a + v[(e + 1) % 3].a), 0.5 * (v[e].b + v[(e + 1) % 3].b)};
      const double s = plane.at(m);
      i1 += s, ia += m.a * s, ib += m.b * s, iss += 0.5 * s * s;
    }
    const double w = area / 3;
    sums.volume += w * i1, sums.ma += w * ia, sums.mb += w * ib, sums.ms += w * iss;
    if ((area > 0) == (weight > 0))
      sums.upArea += area, sums.upHeight += w * i1;
    else
      sums.downArea -= area, sums.downHeight -= w * i1;
  }
}

}  // namespace keel::KEEL_ABI::detail
