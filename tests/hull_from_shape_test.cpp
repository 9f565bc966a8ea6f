// keel::hullFromShape and keel::appendShape: every supported Bullet shape's
// volume against the exact solid's (the table docs/integration.md quotes),
// centroids, local scaling, the tessellation of curved solids
// (hull_from_shape_floating_test.cpp: hulls from shapes afloat;
// hull_from_shape_validation_test.cpp: the shapes and dimensions refused).
#include "solid_volumes.hpp"
#include "test_hulls.hpp"

#include <keel/hull_from_shape.hpp>

#include <BulletCollision/CollisionShapes/btConvexPointCloudShape.h>
#include <BulletCollision/CollisionShapes/btConvexTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btMultiSphereShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace keel::test {
namespace {

using namespace solids;  // the exact volumes

/// The rounding of the arithmetic: the hull's volume is summed in double
/// from btScalar vertices, each rounded once.
constexpr double kEps = std::numeric_limits<btScalar>::epsilon();

/// The points of a regular octahedron of vertex distance `a` [m] with some
/// inside it and some on its faces, which the hull leaves out.
std::vector<btVector3> octahedronPoints(btScalar a) {
  std::vector<btVector3> points = {{a, 0, 0}, {-a, 0, 0}, {0, a, 0}, {0, -a, 0}, {0, 0, a}, {0, 0, -a}};
  points.push_back(btVector3(0, 0, 0));
  points.push_back(btVector3(a / 4, a / 4, -a / 4));
  points.push_back(btVector3(a / 3, a / 3, a / 3));  // the centre of a face
  return points;
}

/// A row of the volume table.
struct Row {
  std::string name;
  std::function<std::unique_ptr<btCollisionShape>()> make;
  double exact_m3;
  double tolerance;  ///< relative
};

/// Builds the compound of the table: a 4 x 1 x 2 m hull box, a cabin box
/// standing on it (touching, face to face), a sphere buoy apart from them
/// and a convex hull turned 30 degrees.
struct Compound {
  btBoxShape hull{btVector3(2, btScalar(0.5), 1)};
  btBoxShape cabin{btVector3(btScalar(0.75), btScalar(0.5), btScalar(0.75))};
  btSphereShape buoy{btScalar(0.4)};
  btConvexHullShape octahedron;
  btCompoundShape shape;
  Compound() {
    for (const btVector3& p : octahedronPoints(btScalar(0.5))) octahedron.addPoint(p, false);
    octahedron.recalcLocalAabb();
    shape.addChildShape(btTransform::getIdentity(), &hull);
    shape.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(btScalar(-0.5), 1, 0)), &cabin);
    shape.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(4, 0, 0)), &buoy);
    shape.addChildShape(btTransform(btQuaternion(btVector3(0, 1, 0), btScalar(kPi / 6)), btVector3(-4, 0, 0)),
                        &octahedron);
  }
  static double volume_m3() { return 8 + 2.25 + sphereVolume(0.4) + 4 * 0.125 / 3; }
};

/// A btCompoundShape that owns its children.
struct OwningCompound final : btCompoundShape {
  std::vector<std::unique_ptr<btCollisionShape>> children;
  std::unique_ptr<Compound> compound;
};

/// A triangle mesh shape that owns its mesh.
struct OwningMesh final : btBvhTriangleMeshShape {
  explicit OwningMesh(std::unique_ptr<btTriangleMesh> m) : btBvhTriangleMeshShape(m.get(), true), mesh(std::move(m)) {}
  std::unique_ptr<btTriangleMesh> mesh;
};

std::unique_ptr<btCollisionShape> convexHull(btScalar a) {
  auto hull = std::make_unique<btConvexHullShape>();
  for (const btVector3& p : octahedronPoints(a)) hull->addPoint(p, false);
  hull->recalcLocalAabb();
  return hull;
}

