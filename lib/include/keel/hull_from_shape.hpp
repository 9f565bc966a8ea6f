#pragma once
/// @file hull_from_shape.hpp
/// A keel::Hull from the Bullet collision shape a game already has: its
/// primitives, convex hulls, compounds of them and triangle meshes, in one
/// call (docs/integration.md, "Hulls from Bullet shapes").

#include <LinearMath/btTransform.h>
#include <keel/config.hpp>
#include <keel/hull.hpp>

#include <memory>

class btCollisionShape;
class btTriangleMesh;

namespace keel::KEEL_ABI {

/// How finely the curved surfaces of a shape (spheres, capsules, cylinders,
/// cones, the spheres of a btMultiSphereShape) are cut into triangles.
///
/// Every such surface is a solid of revolution about its axis. Each circle
/// around the axis is cut into n equal segments, n the smallest multiple of
/// 4 (a sphere's poles and equator, a capsule's equators are then vertex
/// rings) whose chords lie within `maxChordError_m` of the arc, `r (1 -
/// cos(pi / n)) <= maxChordError_m` for the circle's radius r, clamped to
/// [minSegments, maxSegments]; a sphere's or a capsule's meridians are cut
/// at the same angle. A 1 m radius takes 24 segments at the defaults, 0.5 m
/// 16, under 0.29 m 12; a sphere of n segments has n (n - 2) triangles.
struct ShapeTessellation {
  /// Largest distance [m] between an arc and its chord, before the
  /// volume scaling below. Finite and positive.
  btScalar maxChordError_m = btScalar(0.01);
  /// Fewest segments around a circle, whatever its size; rounded up to a
  /// multiple of 4, at least 4.
  int minSegments = 12;
  /// Most segments around a circle, whatever its size; at least
  /// minSegments, at most 4096.
  int maxSegments = 64;
  /// Scale each curved solid's triangles away from its axis (and a sphere's
  /// or a capsule's caps from their centres) so that the polyhedron's volume
  /// equals the exact solid's (pi r^2 h, 4/3 pi r^3, ...), to the rounding
  /// of the arithmetic. A polyhedron inscribed in the solid lacks a fraction
  /// of its volume that falls as 1/n^2 (4.5 % for a cylinder of 12
  /// segments, 2.8 % for a sphere of 24); buoyancy is proportional to the
  /// volume, so the scaled one floats at the true displacement. Its shape
  /// error is then two-sided: the vertices lie outside the true surface and
  /// the middles of the faces inside it, each by at most 1.2 sagittas of a
  /// segment, r (1 - cos(pi / n)), so within 1.2 maxChordError_m wherever
  /// maxSegments does not cap the count (8.3 m at the defaults). false:
  /// every vertex on the true surface, the volume short.
  bool exactVolume = true;
};

/// Appends the closed, outward-wound surface of `shape` to `mesh`, each
/// vertex placed by `pose` (shape frame to the mesh's frame, [m]), and
/// returns how many triangles it appended.
///
/// Supported: btBoxShape; btSphereShape; btCapsuleShape (X, Y, Z);
/// btCylinderShape (X, Y, Z); btConeShape (X, Y, Z); btConvexHullShape,
/// btConvexPointCloudShape and btConvexTriangleMeshShape (the convex hull
/// of their points, by Bullet's btConvexHullComputer); btMultiSphereShape
/// (the hull of its spheres' tessellations); btCompoundShape of any of these,
/// nested too (each child at its child transform); and the concave
/// triangle meshes btBvhTriangleMeshShape, btMultimaterialTriangleMeshShape
/// and btScaledBvhTriangleMeshShape (their triangles as they are: keel::Hull
/// then checks that they close).
///
/// The surface is the solid of the dimensions the shape was given, after
/// its local scaling (a compound's scaling Bullet passes to its children):
/// a box's getHalfExtentsWithMargin(), a cylinder's radius and
/// getHalfExtentsWithMargin() along its axis, a sphere's, a capsule's and a
/// cone's radius and height, a convex hull's scaled points, a multisphere's
/// spheres. Bullet collides these with a rounding margin (getMargin(), 0.04
/// m by default): a box and a cylinder with their edges rounded inside these
/// dimensions, a cone and a convex hull with the margin added outside
/// (a convex hull collides a margin's thickness beyond its points all
/// round; set its margin to 0 if the two must agree); spheres and capsules
/// are their margin and collide as given. Bullet scales a sphere by its x
/// scaling only, a capsule's radius and a cylinder's by one axis and a
/// cone's by the mean of two, so their sections stay circles: so does the
/// hull. A negative scaling mirrors a triangle mesh shape (its triangles
/// are turned back to face outward); Bullet takes the others' magnitude.
///
/// Throws std::invalid_argument naming the shape (Bullet's getName()) and
/// where in a compound it is, for an unsupported shape (a plane, a
/// heightfield, a soft body, GImpact, ...; the message lists what is
/// supported), a dimension, scaling, point, child transform or `pose` that is
/// zero, negative, NaN or infinite, a convex hull of points that span no
/// volume, an empty compound, and a `tessellation` out of range.
int appendShape(btTriangleMesh& mesh, const btCollisionShape& shape, const ShapeTessellation& tessellation = {},
                const btTransform& pose = btTransform::getIdentity());

/// The keel::Hull of `shape` (appendShape's surface, in the shape's own
/// frame, which for a rigid body is its centre-of-mass frame), built with
/// `options`. Throws as appendShape does, and keel::HullError where the
/// surface is no hull: a triangle mesh shape that does not close, and
/// compound children that overlap (as compound children often do), which
/// keel::Hull refuses unless `options.overlappingParts` is set; the message
/// then says so. With it set, the hull floats the children's union on the
/// column model only (docs/columns.md, "Overlapping parts").
std::shared_ptr<const Hull> hullFromShape(const btCollisionShape& shape, const ShapeTessellation& tessellation = {},
                                          const HullOptions& options = {});

}  // namespace keel::KEEL_ABI
