// HullOptions::closeOpenings (docs/integration.md, "Render meshes that are
// not closed"): the harbour's boats of media/ with their decks removed,
// boxes and hulls cut apart by a plane, UV seams, T-junctions, parts wound
// inside out, and a loop no cap closes.
#include "hull_from_file.hpp"
#include "render_hull.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>

namespace keel::test {
namespace {

/// How far two exact computations of one hull's volume [m^3] may differ:
/// Keel sums the triangles' tetrahedra in double (a few dozen roundings of
/// terms about the size of the result, in an order that capping changes)
/// and rounds the sum to btScalar once.
double volumeRounding(double volume_m3) {
  return (double(std::numeric_limits<btScalar>::epsilon()) + 32 * std::numeric_limits<double>::epsilon()) *
         std::abs(volume_m3);
}

HullOptions closing() {
  HullOptions options;
  options.closeOpenings = true;
  return options;
}

Hull make(const Mesh& m, const HullOptions& options = {}) { return Hull(m.vertices, m.triangles, options); }

/// The triangles of a Bullet mesh as a soup: three vertices each, shared by none.
class SoupOf final : public btInternalTriangleIndexCallback {
 public:
  explicit SoupOf(Mesh& out) : out_(out) {}
  void internalProcessTriangleIndex(btVector3* corners, int, int) override {
    const auto first = std::uint32_t(out_.vertices.size());
    out_.vertices.insert(out_.vertices.end(), corners, corners + 3);
    out_.triangles.push_back({first, first + 1, first + 2});
  }

