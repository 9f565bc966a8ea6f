// keel::Hull: welding, degenerate triangles, several parts, and every error
// of a surface that is not closed and outward-facing.
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include "hull/build_steps.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace keel::test {
namespace {

constexpr double kFloatTol = 1e-6;  // relative round-off of float sums over a few hundred terms

TEST(Hull, BoxIntegrals) {
  const Mesh m = box(btVector3(2, 1, 4), 1, btVector3(0.5, -0.25, 1));
  const Hull hull(m.vertices, m.triangles);
  EXPECT_EQ(hull.triangles().size(), 12u);
  EXPECT_EQ(hull.vertices().size(), 8u);
  EXPECT_NEAR(hull.volume_m3(), 8.0, 8.0 * kFloatTol);
  EXPECT_NEAR(hull.area_m2(), 2 * (2 + 8 + 4), 28 * kFloatTol);
  EXPECT_NEAR(hull.centroid_m().x(), 0.5, kFloatTol);
  EXPECT_NEAR(hull.centroid_m().y(), -0.25, kFloatTol);
  EXPECT_NEAR(hull.centroid_m().z(), 1.0, kFloatTol);
  EXPECT_FLOAT_EQ(hull.boundsMin().x(), -0.5f);
  EXPECT_FLOAT_EQ(hull.boundsMax().z(), 3.0f);
  EXPECT_NEAR(hull.radius_m(), std::sqrt(1.5 * 1.5 + 0.75 * 0.75 + 3.0 * 3.0), 1e-5);
  EXPECT_EQ(hull.partCount(), 1u);
}

TEST(Hull, WeldsANonIndexedBulletMesh) {
  const Mesh m = box(btVector3(1, 1, 1), 3);
  btTriangleMesh soup(true, false);  // every triangle with its own three vertices
  for (const auto& t : m.triangles) soup.addTriangle(m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]], false);
  const Hull hull(soup);
  EXPECT_EQ(hull.triangles().size(), 108u);
  EXPECT_EQ(hull.vertices().size(), 6u * 16u - 12u * 2u - 8u * 2u);  // 56 distinct grid points
  EXPECT_EQ(hull.weldedVertexCount(), 108u * 3u - 56u);
  EXPECT_NEAR(hull.volume_m3(), 1.0, kFloatTol);
}

TEST(Hull, Accepts16BitIndexedMesh) {
  const Mesh m = icosphere(1, 2);
  btTriangleMesh mesh(false, false);  // 16-bit indices, welded by Bullet's own search
  for (const auto& t : m.triangles) mesh.addTriangle(m.vertices[t[0]], m.vertices[t[1]], m.vertices[t[2]], true);
  const Hull hull(mesh);
  EXPECT_EQ(hull.triangles().size(), 320u);
  EXPECT_EQ(hull.vertices().size(), 162u);
}

TEST(Hull, WeldsNearDuplicatesWithinTolerance) {
  Mesh m = box(btVector3(1, 1, 1));
  // Shift one face's copy of a corner by 2e-7 m (a modelling tool's
  // round-off), inside the default tolerance of 1e-6 of the 1.73 m diagonal.
  m.vertices[0] += btVector3(btScalar(2e-7), 0, 0);
  ASSERT_NE(m.vertices[0].x(), btScalar(-0.5));
  EXPECT_NO_THROW(Hull(m.vertices, m.triangles));
  // Welding exact duplicates only, that face's two edges at the corner and
  // their two partners on the neighbouring faces are open.
  try {
    Hull(m.vertices, m.triangles, HullOptions{0, 0});
    FAIL() << "expected open edges";
  } catch (const HullError& e) {
    EXPECT_EQ(e.counts().openEdges, 4u);
  }
}

TEST(Hull, DropsDegenerateTriangles) {
  Mesh m = box(btVector3(1, 1, 1));
  m.triangles.push_back({0, 0, 1});  // collapsed
  m.triangles.push_back({2, 2, 2});
  const Hull hull(m.vertices, m.triangles);
  EXPECT_EQ(hull.droppedTriangleCount(), 2u);
  EXPECT_EQ(hull.triangles().size(), 12u);
}

TEST(Hull, CatamaranHasTwoParts) {
  Mesh a = box(btVector3(4, 0.5, 0.6), 2, btVector3(0, 0, -1));
  const Mesh b = box(btVector3(4, 0.5, 0.6), 2, btVector3(0, 0, 1));
  const auto offset = std::uint32_t(a.vertices.size());
  a.vertices.insert(a.vertices.end(), b.vertices.begin(), b.vertices.end());
  for (auto t : b.triangles) a.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
  const Hull hull(a.vertices, a.triangles);
  EXPECT_EQ(hull.partCount(), 2u);
  EXPECT_NEAR(hull.volume_m3(), 2 * 4 * 0.5 * 0.6, 2.4 * kFloatTol);
  EXPECT_NEAR(hull.centroid_m().z(), 0.0, kFloatTol);
}

