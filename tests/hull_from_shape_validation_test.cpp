// keel::appendShape and keel::hullFromShape refuse what makes no hull:
// unsupported shapes (named, with what is supported, and where in a
// compound), dimensions, scalings, points and transforms that are zero,
// negative, NaN or infinite, and a tessellation out of range.
#include <keel/hull_from_shape.hpp>

#include <BulletCollision/CollisionShapes/btEmptyShape.h>
#include <BulletCollision/CollisionShapes/btMultiSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>

namespace keel::test {
namespace {

/// The message appendShape throws for `shape`.
std::string refusal(const btCollisionShape& shape, const ShapeTessellation& tessellation = {},
                    const btTransform& pose = btTransform::getIdentity()) {
  btTriangleMesh mesh;
  try {
    appendShape(mesh, shape, tessellation, pose);
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(mesh.getNumTriangles(), 0);
    return e.what();
  }
  ADD_FAILURE() << shape.getName() << " was accepted";
  return "";
}

void expectHas(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

TEST(HullFromShapeBadInput, UnsupportedShapesAreNamedWithWhatIsSupported) {
  const btStaticPlaneShape plane(btVector3(0, 1, 0), 0);
  const std::string message = refusal(plane);
  expectHas(message, "keel::appendShape: the shape 'STATICPLANE': it is not supported");
  expectHas(message, "supported: btBoxShape");
  expectHas(refusal(btEmptyShape()), "'Empty'");
  // Inside a compound, where.
  btSphereShape ball(1);
  btEmptyShape nothing;
  btCompoundShape compound;
  compound.addChildShape(btTransform::getIdentity(), &ball);
  compound.addChildShape(btTransform::getIdentity(), &nothing);
  expectHas(refusal(compound), "the shape 'Compound': child 1 of 2 ('Empty'): it is not supported");
  try {
    (void)hullFromShape(plane);
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    expectHas(e.what(), "keel::hullFromShape: the shape 'STATICPLANE'");
  }
}

TEST(HullFromShapeBadInput, ZeroNegativeAndNanDimensionsAreRefused) {
  const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN();
  expectHas(refusal(btBoxShape(btVector3(1, 0, 1))), "half extents (1, 0, 1) m must be positive and finite");
  expectHas(refusal(btBoxShape(btVector3(1, nan, 1))), "must be positive and finite");
  expectHas(refusal(btSphereShape(-1)), "radius -1 m must be positive");
  expectHas(refusal(btSphereShape(0)), "radius 0 m must be positive");
  expectHas(refusal(btCapsuleShape(1, -1)), "half height -0.5");
  expectHas(refusal(btCapsuleShape(nan, 1)), "radius nan m");
  expectHas(refusal(btCylinderShape(btVector3(1, 0, 1))), "half height 0 m");
  expectHas(refusal(btConeShape(1, 0)), "height 0 m");
  expectHas(refusal(btConeShapeZ(0, 1)), "radius 0 m");
  btBoxShape flattened(btVector3(1, 1, 1));
  flattened.setLocalScaling(btVector3(1, 0, 1));
  expectHas(refusal(flattened), "half extents (1, 0, 1)");
  // A convex hull of points on a plane, or with a NaN.
  btConvexHullShape flat;
  for (const btVector3& p : {btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 0, 1), btVector3(1, 0, 1)})
    flat.addPoint(p, false);
  expectHas(refusal(flat), "'Convex': its 4 points span no volume");
  btConvexHullShape bad;
  for (const btVector3& p : {btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 1, 0), btVector3(0, 0, 1)})
    bad.addPoint(p, false);
  bad.addPoint(btVector3(nan, 0, 0), false);
  expectHas(refusal(bad), "point 4 is not finite");
  const btVector3 centre(0, 0, 0);
  const btScalar zero = 0;
  expectHas(refusal(btMultiSphereShape(&centre, &zero, 1)), "sphere 0's scaled radii (0, 0, 0) m");
  // Compounds: empty, a NaN child transform, a bad child.
  btCompoundShape empty;
  expectHas(refusal(empty), "'Compound': it has no children");
  btBoxShape child(btVector3(1, 1, 1));
  btCompoundShape nanChild;
  nanChild.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(nan, 0, 0)), &child);
  expectHas(refusal(nanChild), "child 0 of 1 ('Box'): its child transform is not finite");
  // The pose and the tessellation.
  expectHas(refusal(child, {}, btTransform(btQuaternion::getIdentity(), btVector3(0, nan, 0))), "pose is not finite");
  ShapeTessellation t;
  t.maxChordError_m = nan;
  expectHas(refusal(child, t), "maxChordError_m nan m must be positive");
  t = {};
  t.maxSegments = 8;
  expectHas(refusal(child, t), "minSegments (12) <= maxSegments (8)");
}

}  // namespace
}  // namespace keel::test