 private:
  Mesh& out_;
};

/// Object "hull" of media/<kind>.obj as docs/integration.md reads it (assimp,
/// game::appendObject), as a soup.
Mesh mediaHull(const std::string& kind) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(std::string(KEEL_MEDIA_DIR "/") + kind + ".obj",
                                           aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (!scene) throw std::runtime_error("cannot read " + kind);
  btTriangleMesh mesh;
  game::appendObject(*scene, "hull", mesh);
  Mesh soup;
  SoupOf collect(soup);
  const btVector3 huge(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT);
  mesh.InternalProcessAllTriangles(&collect, -huge, huge);
  return soup;
}

btVector3 corner(const Mesh& m, const Hull::Triangle& t, int i) { return m.vertices[t[std::size_t(i)]]; }
btVector3 normalOf(const Mesh& m, const Hull::Triangle& t) {
  return (corner(m, t, 1) - corner(m, t, 0)).cross(corner(m, t, 2) - corner(m, t, 0));
}

/// `m` less the triangles `drop` picks; `dropped` counts them.
Mesh without(const Mesh& m, const std::function<bool(const Hull::Triangle&)>& drop, std::size_t& dropped) {
  Mesh kept{m.vertices, {}};
  for (const Hull::Triangle& t : m.triangles)
    if (!drop(t)) kept.triangles.push_back(t);
  dropped = m.triangles.size() - kept.triangles.size();
  return kept;
}

/// The flat deck: the highest level y [m] at which upward triangles lie flat.
btScalar deckLevel(const Mesh& m) {
  btScalar level = -BT_LARGE_FLOAT;
  for (const Hull::Triangle& t : m.triangles) {
    const btScalar y = corner(m, t, 0).y();
    if (normalOf(m, t).y() > 0 && corner(m, t, 1).y() == y && corner(m, t, 2).y() == y) level = std::max(level, y);
  }
  return level;
}

/// Whether `t` is part of the flat deck at `level`: upward, every corner on it.
bool onFlatDeck(const Mesh& m, const Hull::Triangle& t, btScalar level) {
  return normalOf(m, t).y() > 0 && corner(m, t, 0).y() == level && corner(m, t, 1).y() == level &&
         corner(m, t, 2).y() == level;
}

double relative(double measured, double expected) { return std::abs(measured - expected) / std::abs(expected); }

// The decks of the harbour's boats removed, the hulls closed again. A flat
// deck's cap is the deck itself retriangulated on its plane: the same
// volume but for the sums' round-off (the float result's last place). The
// whole deck (every upward face above the flat deck's level less 1 mm, the
// sheer's rise to bow and stern with it) leaves a loop off any plane: its
// cap is flat, and the volume differs by what the sheer held.
TEST(HullClose, MediaHullsWithTheirDecksRemovedCapToTheirVolume) {
  std::printf("[  figure  ] %-10s %-7s %8s %6s %12s %12s %10s\n", "mesh", "deck", "removed", "loops", "before [m^3]",
              "after [m^3]", "rel. error");
  for (const char* kind : {"rowboat", "speedboat", "tug", "barge", "catamaran"}) {
    const Mesh whole = mediaHull(kind);
    const Hull closed = make(whole);
    const btScalar level = deckLevel(whole);
    for (const bool flat : {true, false}) {
      std::size_t removed = 0;
      const Mesh open = without(
          whole,
          [&](const Hull::Triangle& t) {
            const btVector3 n = normalOf(whole, t);
            const btScalar low = std::min({corner(whole, t, 0).y(), corner(whole, t, 1).y(), corner(whole, t, 2).y()});
            return flat ? onFlatDeck(whole, t, level)
                        : n.y() > btScalar(0.5) * n.length() && low >= level - btScalar(0.001);
          },
          removed);
      ASSERT_GT(removed, 0u) << kind;
      double removedArea_m2 = 0;  // the deck's
      for (const Hull::Triangle& t : whole.triangles)
        if (onFlatDeck(whole, t, level)) removedArea_m2 += double(normalOf(whole, t).length()) / 2;
      try {  // the option off: today's refusal
        make(open);
        ADD_FAILURE() << kind << ": an open mesh made a hull";
      } catch (const HullError& e) {
        EXPECT_GT(e.counts().openEdges, 0u) << kind;
        EXPECT_EQ(std::string(e.what()).find("closeOpenings"), std::string::npos) << e.what();
      }
      const Hull capped = make(open, closing());
      const HullRepair& repair = capped.repair();
      const double error = relative(capped.volume_m3(), closed.volume_m3());
      std::printf("[  figure  ] %-10s %-7s %8zu %6zu %12.6f %12.6f %10.3g\n", kind, flat ? "flat" : "whole", removed,
                  repair.loopsCapped, double(closed.volume_m3()), double(capped.volume_m3()), error);
      const std::size_t hulls = std::string(kind) == "catamaran" ? 2 : 1;
      EXPECT_EQ(repair.loopsCapped, hulls) << kind;
      EXPECT_EQ(repair.loopsNotCapped, 0u) << kind;
      EXPECT_EQ(repair.partsFlipped, 0u) << kind;
      EXPECT_EQ(capped.partCount(), hulls) << kind;
      if (flat) {
        EXPECT_LT(repair.capFlatness_m, 1e-12) << kind;  // the loop's centre, rounded in double
        EXPECT_NEAR(repair.capArea_m2, removedArea_m2, 1e-6 * removedArea_m2) << kind;
        EXPECT_LE(error * double(closed.volume_m3()), volumeRounding(closed.volume_m3())) << kind;
        EXPECT_NEAR(repair.cappedVolume_m3, closed.volume_m3(), volumeRounding(closed.volume_m3())) << kind;
        EXPECT_LE((capped.centroid_m() - closed.centroid_m()).length(), 1e-5f) << kind;
      } else {
        EXPECT_GT(repair.capFlatness_m, 0) << kind;
        EXPECT_LT(error, 0.1) << kind;  // the sheer holds a few per cent of the hull
      }
    }
  }
}

// A closed mesh comes through the option on unchanged, bit for bit.
TEST(HullClose, ClosedMeshesAreLeftAsTheyAre) {
  for (const char* kind : {"rowboat", "catamaran"}) {
    const Mesh whole = mediaHull(kind);
    const Hull plain = make(whole), closed = make(whole, closing());
    EXPECT_EQ(closed.volume_m3(), plain.volume_m3()) << kind;
    EXPECT_EQ(closed.centroid_m(), plain.centroid_m()) << kind;
    ASSERT_EQ(closed.triangles().size(), plain.triangles().size()) << kind;
    EXPECT_TRUE(std::equal(plain.triangles().begin(), plain.triangles().end(), closed.triangles().begin())) << kind;
    EXPECT_TRUE(closed.repair().ran);
    EXPECT_EQ(closed.repair().trianglesAdded + closed.repair().partsFlipped, 0u) << kind;
    EXPECT_EQ(closed.repair().text(), "HullOptions::closeOpenings: nothing to close");
    EXPECT_FALSE(plain.repair().ran);
  }
}

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

/// `m` wound the other way (inside out).
Mesh reversed(Mesh m) {
  for (Hull::Triangle& t : m.triangles) std::swap(t[1], t[2]);
  return m;
}

// A part wound inside out as a whole is reversed, open (capped first) or
// closed; a part wound inward inside an outward one is a cavity, and kept.
TEST(HullClose, PartsWoundInsideOutAreReversed) {
  const Mesh outward = box(btVector3(2, 2, 2)), inward = reversed(box(btVector3(1, 1, 1), 1, btVector3(4, 0, 0)));
  EXPECT_THROW(make(joined(outward, inward)), HullError);
  const Hull two = make(joined(outward, inward), closing());
  EXPECT_EQ(two.repair().partsFlipped, 1u);
  EXPECT_EQ(two.repair().loopsCapped, 0u);
  reportFigure("box and a box inside out: volume [m^3]", two.volume_m3(), 9);
  EXPECT_NEAR(two.volume_m3(), 9, volumeRounding(9));
  std::size_t removed = 0;
  const Mesh lidless = without(
      inward, [&](const Hull::Triangle& t) { return normalOf(inward, t).y() < 0; }, removed);
  const Hull capped = make(lidless, closing());
  EXPECT_EQ(capped.repair().loopsCapped, 1u);
  EXPECT_EQ(capped.repair().partsFlipped, 1u);
  EXPECT_NEAR(capped.repair().cappedVolume_m3, 1, volumeRounding(1));
  EXPECT_NEAR(capped.volume_m3(), 1, volumeRounding(1));
  const Hull cavity = make(joined(outward, reversed(box(btVector3(1, 1, 1)))), closing());
  EXPECT_EQ(cavity.repair().partsFlipped, 0u);
  EXPECT_NEAR(cavity.volume_m3(), 7, volumeRounding(7));
}

// A cabin open at the bottom pushed into a hull: capped, it overlaps the
// hull, refused as any overlap is unless HullOptions::overlappingParts.
TEST(HullClose, CappedPartsThatOverlapAreGovernedByOverlappingParts) {
  const Mesh cabin = box(btVector3(1, 1, 1), 1, btVector3(0, btScalar(0.8), 0));
  std::size_t removed = 0;
  const Mesh open = without(
      cabin, [&](const Hull::Triangle& t) { return normalOf(cabin, t).y() < 0; }, removed);
  const Mesh boat = joined(box(btVector3(4, 1, 2)), open);
  try {
    make(boat, closing());
    ADD_FAILURE() << "overlapping parts made a hull";
  } catch (const HullError& e) {
    EXPECT_EQ(e.counts().overlappingParts, 1u);
    EXPECT_NE(std::string(e.what()).find("capped 1 loop(s)"), std::string::npos) << e.what();
  }
  HullOptions both = closing();
  both.overlappingParts = true;
  const Hull hull = make(boat, both);
  EXPECT_TRUE(hull.partsOverlap());
  EXPECT_EQ(hull.repair().loopsCapped, 1u);
  // The union's volume, from its columns: the hull's 8 m^3 and the cabin's 0.8 m above it.
  reportFigure("hull and capped cabin, union: volume [m^3]", hull.volume_m3(), 8.8);
  EXPECT_NEAR(hull.volume_m3(), 8.8, 1e-3);
}

// A C-shaped sheet (floor, wall, roof) open on three sides: its one loop
// runs back over itself on its best-fit plane (across the wall), so no ear
// and no cap closes it. The error says which loop, where, and why.
TEST(HullClose, ALoopThatCannotBeCappedIsNamed) {
  const btScalar w = 1, l = 3, h = btScalar(0.5);
  const Mesh sheet{{{0, 0, 0}, {w, 0, 0}, {w, l, 0}, {0, l, 0}, {w, 0, h}, {w, l, h}, {0, 0, h}, {0, l, h}},
                   {{0, 2, 1}, {0, 3, 2}, {1, 2, 5}, {1, 5, 4}, {4, 5, 7}, {4, 7, 6}}};
  try {
    make(sheet, closing());
    ADD_FAILURE() << "the sheet made a hull";
  } catch (const HullError& e) {
    const std::string what = e.what();
    std::printf("[  figure  ] the C-shaped sheet's error: %s\n", what.c_str());
    EXPECT_EQ(e.counts().openEdges, 8u);
    EXPECT_NE(what.find("1 loop(s) not capped, first loop 1 of 1 (8 edges, around (0.5, 1.5, 0.25)"),
              std::string::npos);
    EXPECT_NE(what.find("does not project onto its best-fit plane as a simple polygon"), std::string::npos);
  }
}

// A triangle flipped against its neighbours is no opening: nothing is
// capped, and the error is the one without the option, with what the option
// did (nothing) appended.
TEST(HullClose, ATriangleFlippedInsideAPartIsLeftToTheError) {
  Mesh cube = box(btVector3(1, 1, 1), 2);
  std::swap(cube.triangles[5][1], cube.triangles[5][2]);
  try {
    make(cube, closing());
    ADD_FAILURE() << "a cube with a flipped triangle made a hull";
  } catch (const HullError& e) {
    EXPECT_EQ(e.counts().flippedEdges, 3u);
    EXPECT_EQ(e.counts().openEdges, 0u);
    EXPECT_NE(std::string(e.what()).find("[HullOptions::closeOpenings: nothing to close]"), std::string::npos)
        << e.what();
  }
}

// docs/integration.md's example: the rowboat written to a file without its
// flat deck, read back closed, and what was done logged.
TEST(HullClose, TheIntegrationExampleReadsADecklessBoat) {
  const Mesh whole = mediaHull("rowboat");
  const btScalar level = deckLevel(whole);
  std::size_t removed = 0;
  const Mesh open = without(
      whole, [&](const Hull::Triangle& t) { return onFlatDeck(whole, t, level); }, removed);
  const std::string path = ::testing::TempDir() + "deckless_rowboat.obj";
  {
    std::ofstream file(path);
    file << "o hull\n" << std::setprecision(9);
    for (const btVector3& v : open.vertices) file << "v " << v.x() << ' ' << v.y() << ' ' << v.z() << '\n';
    for (const Hull::Triangle& t : open.triangles)
      file << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
  }
  EXPECT_THROW(game::loadHull(path), HullError);
  std::ostringstream log;
  const game::LoadedHull loaded = game::loadRenderHull(path, "hull", log);
  std::printf("[  figure  ] the example's log: %s", log.str().c_str());
  EXPECT_NE(log.str().find("capped 1 loop(s)"), std::string::npos) << log.str();
  EXPECT_EQ(loaded.repair.loopsCapped, 1u);
  // In the centre-of-mass frame, as loadHull() puts every hull: the vertices
  // moved by btScalar arithmetic, the volume to its round-off.
  reportFigure("deckless rowboat read back closed: volume [m^3]", loaded.hull->volume_m3(), make(whole).volume_m3());
  EXPECT_NEAR(loaded.hull->volume_m3(), make(whole).volume_m3(), 1e-5 * make(whole).volume_m3());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace keel::test
