#pragma once
// Internal to Keel: the closed surfaces keel::appendShape builds from a
// Bullet shape's dimensions (from_shape.cpp reads the shapes): solids of
// revolution for the curved primitives, convex hulls of point sets, and the
// box (keel::appendBox's too).

#include <keel/hull_from_shape.hpp>

#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>

#include <span>
#include <vector>

namespace keel::KEEL_ABI::detail::shape {

/// Triangle corners, three a triangle, wound counter-clockwise seen from
/// outside, in the frame the caller asked for.
using Soup = std::vector<btVector3>;

/// A point of a solid of revolution's profile: its distance from the axis
/// and its position along it [m]. The volume scaling moves it away from the
/// axis and along the axis away from `centre_m` (a sphere's centre, a
/// capsule cap's; its own position where it must stay on its plane).
struct ProfilePoint {
  double radius_m, axial_m, centre_m;
};

/// Appends a box of half extents `halfExtents_m` [m], placed by `pose`, as
/// 12 triangles.
void appendBox(const btVector3& halfExtents_m, const btTransform& pose, Soup& out);

/// The number of segments around a circle of `radius_m` (ShapeTessellation).
[[nodiscard]] int segmentsAround(double radius_m, const ShapeTessellation& tessellation);

/// A sphere of `radius_m`, or a capsule whose hemispheres' centres lie
/// `halfHeight_m` either side of the origin, from pole to pole.
[[nodiscard]] std::vector<ProfilePoint> roundedProfile(double radius_m, double halfHeight_m, int segments);

/// Appends the solid swept by `profile` (from one end on the axis, radius 0,
/// to the other) about the axis `upAxis` (0, 1, 2: x, y, z) in `segments`
/// segments, scaled so that its volume is `exact_m3` when `scaleToExact`,
/// each point placed by `pose`.
void appendRevolution(std::span<const ProfilePoint> profile, int segments, int upAxis, double exact_m3,
                      bool scaleToExact, const btTransform& pose, Soup& out);

/// Appends the convex hull of `points` (Bullet's btConvexHullComputer), its
/// corners the given points themselves, placed by `pose`. Throws
/// std::invalid_argument when the points span no volume.
void appendConvexHull(std::span<const btVector3> points, const btTransform& pose, Soup& out);

}  // namespace keel::KEEL_ABI::detail::shape