std::vector<Row> tableRows() {
  // Polyhedra exact to the rounding; curved solids exact to the rounding of
  // the volume scaling (ShapeTessellation::exactVolume); the multisphere's
  // hull of spheres within its own bound.
  const double exact = 16 * kEps, curved = 64 * kEps;
  const btScalar r = 0.5f;
  std::vector<Row> rows = {
      {"btBoxShape 2 x 1 x 4 m", [] { return std::make_unique<btBoxShape>(btVector3(1, btScalar(0.5), 2)); }, 8, exact},
      {"btSphereShape r 1 m", [] { return std::make_unique<btSphereShape>(btScalar(1)); }, sphereVolume(1), curved},
      {"btSphereShape r 0.15 m", [] { return std::make_unique<btSphereShape>(btScalar(0.15)); }, sphereVolume(0.15),
       curved},
      {"btCapsuleShape r 0.5 h 2 m", [r] { return std::make_unique<btCapsuleShape>(r, btScalar(2)); },
       capsuleVolume(0.5, 2), curved},
      {"btCapsuleShapeX r 0.5 h 2 m", [r] { return std::make_unique<btCapsuleShapeX>(r, btScalar(2)); },
       capsuleVolume(0.5, 2), curved},
      {"btCapsuleShapeZ r 0.5 h 2 m", [r] { return std::make_unique<btCapsuleShapeZ>(r, btScalar(2)); },
       capsuleVolume(0.5, 2), curved},
      {"btCylinderShape r 0.5 h 2 m", [r] { return std::make_unique<btCylinderShape>(btVector3(r, 1, r)); },
       cylinderVolume(0.5, 2), curved},
      {"btCylinderShapeX r 0.5 h 2 m", [r] { return std::make_unique<btCylinderShapeX>(btVector3(1, r, r)); },
       cylinderVolume(0.5, 2), curved},
      {"btCylinderShapeZ r 0.5 h 2 m", [r] { return std::make_unique<btCylinderShapeZ>(btVector3(r, r, 1)); },
       cylinderVolume(0.5, 2), curved},
      {"btConeShape r 0.5 h 2 m", [r] { return std::make_unique<btConeShape>(r, btScalar(2)); },
       cylinderVolume(0.5, 2) / 3, curved},
      {"btConeShapeX r 0.5 h 2 m", [r] { return std::make_unique<btConeShapeX>(r, btScalar(2)); },
       cylinderVolume(0.5, 2) / 3, curved},
      {"btConeShapeZ r 0.5 h 2 m", [r] { return std::make_unique<btConeShapeZ>(r, btScalar(2)); },
       cylinderVolume(0.5, 2) / 3, curved},
      {"btConvexHullShape octahedron a 1 m", [] { return convexHull(1); }, 4.0 / 3, exact},
      {"btMultiSphereShape 2 x r 0.5 m, 1 m apart",
       [] {
         const btVector3 centres[] = {{0, btScalar(-0.5), 0}, {0, btScalar(0.5), 0}};
         const btScalar radii[] = {btScalar(0.5), btScalar(0.5)};
         return std::make_unique<btMultiSphereShape>(centres, radii, 2);
       },
       capsuleVolume(0.5, 1), 0.02},
      {"btBvhTriangleMeshShape box 2 x 1 x 3 m",
       [] { return std::make_unique<OwningMesh>(toBullet(box(btVector3(2, 1, 3), 2))); }, 6, exact},
      {"btCompoundShape of 2 boxes, a sphere, a convex hull",
       [] {
         auto owner = std::make_unique<OwningCompound>();
         owner->compound = std::make_unique<Compound>();
         for (int i = 0; i < owner->compound->shape.getNumChildShapes(); ++i)
           owner->addChildShape(owner->compound->shape.getChildTransform(i), owner->compound->shape.getChildShape(i));
         return owner;
       },
       Compound::volume_m3(), curved},
  };
  return rows;
}

TEST(HullFromShape, VolumeTableOfEverySupportedShape) {
  for (const Row& row : tableRows()) {
    const auto shape = row.make();
    const auto hull = hullFromShape(*shape);
    const double volume = double(hull->volume_m3());
    const double error = (volume - row.exact_m3) / row.exact_m3;
    std::printf("[  figure  ] %-52s exact %.9f m^3, hull %.9f m^3, relative error %9.2e, %4zu triangles\n",
                row.name.c_str(), row.exact_m3, volume, error, hull->triangles().size());
    EXPECT_LE(std::abs(error), row.tolerance) << row.name;
    EXPECT_EQ(hull->partCount(), row.name.rfind("btCompoundShape", 0) == 0 ? 4u : 1u) << row.name;
  }
}

