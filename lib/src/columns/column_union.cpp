// The union of overlapping parts, cell by cell (column_build.hpp).
//
// A face of part p is on the union's surface where it lies outside every
// other part. Seen along the column, a point is inside a closed part q when
// q's faces above it sum to 1, counting +1 for each that points up and -1
// for each that points down (0 outside): in_q = sum over q's faces g of
// s_g [g covers the point and lies above it]. The share of p's face on the
// union's surface is then
//
//   prod over q != p of (1 - in_q) = sum over sets S of other parts of
//                                    (-1)^|S| prod over q in S of in_q,
//
// and a product of such indicators is the indicator of an intersection of
// convex polygons: the face's polygon clipped by each chosen g's polygon
// and by the half-plane where g is above the face (Sutherland-Hodgman). The
// integrals of the face's height plane over those convex pieces are exact
// (column_cells.hpp), so the union's volume, centroid, and mean bottom and
// top are exact too, by the same divergence theorem as one part's.
//
// Faces that coincide (a deck shared by two boxes, a part and its copy) are
// decided as if every part were grown outward by a vanishing amount, more
// for a lower-numbered part: of two faces pointing the same way, the
// lower-numbered part's is kept; two facing each other both lie inside the
// union.

#include "columns/column_build.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <stdexcept>
#include <string>

