// keel::Hull on messy meshes (docs/model.md §4).
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>

namespace keel::test {
namespace {

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

}  // namespace
}  // namespace keel::test