TEST(HullFromShape, CentroidsLieWhereTheSolidsHaveThem) {
  const btScalar tol = btScalar(64 * kEps);
  // A cone's centroid lies a quarter of its height above its base, which
  // Bullet puts at -height/2 along its axis.
  const btConeShape y(btScalar(0.5), 2);
  const btConeShapeX x(btScalar(0.5), 2);
  const btConeShapeZ z(btScalar(0.5), 2);
  EXPECT_LT(hullFromShape(y)->centroid_m().distance(btVector3(0, btScalar(-0.5), 0)), tol);
  EXPECT_LT(hullFromShape(x)->centroid_m().distance(btVector3(btScalar(-0.5), 0, 0)), tol);
  EXPECT_LT(hullFromShape(z)->centroid_m().distance(btVector3(0, 0, btScalar(-0.5))), tol);
  // Symmetric solids: at their origin.
  EXPECT_LT(hullFromShape(btCapsuleShapeX(btScalar(0.5), 2))->centroid_m().length(), tol);
  EXPECT_LT(hullFromShape(btSphereShape(1))->centroid_m().length(), tol);
  // A compound's: the children's, weighted by their volumes.
  const Compound c;
  const double v[] = {8, 2.25, sphereVolume(0.4), 0.5 / 3};
  const double x0 = (v[1] * -0.5 + v[2] * 4 + v[3] * -4) / Compound::volume_m3();
  const double y0 = v[1] * 1 / Compound::volume_m3();
  const btVector3 centroid = hullFromShape(c.shape)->centroid_m();
  reportFigure("compound centroid x [m]", double(centroid.x()), x0);
  EXPECT_NEAR(double(centroid.x()), x0, 256 * kEps);
  EXPECT_NEAR(double(centroid.y()), y0, 256 * kEps);
  EXPECT_NEAR(double(centroid.z()), 0, 256 * kEps);
}

TEST(HullFromShape, LocalScalingIsBulletsOwn) {
  const double tol = 64 * kEps;
  btBoxShape box(btVector3(1, 1, 1));
  box.setLocalScaling(btVector3(1, 2, 3));
  const auto boxHull = hullFromShape(box);
  EXPECT_NEAR(double(boxHull->volume_m3()), 48, 48 * tol);
  EXPECT_NEAR(double(boxHull->boundsMax().z()), 3, 3 * tol);
  // A cylinder's radius follows its first cross axis, its height its axis.
  btCylinderShape cylinder(btVector3(btScalar(0.5), 1, btScalar(0.5)));
  cylinder.setLocalScaling(btVector3(2, 3, 2));
  EXPECT_NEAR(double(hullFromShape(cylinder)->volume_m3()), cylinderVolume(1, 6), cylinderVolume(1, 6) * 4 * tol);
  // A sphere Bullet scales by x alone.
  btSphereShape sphere(1);
  sphere.setLocalScaling(btVector3(2, 3, 4));
  EXPECT_NEAR(double(hullFromShape(sphere)->volume_m3()), sphereVolume(2), sphereVolume(2) * 4 * tol);
  // Bullet takes a scaling's magnitude (btConvexInternalShape::setLocalScaling):
  // a mirrored box is the box.
  btBoxShape mirrored(btVector3(1, 1, 1));
  mirrored.setLocalScaling(btVector3(-1, 1, 1));
  EXPECT_NEAR(double(hullFromShape(mirrored)->volume_m3()), 8, 8 * tol);
  // A convex hull's points scale component by component.
  const auto hull = convexHull(1);
  hull->setLocalScaling(btVector3(2, 1, btScalar(0.25)));
  const auto scaled = hullFromShape(*hull);
  EXPECT_NEAR(double(scaled->volume_m3()), 4.0 / 3 * 0.5, tol);
  EXPECT_NEAR(double(scaled->boundsMax().x()), 2, 2 * tol);
  // A compound passes its scaling to its children and their positions.
  btBoxShape child(btVector3(btScalar(0.5), btScalar(0.5), btScalar(0.5)));
  btCompoundShape compound;
  compound.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(1, 0, 0)), &child);
  compound.setLocalScaling(btVector3(2, 1, 1));
  const auto compoundHull = hullFromShape(compound);
  EXPECT_NEAR(double(compoundHull->volume_m3()), 2, 2 * tol);
  EXPECT_LT(compoundHull->centroid_m().distance(btVector3(2, 0, 0)), btScalar(4 * tol));
  // A triangle mesh shape's scaling, and a scaled one's on top of it.
  OwningMesh mesh(toBullet(keel::test::box(btVector3(2, 2, 2))));
  mesh.setLocalScaling(btVector3(1, 2, 1));
  btScaledBvhTriangleMeshShape twice(&mesh, btVector3(1, 1, 3));
  EXPECT_NEAR(double(hullFromShape(mesh)->volume_m3()), 16, 16 * tol);
  EXPECT_NEAR(double(hullFromShape(twice)->volume_m3()), 48, 48 * tol);
  // A triangle mesh shape keeps a negative scaling: its mirror image, wound outward.
  btScaledBvhTriangleMeshShape mirror(&mesh, btVector3(-1, 1, 1));
  EXPECT_NEAR(double(hullFromShape(mirror)->volume_m3()), 16, 16 * tol);
  mesh.setLocalScaling(btVector3(1, -2, 1));
  EXPECT_NEAR(double(hullFromShape(mesh)->volume_m3()), 16, 16 * tol);
}