namespace keel::KEEL_ABI::detail {
namespace {

/// A face's polygon clipped by other parts' faces: each clip adds at most
/// one corner to a convex polygon, and a cell's face has at most 7, so a
/// face clipped by 6 other parts' faces (7 sides each) and as many
/// half-planes has at most 7 + 6 x 8 = 55.
using Piece = PolygonOf<64>;
constexpr std::size_t kMostParts = 7;  ///< parts overlapping in one cell

/// Keeps the part of `in` where the linear function with values `value` at
/// its corners is >= 0.
Piece clipWhere(const Piece& in, const std::array<double, 64>& value) {
  Piece out;
  for (int i = 0; i < in.n; ++i) {
    const int j = (i + 1) % in.n;
    const double vi = value[std::size_t(i)], vj = value[std::size_t(j)];
    if (out.n + 2 > int(out.p.size()))
      throw std::logic_error("keel::ColumnHull: a clipped face outgrew its corners");  // kMostParts prevents it
    const Point2& p = in.p[std::size_t(i)];
    const Point2& q = in.p[std::size_t(j)];
    if (vi >= 0) out.p[std::size_t(out.n++)] = p;
    if ((vi >= 0) != (vj >= 0)) {
      const double t = vi / (vi - vj);
      out.p[std::size_t(out.n++)] = Point2{p.a + t * (q.a - p.a), p.b + t * (q.b - p.b)};
    }
  }
  return out;
}

/// `in` clipped to the convex polygon `g` (wound either way).
Piece clipTo(Piece in, const Polygon& g) {
  double twiceArea = 0;
  for (int k = 0; k < g.n; ++k) {
    const Point2& p = g.p[std::size_t(k)];
    const Point2& q = g.p[std::size_t((k + 1) % g.n)];
    twiceArea += p.a * q.b - q.a * p.b;
  }
  if (twiceArea == 0) return Piece{};  // a face clipped to a point or a segment covers nothing
  const double orientation = twiceArea > 0 ? 1 : -1;
  std::array<double, 64> value{};
  for (int k = 0; k < g.n && in.n >= 3; ++k) {
    const Point2& p = g.p[std::size_t(k)];
    const Point2& q = g.p[std::size_t((k + 1) % g.n)];
    for (int i = 0; i < in.n; ++i) {
      const Point2& x = in.p[std::size_t(i)];
      value[std::size_t(i)] = orientation * ((q.a - p.a) * (x.b - p.b) - (q.b - p.b) * (x.a - p.a));
    }
    in = clipWhere(in, value);
  }
  return in;
}

/// One part's faces in the cell.
struct PartFaces {
  std::uint32_t part;
  std::span<const CellPiece> faces;
};

/// The parts being joined in one cell, and the height difference below
/// which two faces coincide [m].
struct Group {
  std::vector<PartFaces> parts;
  double tie_m = 0;
};

/// Whether g (of part q) counts as above a face f (of part p) where the two
/// coincide: as if each part were grown outward, a lower-numbered one more.
bool tieIsAbove(bool fUp, bool gUp, std::uint32_t p, std::uint32_t q) {
  return (!fUp && gUp) || (fUp && gUp && q < p) || (!fUp && !gUp && q > p);
}

/// The part of `piece` (of face f, part p) where face g lies above f.
Piece whereAbove(const Piece& piece, const CellPiece& f, std::uint32_t p, const CellPiece& g, std::uint32_t q,
                 double tie_m) {
  std::array<double, 64> d{};
  double largest = 0;
  for (int i = 0; i < piece.n; ++i) {
    const Point2& x = piece.p[std::size_t(i)];
    d[std::size_t(i)] = g.plane.at(x) - f.plane.at(x);
    largest = std::max(largest, std::abs(d[std::size_t(i)]));
  }
  if (largest <= tie_m) return tieIsAbove(f.up, g.up, p, q) ? piece : Piece{};
  return clipWhere(piece, d);
}

/// Adds `weight` times the integrals over `piece` of face f (of part p),
/// less its parts inside the group's parts from index `from` on: the
/// inclusion-exclusion sum of the file's comment.
void addOutside(const Group& group, const CellPiece& f, std::uint32_t p, const Piece& piece, double weight,
                std::size_t from, CellSums& sums) {
  integrate(piece, f.plane, sums, weight);
  for (std::size_t m = from; m < group.parts.size(); ++m) {
    const std::uint32_t q = group.parts[m].part;
    if (q == p) continue;
    for (const CellPiece& g : group.parts[m].faces) {
      const Piece inG = clipTo(piece, g.polygon);
      if (inG.n < 3) continue;
      const Piece covered = whereAbove(inG, f, p, g, q, group.tie_m);
      if (covered.n < 3) continue;
      addOutside(group, f, p, covered, g.up ? -weight : weight, m + 1, sums);
    }
  }
}

/// The sums of the union of the group's parts in one cell.
CellSums unionSums(const Group& group, double cell_m) {
  CellSums u;
  for (const PartFaces& part : group.parts)
    for (const CellPiece& f : part.faces) {
      CellSums r;
      Piece piece;
      piece.n = f.polygon.n;
      std::copy_n(f.polygon.p.begin(), f.polygon.n, piece.p.begin());
      addOutside(group, f, part.part, piece, 1, 0, r);
      u.upArea += r.upArea, u.downArea += r.downArea, u.upHeight += r.upHeight, u.downHeight += r.downHeight;
      u.volume += r.volume, u.ma += r.ma, u.mb += r.mb, u.ms += r.ms;
      // The heights' ranges (for the ramps) from the faces left on the surface.
      if (std::abs(r.upArea) + std::abs(r.downArea) > 1e-9 * cell_m * cell_m) extendRanges(f.polygon, f.plane, f.up, u);
    }
  return u;
}

/// Whether two parts' faces in a cell overlap in footprint and in height
/// (their rectangles and height ranges, strictly: touching is not).
bool overlap(const CellSums& x, const CellSums& y) {
  const double xLow = std::min(x.bottomLow, x.topLow), xHigh = std::max(x.bottomHigh, x.topHigh);
  const double yLow = std::min(y.bottomLow, y.topLow), yHigh = std::max(y.bottomHigh, y.topHigh);
  return std::min(xHigh, yHigh) > std::max(xLow, yLow) && std::min(x.aHigh, y.aHigh) > std::max(x.aLow, y.aLow) &&
         std::min(x.bHigh, y.bHigh) > std::max(x.bLow, y.bLow);
}

using Cells = std::map<std::uint64_t, CellSums>;

/// Joins the overlapping parts among one cell's `here`; the keys folded
/// into another part's union go to `merged`.
void mergeCell(const ColumnGrid& g, std::uint64_t partCount, std::span<const CellPiece> pieces,
               const std::vector<Cells::iterator>& here, std::vector<std::uint64_t>& merged) {
  std::vector<std::size_t> root(here.size());
  std::iota(root.begin(), root.end(), std::size_t(0));
  auto find = [&](std::size_t k) {
    while (root[k] != k) k = root[k] = root[root[k]];
    return k;
  };
  for (std::size_t x = 0; x < here.size(); ++x)
    for (std::size_t y = x + 1; y < here.size(); ++y)
      if (overlap(here[x]->second, here[y]->second)) {
        const std::size_t rx = find(x), ry = find(y);  // the root stays the lowest index
        root[std::max(rx, ry)] = std::min(rx, ry);
      }
  for (std::size_t first = 0; first < here.size(); ++first) {
    if (find(first) != first) continue;
    Group group;
    double largest_m = 0;
    for (std::size_t k = first; k < here.size(); ++k) {
      if (find(k) != first) continue;
      const std::uint64_t key = here[k]->first;
      const auto [lo, hi] = std::equal_range(pieces.begin(), pieces.end(), CellPiece{key, {}, {}, false},
                                             [](const CellPiece& a, const CellPiece& b) { return a.key < b.key; });
      group.parts.push_back({std::uint32_t(key % partCount), std::span<const CellPiece>(lo, hi)});
      const CellSums& s = here[k]->second;
      for (const double h : {s.bottomLow, s.bottomHigh, s.topLow, s.topHigh})  // +-HUGE_VAL: no such face
        if (std::isfinite(h)) largest_m = std::max(largest_m, std::abs(h));
      if (k != first) merged.push_back(key);
    }
    if (group.parts.size() < 2) continue;
    if (group.parts.size() > kMostParts) {
      const std::uint64_t cell = here[first]->first / partCount;
      const std::uint64_t column = cell % std::uint64_t(g.cellsA), row = cell / std::uint64_t(g.cellsA);
      const double a = g.originA_m + (double(column) + 0.5) * g.cell_m;
      const double b = g.originB_m + (double(row) + 0.5) * g.cell_m;
      throw std::invalid_argument(
          "keel::ColumnHull, union of overlapping parts: " + std::to_string(group.parts.size()) +
          " parts overlap in the cell centred at " + std::to_string(a) + " m forward, " + std::to_string(b) +
          " m to the side; at most " + std::to_string(kMostParts) +
          " may overlap in one cell (make some of them one surface)");
    }
    // Faces closer than a billionth of the cell and heights coincide.
    group.tie_m = 1e-9 * (g.cell_m + largest_m);
    here[first]->second = unionSums(group, g.cell_m);
  }
}

}  // namespace

void mergeOverlappingParts(const ColumnGrid& grid, std::uint64_t partCount, std::vector<CellPiece> pieces,
                           std::map<std::uint64_t, CellSums>& cells) {
  std::stable_sort(pieces.begin(), pieces.end(), [](const CellPiece& a, const CellPiece& b) { return a.key < b.key; });
  std::vector<std::uint64_t> merged;
  for (auto it = cells.begin(); it != cells.end();) {
    const std::uint64_t cell = it->first / partCount;
    std::vector<Cells::iterator> here;
    for (; it != cells.end() && it->first / partCount == cell; ++it) here.push_back(it);
    if (here.size() > 1) mergeCell(grid, partCount, pieces, here, merged);
  }
  for (std::uint64_t key : merged) cells.erase(key);
}

void unionVolume(const Hull& hull, double& volume_m3, btVector3& centroid_m) {
  const btVector3 up(0, 1, 0), forward(1, 0, 0);
  const ColumnGrid grid = columnGrid(hull, up, forward, up.cross(forward), ColumnSettings{});
  double volume = 0, moment[3] = {0, 0, 0};
  for (const Column& c : cutColumns(hull, grid)) {
    volume += double(c.volume_m3);
    for (int k = 0; k < 3; ++k) moment[k] += double(c.volume_m3) * double(c.centroid_m[k]);
  }
  volume_m3 = volume;
  centroid_m = btVector3(btScalar(moment[0] / volume), btScalar(moment[1] / volume), btScalar(moment[2] / volume));
}

}  // namespace keel::KEEL_ABI::detail
