// keel::appendShape and keel::hullFromShape: a Bullet collision shape read
// into a closed surface (keel/hull_from_shape.hpp says which surface, and
// why; docs/integration.md, "Hulls from Bullet shapes").

#include <keel/hull_from_shape.hpp>

#include "finite.hpp"
#include "hull/build_steps.hpp"
#include "hull/shape_solids.hpp"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConeShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btConvexPointCloudShape.h>
#include <BulletCollision/CollisionShapes/btConvexTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btMultiSphereShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>
#include <BulletCollision/CollisionShapes/btTriangleMeshShape.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace keel::KEEL_ABI {
namespace {

namespace sh = detail::shape;
constexpr double kPi = std::numbers::pi;

constexpr const char* kSupported =
    "supported: btBoxShape, btSphereShape, btCapsuleShape (X, Y, Z), btCylinderShape (X, Y, Z), btConeShape (X, Y, "
    "Z), btConvexHullShape, btConvexPointCloudShape, btConvexTriangleMeshShape, btMultiSphereShape, btCompoundShape "
    "of these, btBvhTriangleMeshShape, btMultimaterialTriangleMeshShape and btScaledBvhTriangleMeshShape";

/// Throws unless `value` [m] is positive and finite.
void requirePositive(double value, const char* what) {
  if (!(value > 0) || !std::isfinite(value)) {
    std::ostringstream s;
    s << what << " " << value << " m must be positive and finite";
    throw std::invalid_argument(s.str());
  }
}

/// Throws unless every component of `v` [m] is positive and finite.
void requirePositive(const btVector3& v, const char* what) {
  for (int axis = 0; axis < 3; ++axis)
    if (!(v[axis] > 0) || !std::isfinite(v[axis]))
      throw std::invalid_argument(std::string(what) + " " + detail::hull_build::formatPoint(v) +
                                  " m must be positive and finite");
}

using detail::isFinite;

/// The triangles of `mesh`, each corner scaled by `scaling`, wound as
/// before: a triangle mesh shape keeps a negative scaling (a mirror), which
/// would turn its triangles inside out.
sh::Soup trianglesOf(const btStridingMeshInterface& mesh, const btVector3& scaling) {
  sh::Soup soup = detail::hull_build::soupOf(mesh);
  for (btVector3& p : soup) {
    p *= scaling;
    if (!isFinite(p)) throw std::invalid_argument("a vertex " + detail::hull_build::formatPoint(p) + " is not finite");
  }
  const btVector3 total = mesh.getScaling() * scaling;
  if (total.x() * total.y() * total.z() < 0)
    for (std::size_t t = 0; t < soup.size(); t += 3) std::swap(soup[t + 1], soup[t + 2]);
  return soup;
}

void appendBox(const btBoxShape& box, const btTransform& pose, sh::Soup& out) {
  const btVector3 h = box.getHalfExtentsWithMargin();
  requirePositive(h, "half extents");
  sh::appendBox(h, pose, out);
}

void appendRounded(double radius_m, double halfHeight_m, int upAxis, const ShapeTessellation& tessellation,
                   const btTransform& pose, sh::Soup& out) {
  requirePositive(radius_m, "radius");
  if (!(halfHeight_m >= 0) || !std::isfinite(halfHeight_m))  // a sphere is a capsule of half height 0
    throw std::invalid_argument("half height " + std::to_string(halfHeight_m) +
                                " m must be zero or positive, and finite");
  const int n = sh::segmentsAround(radius_m, tessellation);
  const double exact_m3 = kPi * radius_m * radius_m * (4.0 / 3 * radius_m + 2 * halfHeight_m);
  sh::appendRevolution(sh::roundedProfile(radius_m, halfHeight_m, n), n, upAxis, exact_m3, tessellation.exactVolume,
                       pose, out);
}

void appendCylinder(const btCylinderShape& cylinder, const ShapeTessellation& tessellation, const btTransform& pose,
                    sh::Soup& out) {
  const double r = double(cylinder.getRadius());
  const double h = double(cylinder.getHalfExtentsWithMargin()[cylinder.getUpAxis()]);
  requirePositive(r, "radius");
  requirePositive(h, "half height");
  const int n = sh::segmentsAround(r, tessellation);
  const sh::ProfilePoint profile[] = {{0, -h, -h}, {r, -h, -h}, {r, h, h}, {0, h, h}};
  sh::appendRevolution(profile, n, cylinder.getUpAxis(), kPi * r * r * 2 * h, tessellation.exactVolume, pose, out);
}

void appendCone(const btConeShape& cone, const ShapeTessellation& tessellation, const btTransform& pose,
                sh::Soup& out) {
  // Bullet's cone: its base at -height/2 along the axis, its apex at +height/2.
  const double r = double(cone.getRadius()), h = double(cone.getHeight());
  requirePositive(r, "radius");
  requirePositive(h, "height");
  const int n = sh::segmentsAround(r, tessellation);
  const sh::ProfilePoint profile[] = {{0, -h / 2, -h / 2}, {r, -h / 2, -h / 2}, {0, h / 2, h / 2}};
  sh::appendRevolution(profile, n, cone.getConeUpIndex(), kPi * r * r * h / 3, tessellation.exactVolume, pose, out);
}

void appendMultiSphere(const btMultiSphereShape& spheres, const ShapeTessellation& tessellation,
                       const btTransform& pose, sh::Soup& out) {
  // Bullet's support point of sphere i is position * scaling + radius *
  // scaling * direction: an ellipsoid under non-uniform scaling.
  const btVector3 scaling = spheres.getLocalScaling();
  sh::Soup points;
  for (int i = 0; i < spheres.getSphereCount(); ++i) {
    const btVector3 scale = scaling * spheres.getSphereRadius(i);
    requirePositive(scale, ("sphere " + std::to_string(i) + "'s scaled radii").c_str());
    const btVector3 centre = spheres.getSpherePosition(i) * scaling;
    if (!isFinite(centre)) throw std::invalid_argument("sphere " + std::to_string(i) + "'s centre is not finite");
    const double largest = double(scale[scale.maxAxis()]);
    const int n = sh::segmentsAround(largest, tessellation);
    sh::Soup unit;
    sh::appendRevolution(sh::roundedProfile(1, 0, n), n, 1, 4 * kPi / 3, tessellation.exactVolume,
                         btTransform::getIdentity(), unit);
    for (const btVector3& p : unit) points.push_back(centre + p * scale);
  }
  sh::appendConvexHull(points, pose, out);
}

void appendAny(const btCollisionShape& shape, const ShapeTessellation& tessellation, const btTransform& pose,
               sh::Soup& out);

void appendCompound(const btCompoundShape& compound, const ShapeTessellation& tessellation, const btTransform& pose,
                    sh::Soup& out) {
  const int children = compound.getNumChildShapes();
  if (children == 0) throw std::invalid_argument("it has no children");
  // Bullet passes a compound's local scaling on to its children's scaling
  // and transforms (btCompoundShape::setLocalScaling): they carry it.
  for (int i = 0; i < children; ++i) {
    const btCollisionShape& child = *compound.getChildShape(i);
    const btTransform& childPose = compound.getChildTransform(i);
    const std::string where = "child " + std::to_string(i) + " of " + std::to_string(children) + " ('" +
                              child.getName() + "')";
    if (!isFinite(childPose)) throw std::invalid_argument(where + ": its child transform is not finite");
    try {
      appendAny(child, tessellation, pose * childPose, out);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + ": " + e.what());
    }
  }
}