/// The segments ShapeTessellation's defaults give a circle of `radius_m`
/// (its documented rule, restated as the oracle).
int defaultSegments(double radius_m) {
  const ShapeTessellation t;
  int n = 12;
  while (n < t.maxSegments && radius_m * (1 - std::cos(kPi / n)) > double(t.maxChordError_m)) n += 4;
  return n;
}

/// How far a hull departs from the solid whose signed distance is `sdf`
/// (negative inside) [m]: its vertices outward, the middles of its
/// triangles and of their edges inward.
struct Departure {
  double outside_m = 0, inside_m = 0;
};
Departure departure(const Hull& hull, const std::function<double(const btVector3&)>& sdf) {
  Departure d;
  for (const btVector3& v : hull.vertices()) d.outside_m = std::max(d.outside_m, sdf(v));
  for (const Hull::Triangle& t : hull.triangles()) {
    const btVector3 a = hull.vertices()[t[0]], b = hull.vertices()[t[1]], c = hull.vertices()[t[2]];
    for (const btVector3& p : {(a + b + c) / 3, (a + b) / 2, (b + c) / 2, (c + a) / 2})
      d.inside_m = std::max(d.inside_m, -sdf(p));
  }
  return d;
}

TEST(HullFromShape, CurvedSurfacesDepartByAboutTheChordError) {
  // The volume scaling moves the vertices out and leaves the faces' middles
  // in, each by about a segment's sagitta r (1 - cos(pi/n)), which the
  // segment count keeps within maxChordError_m below the most segments
  // (8.3 m at the defaults); the sphere's faces curve both ways, so its
  // vertices stand out the furthest.
  double worstOut = 0, worstIn = 0;
  for (const double r : {0.02, 0.05, 0.1, 0.15, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 8.0}) {
    const double h = 1.5 * r, sagitta = r * (1 - std::cos(kPi / defaultSegments(r)));
    const auto sphere = hullFromShape(btSphereShape(btScalar(r)));
    const auto capsule = hullFromShape(btCapsuleShape(btScalar(r), btScalar(2 * h)));
    const auto cylinder = hullFromShape(btCylinderShape(btVector3(btScalar(r), btScalar(h), btScalar(r))));
    const Departure ds = departure(*sphere, [&](const btVector3& p) { return double(p.length()) - r; });
    const Departure dc = departure(*capsule, [&](const btVector3& p) {
      return double(p.distance(btVector3(0, std::clamp(p.y(), btScalar(-h), btScalar(h)), 0))) - r;
    });
    const Departure dy = departure(*cylinder, [&](const btVector3& p) {
      return std::max(double(btVector3(p.x(), 0, p.z()).length()) - r, std::abs(double(p.y())) - h);
    });
    for (const Departure& d : {ds, dc, dy}) {
      worstOut = std::max(worstOut, d.outside_m / sagitta);
      worstIn = std::max(worstIn, d.inside_m / sagitta);
      EXPECT_LT(d.outside_m, 1.2 * double(ShapeTessellation{}.maxChordError_m)) << r;
      EXPECT_LT(d.inside_m, 1.2 * double(ShapeTessellation{}.maxChordError_m)) << r;
    }
  }
  reportValue("curved shapes: vertices outside the solid by at most (sagittas)", worstOut);
  reportValue("curved shapes: faces' middles inside the solid by at most (sagittas)", worstIn);
  EXPECT_LT(worstOut, 1.2);
  EXPECT_LT(worstIn, 1.2);
}

