// Cutting a hull into columns (column_build.hpp). A closed surface's volume
// is the integral of the height s over its faces' projections on the plane
// across up, signed by which way each face points (the divergence theorem
// with the field (0, 0, s)); restricted to one cell's square, it is the
// volume over that cell. Each triangle's projection is clipped to every
// cell it covers (I. Sutherland and G. Hodgman, "Reentrant polygon
// clipping", CACM 17(1), 1974) and the height plane integrated over the
// clipped polygon exactly: a fan of triangles, each with the edge-midpoint
// rule, exact for polynomials of degree 2 (so for s, a s, b s and s^2 / 2).
// Parts that overlap are replaced by their union where they do
// (column_union.cpp).
#include "columns/column_build.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI::detail {
namespace {

/// Keeps the part of `in` where sign (coordinate k - edge) >= 0.
Polygon clipAgainst(const Polygon& in, int k, double edge, double sign) {
  Polygon out;
  auto inside = [&](const Point2& q) { return sign * ((k == 0 ? q.a : q.b) - edge) >= 0; };
  for (int i = 0; i < in.n; ++i) {
    const Point2& p = in.p[std::size_t(i)];
    const Point2& q = in.p[std::size_t((i + 1) % in.n)];
    const bool pi = inside(p), qi = inside(q);
    if (pi) out.p[std::size_t(out.n++)] = p;
    if (pi != qi) {
      const double pk = k == 0 ? p.a : p.b, qk = k == 0 ? q.a : q.b;
      const double t = (edge - pk) / (qk - pk);
      out.p[std::size_t(out.n++)] = Point2{p.a + t * (q.a - p.a), p.b + t * (q.b - p.b)};
    }
  }
  return out;
}

/// Each triangle's part: the connected surfaces, by shared vertices.
std::vector<std::uint32_t> triangleParts(const Hull& hull) {
  std::vector<std::uint32_t> parent(hull.vertices().size());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const Hull::Triangle& t : hull.triangles())
    for (int k = 1; k < 3; ++k) parent[find(t[std::size_t(k)])] = find(t[0]);
  std::vector<std::uint32_t> id(parent.size(), ~0u), parts;
  std::uint32_t next = 0;
  for (const Hull::Triangle& t : hull.triangles()) {
    std::uint32_t& part = id[find(t[0])];
    if (part == ~0u) part = next++;
    parts.push_back(part);
  }
  return parts;
}

/// Each triangle's part for a hull whose parts overlap: the surfaces
/// connected by shared edges, so that parts overlapping at a shared vertex
/// stay apart (their union is taken part against part).
std::vector<std::uint32_t> trianglePartsByEdges(const Hull& hull) {
  const auto triangles = hull.triangles();
  std::vector<std::uint32_t> parent(triangles.size());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> firstUse;
  for (std::uint32_t t = 0; t < triangles.size(); ++t)
    for (std::size_t k = 0; k < 3; ++k) {
      const std::uint32_t u = triangles[t][k], v = triangles[t][(k + 1) % 3];
      const auto [it, added] = firstUse.emplace(std::minmax(u, v), t);
      if (!added) parent[find(t)] = find(it->second);
    }
  std::vector<std::uint32_t> id(triangles.size(), ~0u), parts;
  std::uint32_t next = 0;
  for (std::uint32_t t = 0; t < triangles.size(); ++t) {
    std::uint32_t& part = id[find(t)];
    if (part == ~0u) part = next++;
    parts.push_back(part);
  }
  return parts;
}