/// The convex shapes defined by their points: the points, scaled.
sh::Soup pointsOf(const btCollisionShape& shape) {
  sh::Soup points;
  if (shape.getShapeType() == CONVEX_HULL_SHAPE_PROXYTYPE) {
    const auto& hull = static_cast<const btConvexHullShape&>(shape);
    for (int i = 0; i < hull.getNumPoints(); ++i) points.push_back(hull.getScaledPoint(i));
  } else if (shape.getShapeType() == CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE) {
    const auto& cloud = static_cast<const btConvexPointCloudShape&>(shape);
    for (int i = 0; i < cloud.getNumPoints(); ++i) points.push_back(cloud.getScaledPoint(i));
  } else {  // btConvexTriangleMeshShape: its mesh carries the scaling
    points = trianglesOf(*static_cast<const btConvexTriangleMeshShape&>(shape).getMeshInterface(), btVector3(1, 1, 1));
  }
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!isFinite(points[i])) throw std::invalid_argument("point " + std::to_string(i) + " is not finite");
  return points;
}

void appendMesh(const btCollisionShape& shape, const btTransform& pose, sh::Soup& out) {
  // A triangle mesh shape passes its local scaling to its mesh interface
  // (btTriangleMeshShape::setLocalScaling); the scaled shape adds its own.
  sh::Soup soup;
  if (shape.getShapeType() == SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE) {
    const auto& scaled = static_cast<const btScaledBvhTriangleMeshShape&>(shape);
    soup = trianglesOf(*scaled.getChildShape()->getMeshInterface(), scaled.getLocalScaling());
  } else {
    soup = trianglesOf(*static_cast<const btTriangleMeshShape&>(shape).getMeshInterface(), btVector3(1, 1, 1));
  }
  if (soup.empty()) throw std::invalid_argument("its mesh has no triangles");
  for (const btVector3& p : soup) out.push_back(pose * p);
}

