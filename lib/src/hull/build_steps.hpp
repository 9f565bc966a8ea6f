#pragma once
// Internal to Keel: the stages of Hull's construction (hull.cpp runs them in
// order), each a function of the mesh as the stage before left it.
//
// The integrals and checks are done once per hull, in double: the vertices
// stay btScalar, but every length, area and volume below is computed from
// their double values.

#include <keel/hull.hpp>

#include <LinearMath/btVector3.h>

class btStridingMeshInterface;

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace keel::KEEL_ABI::detail::hull_build {

/// A point or vector in double [m].
struct Vec3d {
  double x, y, z;
};
[[nodiscard]] inline Vec3d toD(const btVector3& v) { return {double(v.x()), double(v.y()), double(v.z())}; }
[[nodiscard]] inline Vec3d sub(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
[[nodiscard]] inline Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
[[nodiscard]] inline double dot(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
[[nodiscard]] inline double norm(const Vec3d& a) { return std::sqrt(dot(a, a)); }

/// The signed volume [m^3] of the tetrahedron from the origin to triangle
/// (a, b, c): summed over a closed surface, its enclosed volume (divergence
/// theorem), positive when the surface faces outward.
[[nodiscard]] inline double originTetrahedronVolume_m3(const Vec3d& a, const Vec3d& b, const Vec3d& c) {
  return dot(a, cross(b, c)) / 6.0;
}

/// An axis-aligned bounding box [m].
struct Bounds {
  btVector3 min, max;
};

/// The bounding box of `points` (min > max when there is none). In measure.cpp.
[[nodiscard]] Bounds boundsOf(std::span<const btVector3> points);
/// The largest magnitude of any coordinate in `bounds` [m]. In measure.cpp.
[[nodiscard]] double largestCoordinate_m(const Bounds& bounds);
/// The spacing of btScalar values at `magnitude_m` [m]: how finely a
/// coordinate that large can be placed. In measure.cpp.
[[nodiscard]] double coordinateSpacing_m(double magnitude_m);

/// Every triangle of a Bullet mesh, its scaling applied, as three corners
/// (a soup). In hull.cpp.
[[nodiscard]] std::vector<btVector3> soupOf(const btStridingMeshInterface& mesh);

/// "(x, y, z)". In edges.cpp.
[[nodiscard]] std::string formatPoint(const btVector3& p);

/// A mesh as vertices [m] and triangles indexing them.
struct Mesh {
  std::vector<btVector3> vertices;
  std::vector<Hull::Triangle> triangles;
};

// --- weld.cpp ------------------------------------------------------------------

/// Throws HullError when a coordinate of the soup (three points per
/// triangle) is NaN or infinite, or when an option is negative or NaN.
void checkInput(std::span<const btVector3> soup, const HullOptions& options);

/// The diagonal [m] of the soup's bounding box (0 for an empty soup).
[[nodiscard]] double boundingDiagonal_m(std::span<const btVector3> soup);

/// Indexes the soup (three points per triangle), welding points closer than
/// `tolerance_m` [m] (exact duplicates only when 0) into the first of them.
/// Vertices keep the order of their first appearance, triangles the soup's.
[[nodiscard]] Mesh weldVertices(std::span<const btVector3> soup, double tolerance_m);

/// Removes the triangles with two equal corners or twice their area at most
/// `minDoubleArea_m2` [m^2]; returns how many. The others keep their order.
std::size_t dropDegenerateTriangles(Mesh& mesh, double minDoubleArea_m2);

// --- edges.cpp -----------------------------------------------------------------

/// One use of an edge by a triangle.
struct EdgeUse {
  std::uint64_t key;  ///< (min vertex << 32) | max vertex
  int direction;      ///< +1 when the triangle runs min -> max
  std::uint32_t triangle;
};

/// Every triangle's three edges, sorted by edge, then by triangle.
[[nodiscard]] std::vector<EdgeUse> collectEdges(std::span<const Hull::Triangle> triangles);

/// Calls `edge(uses)` for the uses of each edge in turn, in `edges`' order.
template <class Edge>
void forEachEdge(std::span<const EdgeUse> edges, Edge edge) {
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && edges[j].key == edges[i].key) ++j;
    edge(edges.subspan(i, j - i));
    i = j;
  }
}

/// What makes a mesh no closed surface: the counts, and where the first
/// instance of each problem is.
struct SurfaceProblems {
  HullError::Counts counts;
  std::string firstOpen, firstNonManifold, firstFlipped;  ///< "between (x, y, z) and (x, y, z)"
  std::string firstRepeated;                              ///< "(x, y, z), (x, y, z), (x, y, z)"
  std::size_t partCount = 0;                              ///< connected parts
};

/// Counts the open, non-manifold and flipped edges into `problems`. A
/// surface is closed and consistently wound when each edge is used as often
/// in one direction as in the other: then every directed edge cancels its
/// reverse and the divergence theorem, so the pressure integral, is exact
/// (docs/model.md §1). Most edges are used twice; a zero-thickness fin or
/// parts touching along an edge use it four times.
void checkEdges(std::span<const EdgeUse> edges, std::span<const btVector3> vertices, SurfaceProblems& problems);

/// Counts into `problems` the triangles that repeat another with the same
/// winding: their edges balance as a closed surface's do, yet the surface
/// covers their area twice. A triangle and its reverse (a fin) are fine.
void checkRepeatedTriangles(const Mesh& mesh, SurfaceProblems& problems);

/// Drops every copy of a triangle repeated with the same winding (a part
/// listed twice becomes one); returns how many.
std::size_t dropRepeatedTriangles(Mesh& mesh);

/// Throws HullError saying everything `problems` found, if it found anything.
void throwIfNotClosed(const SurfaceProblems& problems, std::size_t triangleCount);

// --- parts.cpp -----------------------------------------------------------------

/// A connected part: triangles joined by shared edges. On a closed surface
/// each part is closed too (every use of an edge is in the same part).
struct Part {
  std::vector<std::uint32_t> triangles;  ///< indices in the mesh, ascending
  Bounds bounds;                         ///< of its corners [m]
  double volume_m3 = 0;                  ///< signed: positive when it faces outward
  int orientation = 0;                   ///< +1 outward, -1 inward (a cavity), 0 encloses no volume
};

/// The connected parts of a closed mesh, in the order of their first
/// triangles, with their bounds and volumes.
[[nodiscard]] std::vector<Part> findParts(std::span<const EdgeUse> edges, const Mesh& mesh);

/// Throws HullError when no part encloses a volume (only fins and sheets),
/// or when the hull's volume is outside float's normal range.
void checkVolume(std::span<const Part> parts);

// --- nesting.cpp ---------------------------------------------------------------

/// Throws HullError when a volume would be counted other than once: parts
/// whose faces cross, an outward part inside another (the overlap is
/// counted twice), an inward part (a cavity) inside no outward part.
/// Surfaces closer than `touch_m` [m] touch: parts may touch anywhere.
/// With `allowOverlaps`, outward parts may overlap. Returns how many pairs do.
std::size_t checkPartNesting(const Mesh& mesh, std::span<const Part> parts, double touch_m, bool allowOverlaps);

// --- close.cpp, tjunctions.cpp, caps.cpp ---------------------------------------
// HullOptions::closeOpenings: a render mesh closed before the checks above.

/// Splits each open edge (used by one triangle) at the vertices of other open
/// edges lying on it: closer than `tol_m` [m] to it and farther from its
/// ends (a T-junction, where one part's vertex meets another's edge). The
/// triangle becomes a fan from its opposite corner. Returns how many
/// vertices were inserted into edges.
std::size_t splitTJunctions(Mesh& mesh, double tol_m);

/// Caps every loop of open edges (edges whose uses are unbalanced by one),
/// appending the caps' triangles (and a centre vertex for a fanned loop);
/// counts what it did, and the loops it could not cap, into `repair`. Cap
/// triangles of twice their area at most `minDoubleArea_m2` [m^2] are not
/// made.
void capOpenings(Mesh& mesh, double minDoubleArea_m2, HullRepair& repair);

/// The whole of HullOptions::closeOpenings: T-junctions split, loops capped,
/// parts wound inside out reversed (those not inside an outward part, where
/// they would be cavities; surfaces closer than `tol_m` [m] touch).
[[nodiscard]] HullRepair closeOpenings(Mesh& mesh, double tol_m, double minDoubleArea_m2);

/// Rethrows the HullError being handled, with what closeOpenings did
/// appended to its message when it ran.
[[noreturn]] void rethrowWithRepair(const HullError& error, const HullRepair& repair);

// --- refine.cpp ----------------------------------------------------------------

/// Throws HullError when edges of `maxEdge_m` [m] cannot be made from
/// coordinates as large as `largest_m` [m]: their midpoints would round onto
/// their ends.
void checkEdgeLengthResolvable(double maxEdge_m, double largest_m);

/// Throws HullError when refining `mesh` (closed, `edges` its edges) to
/// `maxEdge_m` [m] would make more than `maxVertices` vertices, by a lower
/// bound of the count computed before any refining.
void checkRefinedVertexCount(const Mesh& mesh, std::span<const EdgeUse> edges, double maxEdge_m,
                             std::size_t maxVertices);

/// Splits every edge longer than `maxEdge_m` [m] at its midpoint, repeatedly,
/// splitting both triangles that share it so no T-junction appears (the
/// surface stays closed). Triangles with 1, 2 or 3 split edges become 2, 3
/// or 4 triangles with the parent's winding. An edge is left whole when
/// splitting it would make a triangle of twice its area at most
/// `minDoubleArea_m2` [m^2] (a midpoint rounded onto a line, in a sliver as
/// thin as the coordinates' spacing). Throws HullError, before making them,
/// when a pass would make more than `maxVertices` vertices.
void refineLongEdges(Mesh& mesh, double maxEdge_m, double minDoubleArea_m2, std::size_t maxVertices);

/// Removes the vertices no triangle uses and numbers the others in the order
/// the triangles first use them.
void dropUnusedVertices(Mesh& mesh);

// --- measure.cpp ---------------------------------------------------------------

/// A closed hull's integrals and extent, in the frame of its vertices.
struct Measures {
  std::vector<btScalar> triangleArea_m2;  ///< in triangle order [m^2]
  btScalar volume_m3 = 0;
  btScalar area_m2 = 0;
  btVector3 centroid{0, 0, 0};   ///< of the volume [m]
  btVector3 boundsMin{0, 0, 0};  ///< [m]
  btVector3 boundsMax{0, 0, 0};  ///< [m]
  btScalar radius_m = 0;         ///< largest distance of a vertex from the origin [m]
};

[[nodiscard]] Measures measure(const Mesh& mesh);

// --- appended.cpp --------------------------------------------------------------

/// The vertices after the highest one a triangle uses, [first, first +
/// count), of a mesh (or of its subpart `subpart` of several), and how many
/// of them lie where no used vertex does.
struct UnusedTail {
  std::size_t first = 0, count = 0, stray = 0;
  int subpart = -1;  ///< -1: the mesh has one part
};

[[nodiscard]] UnusedTail unusedTail(std::span<const btVector3> vertices, std::span<const Hull::Triangle> triangles);
/// The first subpart's tail of at least 3 vertices, some stray (count 0
/// when none).
[[nodiscard]] UnusedTail unusedTail(const btStridingMeshInterface& mesh);
/// Rethrows the HullError being handled, naming meshes appended without
/// offsetting their indices as the likely cause when its surface is wrong
/// (open, repeated, inward or overlapping) and a tail of at least 3
/// vertices, some stray, is unused.
[[noreturn]] void rethrowNamingUnoffsetIndices(const HullError& error, const UnusedTail& tail);

}  // namespace keel::KEEL_ABI::detail::hull_build