/// The column of one cell's sums, or none when it holds no volume.
bool makeColumn(const ColumnGrid& g, std::int64_t cell, std::uint32_t part, const CellSums& c, Column& out) {
  if (!(c.volume > 0)) return false;
  const double bottom = c.downArea > 0 ? c.downHeight / c.downArea : c.ms / c.volume;
  const double top = c.upArea > 0 ? c.upHeight / c.upArea : c.ms / c.volume;
  // A column too thin to have a height (a sliver of round-off) keeps its
  // volume over a height of a billionth of the cell.
  const double height = std::max(top - bottom, 1e-9 * g.cell_m);
  out.i = int(cell % g.cellsA), out.j = int(cell / g.cellsA), out.part = part;
  const double a = g.originA_m + (out.i + 0.5) * g.cell_m, b = g.originB_m + (out.j + 0.5) * g.cell_m;
  out.footprintCentre_m = g.forward * btScalar(a) + g.side * btScalar(b);
  out.bottom_m = btScalar(bottom), out.top_m = btScalar(bottom + height);
  // The bottom and top as ramps about their means, as wide as the faces'
  // heights allow on both sides (exact for a plane sloping along one grid
  // axis), together no longer than the column.
  double bottomRamp = std::max(0.0, std::min(bottom - c.bottomLow, c.bottomHigh - bottom));
  double topRamp = std::max(0.0, std::min(top - c.topLow, c.topHigh - top));
  if (!(bottomRamp + topRamp <= height)) {
    const double scale = height / (bottomRamp + topRamp);
    bottomRamp *= scale, topRamp *= scale;
  }
  out.bottomRamp_m = btScalar(bottomRamp), out.topRamp_m = btScalar(topRamp);
  out.area_m2 = btScalar(c.volume / height), out.volume_m3 = btScalar(c.volume);
  out.centroid_m = g.forward * btScalar(c.ma / c.volume) + g.side * btScalar(c.mb / c.volume) +
                   g.up * btScalar(c.ms / c.volume);
  return true;
}

/// Grid coordinates of a point of the body frame.
struct Projected {
  double a, b, s;
};

Projected project(const ColumnGrid& g, const btVector3& p) {
  return {double(p.dot(g.forward)), double(p.dot(g.side)), double(p.dot(g.up))};
}

}  // namespace

ColumnGrid columnGrid(const Hull& hull, const btVector3& up, const btVector3& forward, const btVector3& side,
                      const ColumnSettings& settings) {
  ColumnGrid g{up, forward, side};
  double lo[2] = {HUGE_VAL, HUGE_VAL}, hi[2] = {-HUGE_VAL, -HUGE_VAL};
  for (const btVector3& v : hull.vertices()) {
    const Projected p = project(g, v);
    lo[0] = std::min(lo[0], p.a), hi[0] = std::max(hi[0], p.a);
    lo[1] = std::min(lo[1], p.b), hi[1] = std::max(hi[1], p.b);
  }
  const double extent[2] = {hi[0] - lo[0], hi[1] - lo[1]};
  g.cell_m = settings.cellSize_m > 0 ? double(settings.cellSize_m)
                                     : std::sqrt(extent[0] * extent[1] / double(settings.targetColumns));
  if (!(g.cell_m > 0)) g.cell_m = std::max(extent[0], extent[1]);  // a footprint with no area
  if (!(settings.cellSize_m > 0)) {
    // Automatic: whole numbers of cells along each side, the cell grown
    // to fit (4.7 m x 0.7 m in 330 cells is Zephyr's 47 x 7 of 0.1 m).
    const double a = std::max(1.0, std::round(extent[0] / g.cell_m)),
                 b = std::max(1.0, std::round(extent[1] / g.cell_m));
    g.cell_m = std::max(extent[0] / a, extent[1] / b);
  }
  // Cells to cover the footprint (a side within round-off of a whole number of cells is that number).
  const double cellsA = std::max(1.0, std::ceil(extent[0] / g.cell_m * (1 - 1e-9)));
  const double cellsB = std::max(1.0, std::ceil(extent[1] / g.cell_m * (1 - 1e-9)));
  if (!(cellsA * cellsB <= 4194304.0))
    throw std::invalid_argument("keel::ColumnHull: " + std::to_string(cellsA) + " x " + std::to_string(cellsB) +
                                " cells of " + std::to_string(g.cell_m) + " m: more than 4,194,304");
  g.cellsA = std::int64_t(cellsA), g.cellsB = std::int64_t(cellsB);
  // The grid centred on the footprint.
  g.originA_m = 0.5 * (lo[0] + hi[0]) - 0.5 * cellsA * g.cell_m;
  g.originB_m = 0.5 * (lo[1] + hi[1]) - 0.5 * cellsB * g.cell_m;
  return g;
}

