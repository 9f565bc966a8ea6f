// HullOptions::closeOpenings (docs/integration.md, "Render meshes that are
// not closed") on meshes cut apart by a plane, UV seams and T-junctions.
#include "hull_close_helpers.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace keel::test {
namespace {

/// The two sides of a mesh cut by the plane where coordinate `axis` is `at`.
struct Pieces {
  Mesh below, above;  // soups: no vertex shared
};

/// Where the edge between `p` and `q` crosses the plane: the same point from
/// either triangle that has the edge (the ends taken in one order), on the
/// plane exactly.
btVector3 crossing(btVector3 p, btVector3 q, int axis, btScalar at) {
  if (std::lexicographical_compare(&q[0], &q[0] + 3, &p[0], &p[0] + 3)) std::swap(p, q);
  btVector3 r = p + (q - p) * ((at - p[axis]) / (q[axis] - p[axis]));
  r[axis] = at;
  return r;
}

/// Cuts `m` by the plane: each triangle clipped to each side (Sutherland and
/// Hodgman) and fanned from its first corner. Each piece is open along the cut.
Pieces cut(const Mesh& m, int axis, btScalar at) {
  Pieces pieces;
  for (const Hull::Triangle& t : m.triangles)
    for (const int side : {-1, 1}) {
      std::vector<btVector3> polygon;
      for (int i = 0; i < 3; ++i) {
        const btVector3 p = corner(m, t, i), q = corner(m, t, (i + 1) % 3);
        const btScalar dp = (p[axis] - at) * btScalar(side), dq = (q[axis] - at) * btScalar(side);
        if (dp >= 0) polygon.push_back(p);
        if ((dp > 0 && dq < 0) || (dp < 0 && dq > 0)) polygon.push_back(crossing(p, q, axis, at));
      }
      Mesh& piece = side < 0 ? pieces.below : pieces.above;
      for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
        const auto first = std::uint32_t(piece.vertices.size());
        piece.vertices.insert(piece.vertices.end(), {polygon[0], polygon[i], polygon[i + 1]});
        piece.triangles.push_back({first, first + 1, first + 2});
      }
    }
  return pieces;
}

/// `m` with each edge lying on the plane split at its midpoint, the
/// triangle in two: the other side's edges there now end at no vertex of
/// it, and its midpoints lie on them (T-junctions). Counts the splits.
Mesh splitOnPlane(const Mesh& m, int axis, btScalar at, std::size_t& splits) {
  Mesh out{m.vertices, {}};
  for (const Hull::Triangle& t : m.triangles) {
    int edge = -1;
    for (int i = 0; i < 3; ++i)
      if (corner(m, t, i)[axis] == at && corner(m, t, (i + 1) % 3)[axis] == at) edge = i;
    if (edge < 0) {
      out.triangles.push_back(t);
      continue;
    }
    const std::uint32_t a = t[std::size_t(edge)], b = t[std::size_t(edge + 1) % 3], c = t[std::size_t(edge + 2) % 3];
    btVector3 middle = (m.vertices[a] + m.vertices[b]) * btScalar(0.5);
    middle[axis] = at;
    const auto mid = std::uint32_t(out.vertices.size());
    out.vertices.push_back(middle);
    out.triangles.push_back({a, mid, c});
    out.triangles.push_back({mid, b, c});
    ++splits;
  }
  return out;
}