TEST(HullFromShape, TessellationFollowsTheChordError) {
  // 1 m takes 24 segments: a sphere of 24 (24 - 2) triangles.
  const btSphereShape sphere(1);
  EXPECT_EQ(hullFromShape(sphere)->triangles().size(), 528u);
  // Without the volume scaling, every vertex lies on the sphere and the
  // volume falls short.
  ShapeTessellation onSurface;
  onSurface.exactVolume = false;
  const auto inscribed = hullFromShape(sphere, onSurface);
  EXPECT_NEAR(double(inscribed->radius_m()), 1, 4 * kEps);
  const double shortBy = 1 - double(inscribed->volume_m3()) / sphereVolume(1);
  reportValue("sphere r 1 m, vertices on the sphere: volume short by (relative)", shortBy);
  EXPECT_GT(shortBy, 0.02);
  EXPECT_LT(shortBy, 0.03);
  // Finer chords, more segments, up to the most allowed.
  ShapeTessellation finer;
  finer.maxChordError_m = btScalar(0.001);
  EXPECT_EQ(hullFromShape(btCylinderShape(btVector3(1, 1, 1)), finer)->vertices().size(), 2u + 2 * 64);
  finer.maxSegments = 1000;
  EXPECT_EQ(hullFromShape(btCylinderShape(btVector3(1, 1, 1)), finer)->vertices().size(), 2u + 2 * 72);
}

TEST(HullFromShape, AppendShapePlacesTheShapeByThePose) {
  btTriangleMesh mesh;
  const btBoxShape box(btVector3(1, 1, 1));
  EXPECT_EQ(appendShape(mesh, box), 12);
  EXPECT_EQ(
      appendShape(mesh, btSphereShape(btScalar(0.5)), {}, btTransform(btQuaternion::getIdentity(), btVector3(3, 0, 0))),
      16 * 14);
  const Hull hull(mesh);
  EXPECT_EQ(hull.partCount(), 2u);
  EXPECT_NEAR(double(hull.volume_m3()), 8 + sphereVolume(0.5), 256 * kEps * 9);
  EXPECT_NEAR(double(hull.boundsMax().x()), 3.5, 1.2 * double(ShapeTessellation{}.maxChordError_m));
}

TEST(HullFromShape, ConvexPointCloudAndConvexTriangleMeshAreTheirPointsHull) {
  std::vector<btVector3> points = octahedronPoints(1);
  btConvexPointCloudShape cloud(points.data(), int(points.size()), btVector3(1, 2, 1));
  EXPECT_NEAR(double(hullFromShape(cloud)->volume_m3()), 8.0 / 3, 64 * kEps);
  const auto mesh = toBullet(keel::test::box(btVector3(1, 2, 3)));
  btConvexTriangleMeshShape convex(mesh.get());
  EXPECT_NEAR(double(hullFromShape(convex)->volume_m3()), 6, 6 * 64 * kEps);
}

}  // namespace
}  // namespace keel::test