std::vector<Column> cutColumns(const Hull& hull, const ColumnGrid& g) {
  const std::vector<std::uint32_t> parts = hull.partsOverlap() ? trianglePartsByEdges(hull) : triangleParts(hull);
  const std::uint64_t partCount = parts.empty() ? 1 : *std::max_element(parts.begin(), parts.end()) + 1;
  std::map<std::uint64_t, CellSums> cells;  // by cell, then part: the columns' order
  // Parts that overlap: every clipped face kept, for their union.
  const bool overlapping = hull.partsOverlap();
  std::vector<CellPiece> pieces;
  const auto vertices = hull.vertices();
  const auto triangles = hull.triangles();
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const Projected p0 = project(g, vertices[triangles[t][0]]), p1 = project(g, vertices[triangles[t][1]]),
                    p2 = project(g, vertices[triangles[t][2]]);
    const double da1 = p1.a - p0.a, db1 = p1.b - p0.b, ds1 = p1.s - p0.s;
    const double da2 = p2.a - p0.a, db2 = p2.b - p0.b, ds2 = p2.s - p0.s;
    const double cross = da1 * db2 - da2 * db1;  // twice the signed projected area
    if (cross == 0) continue;                    // a vertical face: no volume above or below it
    const Plane plane{p0.a, p0.b, p0.s, (ds1 * db2 - ds2 * db1) / cross, (da1 * ds2 - da2 * ds1) / cross};
    Polygon tri;
    tri.p[0] = {p0.a, p0.b}, tri.p[1] = {p1.a, p1.b}, tri.p[2] = {p2.a, p2.b}, tri.n = 3;
    auto cellOf = [&](double x, double origin, std::int64_t count) {
      return std::clamp(std::int64_t(std::floor((x - origin) / g.cell_m)), std::int64_t(0), count - 1);
    };
    const std::int64_t i0 = cellOf(std::min({p0.a, p1.a, p2.a}), g.originA_m, g.cellsA);
    const std::int64_t i1 = cellOf(std::max({p0.a, p1.a, p2.a}), g.originA_m, g.cellsA);
    const std::int64_t j0 = cellOf(std::min({p0.b, p1.b, p2.b}), g.originB_m, g.cellsB);
    const std::int64_t j1 = cellOf(std::max({p0.b, p1.b, p2.b}), g.originB_m, g.cellsB);
    for (std::int64_t j = j0; j <= j1; ++j) {
      const double b0 = g.originB_m + double(j) * g.cell_m;
      const Polygon row = clipAgainst(clipAgainst(tri, 1, b0, 1), 1, b0 + g.cell_m, -1);
      if (row.n < 3) continue;
      for (std::int64_t i = i0; i <= i1; ++i) {
        const double a0 = g.originA_m + double(i) * g.cell_m;
        const Polygon cell = clipAgainst(clipAgainst(row, 0, a0, 1), 0, a0 + g.cell_m, -1);
        if (cell.n < 3) continue;
        const std::uint64_t key = std::uint64_t(j * g.cellsA + i) * partCount + parts[t];
        CellSums& sums = cells[key];
        extendRanges(cell, plane, cross > 0, sums);
        integrate(cell, plane, sums);
        if (overlapping) pieces.push_back({key, cell, plane, cross > 0});
      }
    }
  }
  if (overlapping) mergeOverlappingParts(g, partCount, pieces, cells);
  std::vector<Column> columns;
  for (const auto& [key, sums] : cells) {
    Column c;
    if (makeColumn(g, std::int64_t(key / partCount), std::uint32_t(key % partCount), sums, c)) columns.push_back(c);
  }
  return columns;
}

}  // namespace keel::KEEL_ABI::detail