// A box and the rowboat cut by a plane into two open pieces, put back
// together: with the cut's points shared they weld shut; with one side's
// cut edges split at their midpoints (no vertex of that side on the other's
// edges' ends) the T-junctions are split and they close the same; each
// piece alone is capped on the cut, and the two volumes add up to the whole.
TEST(HullClose, PiecesCutByAPlaneMakeTheWholeAgain) {
  struct Case {
    const char* name;
    Mesh whole;
    int axis;
    btScalar at;
  };
  for (const Case& c : {Case{"box", box(btVector3(2, 1, btScalar(0.8)), 3), 1, btScalar(0.1)},
                        Case{"rowboat", mediaHull("rowboat"), 0, btScalar(0.3)}}) {
    const double whole = make(c.whole).volume_m3();
    const Pieces pieces = cut(c.whole, c.axis, c.at);
    EXPECT_THROW(make(pieces.below), HullError) << c.name;
    const Hull shared = make(joined(pieces.below, pieces.above), closing());
    EXPECT_EQ(shared.repair().loopsCapped + shared.repair().tJunctionsSplit, 0u) << c.name;
    std::size_t splits = 0;
    const Hull tJoined = make(joined(pieces.below, splitOnPlane(pieces.above, c.axis, c.at, splits)), closing());
    EXPECT_GT(splits, 0u) << c.name;
    EXPECT_EQ(tJoined.repair().tJunctionsSplit, splits) << c.name;
    EXPECT_EQ(tJoined.repair().loopsCapped, 0u) << c.name;
    EXPECT_EQ(tJoined.partCount(), 1u) << c.name;
    const Hull below = make(pieces.below, closing()), above = make(pieces.above, closing());
    EXPECT_EQ(below.repair().loopsCapped, 1u) << c.name;
    EXPECT_EQ(above.repair().loopsCapped, 1u) << c.name;
    EXPECT_NEAR(double(below.repair().capArea_m2), double(above.repair().capArea_m2),
                1e-6 * double(below.repair().capArea_m2))
        << c.name;
    // The cut points are rounded to btScalar, off the faces they split by
    // up to half a spacing: the tolerance is that over the hull's area.
    const double rounding = double(std::numeric_limits<btScalar>::epsilon()) * double(make(c.whole).area_m2());
    const std::string name = std::string("pieces of the ") + c.name;
    reportFigure((name + ", shared points welded: volume [m^3]").c_str(), shared.volume_m3(), whole);
    reportFigure((name + ", T-junctions split: volume [m^3]").c_str(), tJoined.volume_m3(), whole);
    reportFigure((name + ", each capped: volumes added [m^3]").c_str(), below.volume_m3() + above.volume_m3(), whole);
    EXPECT_NEAR(shared.volume_m3(), whole, rounding + volumeRounding(whole)) << c.name;
    EXPECT_NEAR(tJoined.volume_m3(), whole, rounding + volumeRounding(whole)) << c.name;
    EXPECT_NEAR(double(below.volume_m3()) + double(above.volume_m3()), whole, rounding + 2 * volumeRounding(whole))
        << c.name;
  }
}

// A render mesh's UV seam: the vertices along it repeated, once per side.
// They weld; nothing is open and nothing is capped.
TEST(HullClose, UvSeamsWeldAndNeedNoCap) {
  const Mesh sphere = icosphere(1, 3);
  Mesh seamed{sphere.vertices, {}};
  std::vector<std::uint32_t> copyOf(sphere.vertices.size(), UINT32_MAX);
  for (Hull::Triangle t : sphere.triangles) {
    const btVector3 centre = (corner(sphere, t, 0) + corner(sphere, t, 1) + corner(sphere, t, 2)) / 3;
    if (centre.z() > 0)  // this half has its own copies of the vertices
      for (std::uint32_t& v : t) {
        if (copyOf[v] == UINT32_MAX) {
          copyOf[v] = std::uint32_t(seamed.vertices.size());
          seamed.vertices.push_back(sphere.vertices[v]);
        }
        v = copyOf[v];
      }
    seamed.triangles.push_back(t);
  }
  const Hull hull = make(seamed, closing()), plain = make(sphere);
  EXPECT_GT(hull.weldedVertexCount(), 0u);
  EXPECT_EQ(hull.repair().trianglesAdded, 0u);
  EXPECT_EQ(hull.repair().loopsCapped, 0u);
  EXPECT_EQ(hull.volume_m3(), plain.volume_m3());
  reportFigure("UV-seamed icosphere: volume [m^3]", hull.volume_m3(), plain.volume_m3());
}

// A cube whose top face is split into 2 x 2 squares while its sides are
// whole: the top's 4 edge midpoints lie on the sides' edges (T-junctions).
TEST(HullClose, TJunctionsAreSplit) {
  Mesh cube = box(btVector3(1, 1, 1), 1);
  const Mesh fine = box(btVector3(1, 1, 1), 2);
  cube.triangles.erase(std::remove_if(cube.triangles.begin(), cube.triangles.end(),
                                      [&](const Hull::Triangle& t) { return normalOf(cube, t).y() > 0; }),
                       cube.triangles.end());
  for (const Hull::Triangle& t : fine.triangles)
    if (normalOf(fine, t).y() > 0) {
      const auto first = std::uint32_t(cube.vertices.size());
      for (int i = 0; i < 3; ++i) cube.vertices.push_back(corner(fine, t, i));
      cube.triangles.push_back({first, first + 1, first + 2});
    }
  try {
    make(cube);
    ADD_FAILURE() << "an open mesh made a hull";
  } catch (const HullError& e) {
    EXPECT_EQ(e.counts().openEdges, 12u);  // 8 halves on the top, 4 whole edges on the sides
  }
  const Hull hull = make(cube, closing());
  EXPECT_EQ(hull.repair().tJunctionsSplit, 4u);
  EXPECT_EQ(hull.repair().trianglesAdded, 4u);
  EXPECT_EQ(hull.repair().loopsCapped, 0u);
  reportFigure("cube with T-junctions: volume [m^3]", hull.volume_m3(), 1);
  EXPECT_NEAR(hull.volume_m3(), 1, volumeRounding(1));
}

}  // namespace
}  // namespace keel::test
