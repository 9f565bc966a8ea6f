#pragma once
/// @file boat_mesh.hpp
/// Loads a boat from a Wavefront OBJ file (with assimp): the closed hull Keel
/// floats, and coloured parts to render. No Ogre, no physics here.

#include <LinearMath/btVector3.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace demo {

/// One renderable piece of a boat: triangles of one material.
struct MeshPart {
  std::string object;                  ///< object name in the file ("hull", "cabin", ...)
  std::string material;                ///< material name from the .mtl file
  std::array<float, 3> colour{};       ///< diffuse colour, 0..1
  std::vector<float> positions;        ///< x y z per vertex [m], file frame
  std::vector<float> normals;          ///< unit normal per vertex
  std::vector<std::uint32_t> indices;  ///< three per triangle, counter-clockwise from outside
};

/// A boat as loaded: the file frame is y up, bow +x, origin on the design
/// waterline amidships (see demo/tools/make_hulls.cpp).
struct BoatMesh {
  /// The object named `hull`: three positions per triangle [m], file frame.
  /// Closed and outward; keel::Hull checks it.
  std::vector<btVector3> hullTriangles;
  /// Every object (hull included), to render.
  std::vector<MeshPart> parts;
  /// The vertices of each connected part of the hull [m], file frame: one
  /// list for a monohull, two for the catamaran. The collision shape is one
  /// convex hull per part.
  std::vector<std::vector<btVector3>> hullPartPoints;
};

/// Loads `path`. Throws std::runtime_error with the file name and assimp's
/// message when the file is missing or has no object named `hull`.
BoatMesh loadBoatMesh(const std::string& path);

}  // namespace demo
