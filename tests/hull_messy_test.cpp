// keel::Hull on messy but valid meshes: closed surfaces whose non-manifold
// edges pair off (a zero-thickness fin, parts touching along an edge or at a
// vertex), cavities, zero-volume parts, and the overlapping parts that would
// count a volume twice (docs/model.md §4); and the message that names meshes
// appended without offsetting their indices.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace keel::test {
namespace {

constexpr double kFloatTol = 1e-6;  // relative round-off of float sums over a few hundred terms

/// Appends `part`'s vertices and triangles to `mesh`.
void append(Mesh& mesh, const Mesh& part) {
  const auto offset = std::uint32_t(mesh.vertices.size());
  mesh.vertices.insert(mesh.vertices.end(), part.vertices.begin(), part.vertices.end());
  for (auto t : part.triangles) mesh.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
}

/// The mesh with every triangle's winding reversed (its normals inward).
Mesh reversed(Mesh mesh) {
  for (auto& t : mesh.triangles) std::swap(t[1], t[2]);
  return mesh;
}

/// A triangle (a, b, c) and its reverse: a zero-thickness sheet.
Mesh doubleSided(const btVector3& a, const btVector3& b, const btVector3& c) {
  return Mesh{{a, b, c}, {{0, 1, 2}, {0, 2, 1}}};
}

/// The HullError a mesh throws (a failure when it throws none).
HullError::Counts errorOf(const Mesh& m, std::string& message) {
  try {
    const Hull hull(m.vertices, m.triangles);
    ADD_FAILURE() << "no HullError thrown; volume " << hull.volume_m3() << " m^3";
  } catch (const HullError& e) {
    message = e.what();
    return e.counts();
  }
  return {};
}

/// The message of the HullError a mesh throws.
std::string messageOf(const Mesh& m) {
  std::string message;
  errorOf(m, message);
  return message;
}

/// The displaced volume [m^3] of `hull` with its origin at height y_m in
/// still water at 0, upright, through the same code a substep runs.
double displacedVolume_m3(const Hull& hull, double y_m) {
  const btTransform at(btQuaternion::getIdentity(), btVector3(0, btScalar(y_m), 0));
  return double(hydrostaticsAtPose(hull, at, LevelWater()).pressure.submergedVolume_m3);
}

TEST(HullMessy, AcceptsZeroThicknessFinOnAnEdge) {
  // A fin where keel meets stem: one sheet, both sides, hung on the box's
  // bottom edge along x (y = z = -0.5). That edge has four triangles whose
  // directions pair off, so the surface is still closed.
  Mesh m = box(btVector3(1, 1, 1));
  append(m, doubleSided(btVector3(-0.5f, -0.5f, -0.5f), btVector3(0.5f, -0.5f, -0.5f), btVector3(0, -1.5f, -1.0f)));
  const Hull hull(m.vertices, m.triangles);
  EXPECT_EQ(hull.partCount(), 1u);
  EXPECT_EQ(hull.triangles().size(), 14u);
  EXPECT_NEAR(hull.volume_m3(), 1.0, kFloatTol);
  EXPECT_NEAR(hull.centroid_m().length(), 0.0, kFloatTol);
  // The fin's two sides feel the same pressure: it displaces nothing.
  EXPECT_NEAR(displacedVolume_m3(hull, 2.0), 0.0, kFloatTol);   // dry
  EXPECT_NEAR(displacedVolume_m3(hull, 0.0), 0.5, kFloatTol);   // half the box, the fin wet
  EXPECT_NEAR(displacedVolume_m3(hull, -3.0), 1.0, kFloatTol);  // submerged
}

TEST(HullMessy, AcceptsBoxesTouchingAlongAnEdge) {
  Mesh m = box(btVector3(1, 1, 1));
  append(m, box(btVector3(1, 1, 1), 1, btVector3(1, 1, 0)));  // shares the edge x = y = 0.5
  const Hull hull(m.vertices, m.triangles);
  EXPECT_EQ(hull.vertices().size(), 14u);  // the shared edge's two ends welded
  EXPECT_NEAR(hull.volume_m3(), 2.0, 2 * kFloatTol);
  EXPECT_NEAR(hull.centroid_m().x(), 0.5, kFloatTol);
  EXPECT_NEAR(hull.centroid_m().y(), 0.5, kFloatTol);
  EXPECT_NEAR(hull.centroid_m().z(), 0.0, kFloatTol);
  EXPECT_NEAR(displacedVolume_m3(hull, -1.0), 1.5, 2 * kFloatTol);  // the lower box and half the upper one
}

TEST(HullMessy, AcceptsBoxesTouchingAtAVertex) {
  Mesh m = box(btVector3(1, 1, 1));
  append(m, box(btVector3(1, 1, 1), 1, btVector3(1, 1, 1)));  // shares the corner (0.5, 0.5, 0.5)
  const Hull hull(m.vertices, m.triangles);
  EXPECT_EQ(hull.partCount(), 2u);
  EXPECT_EQ(hull.vertices().size(), 15u);
  EXPECT_NEAR(hull.volume_m3(), 2.0, 2 * kFloatTol);
  EXPECT_NEAR(hull.centroid_m().x(), 0.5, kFloatTol);
  EXPECT_NEAR(hull.centroid_m().z(), 0.5, kFloatTol);
}

TEST(HullMessy, AcceptsACavity) {
  // An outward 2 m box with an inward 1 m box inside, off centre: a hollow.
  Mesh m = box(btVector3(2, 2, 2));
  append(m, reversed(box(btVector3(1, 1, 1), 2, btVector3(0.4f, 0, 0))));
  const Hull hull(m.vertices, m.triangles);
  EXPECT_EQ(hull.partCount(), 2u);
  EXPECT_NEAR(hull.volume_m3(), 7.0, 7 * kFloatTol);
  EXPECT_NEAR(hull.centroid_m().x(), -0.4 / 7.0, kFloatTol);
  EXPECT_NEAR(displacedVolume_m3(hull, -3.0), 7.0, 7 * kFloatTol);
  EXPECT_NEAR(displacedVolume_m3(hull, 0.0), 3.5, 7 * kFloatTol);  // the cavity is symmetric about y = 0
}

TEST(HullMessy, AcceptsAnIslandInACavity) {
  // Solid, hollow, solid again: a 1 m box inside a 2 m cavity inside a 3 m box.
  Mesh m = box(btVector3(3, 3, 3));
  append(m, reversed(box(btVector3(2, 2, 2))));
  append(m, box(btVector3(1, 1, 1)));
  const Hull hull(m.vertices, m.triangles);
  EXPECT_NEAR(hull.volume_m3(), 27.0 - 8.0 + 1.0, 20 * kFloatTol);
}

TEST(HullMessy, AcceptsACabinStandingOnTheDeck) {
  // Separate closed boxes in contact face to face: nothing is counted twice.
  Mesh m = box(btVector3(4, 1, 2));
  append(m, box(btVector3(1, 1, 1), 1, btVector3(0.5f, 1, 0)));
  const Hull hull(m.vertices, m.triangles);
  EXPECT_EQ(hull.partCount(), 2u);
  EXPECT_NEAR(hull.volume_m3(), 9.0, 9 * kFloatTol);
}

TEST(HullMessy, RejectsIntersectingParts) {
  // Two unit boxes overlapping by half along x: their union is 1.5 m^3, the
  // sum of their volumes 2. Their faces only touch or coincide.
  Mesh m = box(btVector3(1, 1, 1));
  append(m, box(btVector3(1, 1, 1), 1, btVector3(0.5f, 0, 0)));
  const std::string message = messageOf(m);
  EXPECT_NE(message.find("parts 0 and 1 overlap"), std::string::npos) << message;
  EXPECT_NE(message.find("(-0.5, -0.5, -0.5) to (0.5, 0.5, 0.5)"), std::string::npos) << message;
  EXPECT_NE(message.find("(0, -0.5, -0.5) to (1, 0.5, 0.5)"), std::string::npos) << message;
}

TEST(HullMessy, RejectsPartsWhoseFacesCross) {
  // A cabin sunk into the deck: faces cross each other.
  Mesh m = boatHull(10, 3, 2);
  append(m, box(btVector3(2, 1, 1.5f), 2, btVector3(0.3f, 1.1f, 0.1f)));
  const std::string message = messageOf(m);
  EXPECT_NE(message.find("parts 0 and 1 overlap"), std::string::npos) << message;
  EXPECT_NE(message.find("faces cross"), std::string::npos) << message;
}

TEST(HullMessy, RejectsAnOutwardPartInsideAnother) {
  Mesh m = box(btVector3(2, 2, 2));
  append(m, box(btVector3(1, 1, 1), 1, btVector3(0.2f, 0.1f, 0)));
  std::string message = messageOf(m);
  EXPECT_NE(message.find("parts 0 and 1 overlap"), std::string::npos) << message;
  EXPECT_NE(message.find("inside the other"), std::string::npos) << message;
  // An identical copy welds onto the original: each triangle twice.
  Mesh twice = box(btVector3(1, 1, 1));
  append(twice, box(btVector3(1, 1, 1)));
  const auto counts = errorOf(twice, message);
  EXPECT_EQ(counts.repeatedTriangles, 12u);
  EXPECT_NE(message.find("counted twice"), std::string::npos) << message;
}

TEST(HullMessy, RejectsACavityOutsideEverySolid) {
  // An inward box beside an outward one, not inside it: a negative volume.
  Mesh m = box(btVector3(2, 2, 2));
  append(m, reversed(box(btVector3(1, 1, 1), 1, btVector3(3, 0, 0))));
  std::string message;
  const auto counts = errorOf(m, message);
  EXPECT_EQ(counts.inwardParts, 1u);
  EXPECT_NE(message.find("wound inward"), std::string::npos) << message;
}

TEST(HullMessy, ZeroVolumePartsAreNotInward) {
  // A fin on its own and a flat double-sided sheet: closed, no volume, not
  // inside out.
  const btVector3 a(0, 0, 0), b(1, 0, 0), c(0, 1, 0), d(1, 1, 0);
  Mesh sheet = doubleSided(a, b, d);
  append(sheet, doubleSided(a, d, c));
  for (const Mesh& m : {doubleSided(a, b, c), sheet}) {
    std::string message;
    const auto counts = errorOf(m, message);
    EXPECT_EQ(counts.inwardParts, 0u);
    EXPECT_EQ(message.find("wound inward"), std::string::npos) << message;
    EXPECT_NE(message.find("encloses no volume"), std::string::npos) << message;
  }
  // Beside a box the sheet is a part of its own that adds nothing.
  Mesh m = box(btVector3(1, 1, 1));
  append(m, doubleSided(btVector3(2, 0, 0), btVector3(3, 0, 0), btVector3(2, 1, 0)));
  const Hull hull(m.vertices, m.triangles);
  EXPECT_EQ(hull.partCount(), 2u);
  EXPECT_NEAR(hull.volume_m3(), 1.0, kFloatTol);
}

TEST(HullMessy, CountsASharedNonFiniteVertexOnce) {
  Mesh m = icosphere(1, 1);
  const std::uint32_t bad = 12;  // the first edge midpoint: six triangles use it
  ASSERT_EQ(std::count_if(m.triangles.begin(), m.triangles.end(),
                          [&](const Hull::Triangle& t) { return std::find(t.begin(), t.end(), bad) != t.end(); }),
            6);
  m.vertices[bad].setY(std::numeric_limits<btScalar>::quiet_NaN());
  std::string message;
  const auto counts = errorOf(m, message);
  EXPECT_EQ(counts.nonFiniteVertices, 1u);
  EXPECT_NE(message.find("1 vertex has NaN or infinite coordinates"), std::string::npos) << message;
  // The same through a Bullet mesh of separate triangles.
  try {
    Hull(*toBullet(m));
    ADD_FAILURE() << "no HullError thrown";
  } catch (const HullError& e) {
    EXPECT_EQ(e.counts().nonFiniteVertices, 1u) << e.what();
  }
}

TEST(HullMessy, MeshesAppendedWithoutOffsetNameTheLikelyCause) {
  // Two boxes appended into one list, the second's indices not offset by
  // the first's 24 vertices: its triangles index the first 54 vertices, and
  // its own last 24 vertices (54 to 77) are used by none.
  const Mesh first = box(btVector3(1, 1, 1)), second = box(btVector3(1, 1, 1), 2, btVector3(3, 0, 0));
  ASSERT_EQ(first.vertices.size(), 24u);
  ASSERT_EQ(second.vertices.size(), 54u);
  Mesh naive = first;
  naive.vertices.insert(naive.vertices.end(), second.vertices.begin(), second.vertices.end());
  naive.triangles.insert(naive.triangles.end(), second.triangles.begin(), second.triangles.end());
  const char* cause = "likely cause: vertices 54 to 77 of 78 are used by no triangle";
  const std::string message = messageOf(naive);
  EXPECT_NE(message.find(cause), std::string::npos) << message;
  EXPECT_NE(message.find("without offsetting each one's indices"), std::string::npos) << message;
  btTriangleMesh bullet;  // the same through a Bullet mesh, indexed as given
  for (const btVector3& v : naive.vertices) bullet.findOrAddVertex(v, false);
  for (const Hull::Triangle& t : naive.triangles) bullet.addTriangleIndices(int(t[0]), int(t[1]), int(t[2]));
  try {
    Hull{bullet};
    ADD_FAILURE() << "no HullError thrown";
  } catch (const HullError& e) {
    EXPECT_NE(std::string(e.what()).find(cause), std::string::npos) << e.what();
  }
  // Offset, the two boxes make a valid hull of two parts.
  Mesh joined = first;
  append(joined, second);
  EXPECT_EQ(Hull(joined.vertices, joined.triangles).partCount(), 2u);
  // A box that lost its last face leaves its corners unused, but where the
  // other faces' corners are: open, and no appending blamed.
  Mesh open = first;
  open.triangles.resize(open.triangles.size() - 2);
  const std::string openMessage = messageOf(open);
  EXPECT_NE(openMessage.find("open edge"), std::string::npos) << openMessage;
  EXPECT_EQ(openMessage.find("likely cause"), std::string::npos) << openMessage;
}

}  // namespace
}  // namespace keel::test