HullError::Counts errorCounts(const Mesh& m, std::string* message = nullptr, const HullOptions& options = {}) {
  try {
    Hull hull(m.vertices, m.triangles, options);
  } catch (const HullError& e) {
    if (message) *message = e.what();
    return e.counts();
  }
  ADD_FAILURE() << "no HullError thrown";
  return {};
}

TEST(Hull, RejectsOpenSurface) {
  Mesh m = box(btVector3(1, 1, 1));
  m.triangles.pop_back();
  std::string message;
  const auto c = errorCounts(m, &message);
  EXPECT_EQ(c.openEdges, 3u);
  EXPECT_EQ(c.usableTriangles, 11u);
  EXPECT_NE(message.find("3 open edge(s)"), std::string::npos) << message;
  EXPECT_NE(message.find("between ("), std::string::npos) << message;
}

TEST(Hull, RejectsNonManifoldEdges) {
  Mesh m = box(btVector3(1, 1, 1));
  // A fin on an existing edge of the box: that edge has three triangles.
  const auto t = m.triangles[0];
  m.vertices.emplace_back(3, 3, 3);
  m.triangles.push_back({t[0], t[1], std::uint32_t(m.vertices.size() - 1)});
  std::string message;
  const auto c = errorCounts(m, &message);
  EXPECT_EQ(c.nonManifoldEdges, 1u);
  EXPECT_EQ(c.openEdges, 2u);
  EXPECT_NE(message.find("non-manifold"), std::string::npos) << message;
}

TEST(Hull, RejectsInconsistentWinding) {
  Mesh m = box(btVector3(1, 1, 1));
  std::swap(m.triangles[3][1], m.triangles[3][2]);
  std::string message;
  const auto c = errorCounts(m, &message);
  EXPECT_EQ(c.flippedEdges, 3u);
  EXPECT_NE(message.find("wind the same way"), std::string::npos) << message;
}

TEST(Hull, RejectsInsideOutPart) {
  Mesh m = icosphere(1, 1);
  for (auto& t : m.triangles) std::swap(t[1], t[2]);
  std::string message;
  const auto c = errorCounts(m, &message);
  EXPECT_EQ(c.inwardParts, 1u);
  EXPECT_EQ(c.openEdges + c.flippedEdges + c.nonManifoldEdges, 0u);
  EXPECT_NE(message.find("wound inward"), std::string::npos) << message;
}

TEST(Hull, RejectsNonFiniteVertices) {
  Mesh m = box(btVector3(1, 1, 1));
  m.vertices[5].setY(std::numeric_limits<btScalar>::quiet_NaN());
  std::string message;
  const auto c = errorCounts(m, &message);
  EXPECT_GT(c.nonFiniteVertices, 0u);
  EXPECT_NE(message.find("NaN or infinite"), std::string::npos) << message;
}

TEST(Hull, RejectsEmptyAndOutOfRange) {
  EXPECT_THROW(Hull(std::span<const btVector3>{}, std::span<const Hull::Triangle>{}), HullError);
  const Mesh m = box(btVector3(1, 1, 1));
  std::vector<Hull::Triangle> bad = m.triangles;
  bad[0][2] = 99;
  EXPECT_THROW(Hull(m.vertices, bad), HullError);
}

TEST(Hull, RefinesLongEdgesAndStaysClosed) {
  const Mesh m = box(btVector3(2, 1, 1));
  const Hull hull(m.vertices, m.triangles, HullOptions{btScalar(1e-6), btScalar(0.3)});
  for (const auto& t : hull.triangles())
    for (int e = 0; e < 3; ++e)
      EXPECT_LE(hull.vertices()[t[e]].distance(hull.vertices()[t[(e + 1) % 3]]), 0.3f + 1e-6f);
  EXPECT_NEAR(hull.volume_m3(), 2.0, 2 * kFloatTol);
  // Refined output is itself a valid hull (closed, no T-junctions).
  EXPECT_NO_THROW(Hull(hull.vertices(), hull.triangles()));
}

/// `m` moved by `offset` and scaled by `scale` about its own origin.
Mesh transformed(Mesh m, const btVector3& offset, btScalar scale = 1) {
  for (auto& v : m.vertices) v = v * scale + offset;
  return m;
}

