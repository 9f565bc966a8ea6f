// HullOptions::closeOpenings (docs/integration.md, "Render meshes that are
// not closed"): the harbour's boats of media/ with their decks removed,
// parts wound inside out, and a loop no cap closes. Meshes cut apart by a
// plane, UV seams and T-junctions: hull_close_cut_test.cpp.
#include "hull_close_helpers.hpp"
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
