// HullOptions::closeOpenings (docs/integration.md, "Render meshes that are
// not closed"): the harbour's boats of media/ with their decks removed,
// boxes and hulls cut apart by a plane, UV seams, T-junctions, parts wound
// inside out, and a loop no cap closes.
#include "hull_from_file.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <cstdio>
#include <functional>
#include <limits>
#include <string>

namespace keel::test {
namespace {

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
            const btScalar y[3] = {corner(whole, t, 0).y(), corner(whole, t, 1).y(), corner(whole, t, 2).y()};
            return flat ? n.y() > 0 && y[0] == level && y[1] == level && y[2] == level
                        : n.y() > btScalar(0.5) * n.length() && std::min({y[0], y[1], y[2]}) >= level - btScalar(0.001);
          },
          removed);
      ASSERT_GT(removed, 0u) << kind;
      EXPECT_THROW(make(open), HullError) << kind;  // the option off: today's refusal
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
        EXPECT_EQ(repair.loopsFanned, 0u) << kind;
        EXPECT_LT(repair.capFlatness_m, 1e-12) << kind;  // the loop's centre, rounded in double
        EXPECT_LE(error, 2 * std::numeric_limits<btScalar>::epsilon()) << kind;
        EXPECT_NEAR(repair.cappedVolume_m3, closed.volume_m3(), 4 * std::numeric_limits<btScalar>::epsilon()) << kind;
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

}  // namespace
}  // namespace keel::test