TEST(Hull, WeldsFarFromTheOriginWithoutOverflow) {
  // A 1e-9 m box at x = 1e5: weld cells of 1e-15 m there number 1e20, past
  // a 64-bit integer (undefined behaviour in the conversion and the hash).
  const Mesh m = transformed(box(btVector3(1, 1, 1)), btVector3(1e5f, 0, 0), btScalar(1e-9));
  if (sizeof(btScalar) == 4) {
    // A float's spacing at 1e5 is 8e-3 m: the box is flattened to two
    // coincident squares of opposite winding, which enclose nothing.
    std::string message;
    errorCounts(m, &message);
    EXPECT_NE(message.find("encloses no volume"), std::string::npos) << message;
  } else {
    const Hull hull(m.vertices, m.triangles);
    EXPECT_EQ(hull.vertices().size(), 8u);
    EXPECT_NEAR(hull.volume_m3(), 1e-27, 0.03e-27);  // corners rounded to 1.5e-11 m
  }
  // The welder alone at the ends of the float range: exact duplicates weld,
  // distinct points do not.
  const btScalar big = btScalar(3e38);
  const std::vector<btVector3> soup = {btVector3(big, -big, 1),  btVector3(-big, big, 0), btVector3(big, -big, 1),
                                       btVector3(big, big, big), btVector3(-big, big, 0), btVector3(0, 0, 0)};
  for (double tolerance_m : {0.0, 1e-30, 1e30}) {
    const auto mesh = detail::hull_build::weldVertices(soup, tolerance_m);
    EXPECT_EQ(mesh.vertices.size(), 4u) << tolerance_m;
    EXPECT_EQ(mesh.triangles[0][2], mesh.triangles[0][0]);
    EXPECT_EQ(mesh.triangles[1][1], mesh.triangles[0][1]);
  }
}

TEST(Hull, RejectsAnEdgeLengthBelowTheCoordinatesPrecision) {
  // 1 cm edges on a box whose coordinates are 6 cm apart (float at 1e6 m,
  // double at 1e15 m): midpoints would round onto the ends, for ever.
  const double x_m = sizeof(btScalar) == 4 ? 1e6 : 1e15;
  std::string message;
  errorCounts(box(btVector3(4, 2, 3), 1, btVector3(btScalar(x_m), 0, 0)), &message,
              HullOptions{btScalar(1e-6), btScalar(0.01)});
  EXPECT_NE(message.find("maxEdgeLength_m 0.01"), std::string::npos) << message;
  EXPECT_NE(message.find("coordinates"), std::string::npos) << message;
}

TEST(Hull, RejectsARefinementOverTheVertexLimit) {
  // A 1e6 m box refined to 1000 m edges would have over 6 million vertices
  // (that it is refused before any is made: keel_allocation_tests'
  // Allocation.ARefinementOverTheVertexLimitIsRefusedBeforeItsVertices).
  std::string message;
  errorCounts(box(btVector3(1e6f, 1e6f, 1e6f)), &message, HullOptions{btScalar(1e-6), btScalar(1000)});
  EXPECT_NE(message.find("at most 2097152"), std::string::npos) << message;
  EXPECT_NE(message.find("maxEdgeLength_m 1000"), std::string::npos) << message;
}

TEST(Hull, RejectsAVolumeOutsideTheFloatRange) {
  for (const btScalar scale : {btScalar(1e13), btScalar(1e-20)}) {
    const Mesh m = transformed(box(btVector3(1, 1, 1)), btVector3(0, 0, 0), scale);
    std::string message;
    errorCounts(m, &message);
    EXPECT_NE(message.find(scale > 1 ? "1e+39 m^3" : "1e-60 m^3"), std::string::npos) << message;
  }
}

TEST(Hull, RefinementMakesNoZeroAreaTriangle) {
  // A tetrahedron whose face ABC is 1/8 m thin at x = X, where coordinates
  // are 1/8 m apart (2^20 in float, 2^49 in double): AC's midpoint rounds
  // onto the line x = X through A and B, so a child (A, mid AB, mid AC)
  // would be flat.
  const btScalar x = sizeof(btScalar) == 4 ? btScalar(1 << 20) : btScalar(std::ldexp(1.0, 49));
  const btScalar u = btScalar(0.125);
  const std::vector<btVector3> v = {btVector3(x, 0, 0), btVector3(x, 2, 0), btVector3(x + u, 1, 0), btVector3(x, 1, 1)};
  const std::vector<Hull::Triangle> t = {{0, 1, 2}, {0, 3, 1}, {1, 3, 2}, {2, 3, 0}};
  const Hull hull(v, t, HullOptions{btScalar(1e-6), btScalar(0.9)});
  EXPECT_GT(hull.triangles().size(), 4u);
  for (std::size_t i = 0; i < hull.triangles().size(); ++i) {
    const auto& tri = hull.triangles()[i];
    const btVector3 a = hull.vertices()[tri[0]] - btVector3(x, 0, 0), b = hull.vertices()[tri[1]] - btVector3(x, 0, 0),
                    c = hull.vertices()[tri[2]] - btVector3(x, 0, 0);
    EXPECT_GT((b - a).cross(c - a).length(), 0) << "triangle " << i;
    EXPECT_GT(hull.triangleAreas_m2()[i], 0) << "triangle " << i;
  }
  EXPECT_NO_THROW(Hull(hull.vertices(), hull.triangles()));
}

TEST(Hull, BoatHullIsClosed) {
  const auto hull = hullOf(boatHull(10, 3, 2));
  EXPECT_GT(hull->volume_m3(), 0);
  EXPECT_EQ(hull->partCount(), 1u);
  EXPECT_GT(hull->triangles().size(), 500u);
}

}  // namespace
}  // namespace keel::test