void appendAny(const btCollisionShape& shape, const ShapeTessellation& tessellation, const btTransform& pose,
               sh::Soup& out) {
  switch (shape.getShapeType()) {
    case BOX_SHAPE_PROXYTYPE: return appendBox(static_cast<const btBoxShape&>(shape), pose, out);
    case SPHERE_SHAPE_PROXYTYPE:
      return appendRounded(double(static_cast<const btSphereShape&>(shape).getRadius()), 0, 1, tessellation, pose, out);
    case CAPSULE_SHAPE_PROXYTYPE: {
      const auto& capsule = static_cast<const btCapsuleShape&>(shape);
      return appendRounded(double(capsule.getRadius()), double(capsule.getHalfHeight()), capsule.getUpAxis(),
                           tessellation, pose, out);
    }
    case CYLINDER_SHAPE_PROXYTYPE:
      return appendCylinder(static_cast<const btCylinderShape&>(shape), tessellation, pose, out);
    case CONE_SHAPE_PROXYTYPE: return appendCone(static_cast<const btConeShape&>(shape), tessellation, pose, out);
    case MULTI_SPHERE_SHAPE_PROXYTYPE:
      return appendMultiSphere(static_cast<const btMultiSphereShape&>(shape), tessellation, pose, out);
    case CONVEX_HULL_SHAPE_PROXYTYPE:
    case CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE:
    case CONVEX_TRIANGLEMESH_SHAPE_PROXYTYPE: return sh::appendConvexHull(pointsOf(shape), pose, out);
    case COMPOUND_SHAPE_PROXYTYPE:
      return appendCompound(static_cast<const btCompoundShape&>(shape), tessellation, pose, out);
    case TRIANGLE_MESH_SHAPE_PROXYTYPE:
    case MULTIMATERIAL_TRIANGLE_MESH_PROXYTYPE:
    case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE: return appendMesh(shape, pose, out);
    default: throw std::invalid_argument(std::string("it is not supported (") + kSupported + ")");
  }
}

void checkTessellation(const ShapeTessellation& t) {
  requirePositive(double(t.maxChordError_m), "ShapeTessellation::maxChordError_m");
  if (t.minSegments < 1 || t.maxSegments < t.minSegments || t.maxSegments > 4096)
    throw std::invalid_argument("ShapeTessellation's segments must satisfy 1 <= minSegments (" +
                                std::to_string(t.minSegments) + ") <= maxSegments (" + std::to_string(t.maxSegments) +
                                ") <= 4096");
}

/// `shape`'s surface placed by `pose`; messages start with `caller`.
sh::Soup surfaceOf(const char* caller, const btCollisionShape& shape, const ShapeTessellation& tessellation,
                   const btTransform& pose) {
  try {
    checkTessellation(tessellation);
    if (!isFinite(pose)) throw std::invalid_argument("the pose is not finite");
    sh::Soup soup;
    try {
      appendAny(shape, tessellation, pose, soup);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("the shape '") + shape.getName() + "': " + e.what());
    }
    return soup;
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(caller) + ": " + e.what());
  }
}

}  // namespace

int appendShape(btTriangleMesh& mesh, const btCollisionShape& shape, const ShapeTessellation& tessellation,
                const btTransform& pose) {
  const sh::Soup soup = surfaceOf("keel::appendShape", shape, tessellation, pose);
  for (std::size_t t = 0; t < soup.size(); t += 3) mesh.addTriangle(soup[t], soup[t + 1], soup[t + 2], false);
  return int(soup.size() / 3);
}

std::shared_ptr<const Hull> hullFromShape(const btCollisionShape& shape, const ShapeTessellation& tessellation,
                                          const HullOptions& options) {
  const sh::Soup soup = surfaceOf("keel::hullFromShape", shape, tessellation, btTransform::getIdentity());
  std::vector<Hull::Triangle> triangles(soup.size() / 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    triangles[t] = {std::uint32_t(3 * t), std::uint32_t(3 * t + 1), std::uint32_t(3 * t + 2)};
  try {
    return std::make_shared<const Hull>(soup, triangles, options);
  } catch (const HullError& e) {
    if (e.counts().overlappingParts == 0 || shape.getShapeType() != COMPOUND_SHAPE_PROXYTYPE) throw;
    const std::string advice =
        "keel::hullFromShape: the compound's children overlap, as compound children often do, and keel::Hull refuses "
        "overlapping parts unless HullOptions::overlappingParts is set, which floats their union on the column model "
        "only (docs/columns.md, \"Overlapping parts\"); or shape the children to meet without overlapping. ";
    throw HullError(advice + e.what(), e.counts());
  }
}

}  // namespace keel::KEEL_ABI
