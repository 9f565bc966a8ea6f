#pragma once
/// @file meshes.hpp
/// Small helpers that fill a btTriangleMesh with closed, outward-wound shapes,
/// for barges, pontoons, tests and quick starts.

#include <LinearMath/btTransform.h>
#include <LinearMath/btVector3.h>
#include <keel/config.hpp>

class btTriangleMesh;

namespace keel::KEEL_ABI {

/// Appends a box of half extents `halfExtents_m` [m], placed by `pose` (body
/// frame), as 12 triangles wound counter-clockwise seen from outside.
void appendBox(btTriangleMesh& mesh, const btVector3& halfExtents_m,
               const btTransform& pose = btTransform::getIdentity());

}  // namespace keel::KEEL_ABI
