#pragma once
/// @file hull.hpp
/// A boat's hull: a closed, outward-facing triangle surface in the body's
/// centre-of-mass frame, validated once and shared by any number of boats.

#include <LinearMath/btVector3.h>
#include <keel/config.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

class btStridingMeshInterface;

namespace keel::KEEL_ABI {

/// Thrown when a mesh is not a usable hull. what() says what is wrong, how
/// often, and where the first instance is; the counts are fields too.
class HullError : public std::runtime_error {
 public:
  /// What was found wrong with the mesh.
  struct Counts {
    std::size_t openEdges = 0;  ///< edges used by one triangle only (holes)
    /// Edges shared by more than two triangles that do not pair off, each use
    /// in one direction matched by one in the other (a fin on one side only).
    std::size_t nonManifoldEdges = 0;
    std::size_t flippedEdges = 0;  ///< edges used by two triangles that wind the same way
    /// Triangles that repeat another with the same winding (a copy of a part
    /// over itself), each copy once: what they enclose would count twice.
    std::size_t repeatedTriangles = 0;
    /// Closed parts with negative volume (inside out) not wholly inside an
    /// outward part; inside one they are a cavity, and accepted.
    std::size_t inwardParts = 0;
    /// Pairs of parts that overlap (faces crossing, or one outward part inside
    /// another), so that a volume would be counted twice.
    std::size_t overlappingParts = 0;
    /// Distinct vertices with a NaN or infinite coordinate (a vertex shared by
    /// several triangles counts once).
    std::size_t nonFiniteVertices = 0;
    std::size_t usableTriangles = 0;  ///< triangles left after welding and dropping degenerates
  };

  HullError(const std::string& message, const Counts& counts) : std::runtime_error(message), counts_(counts) {}

  /// The problem counts behind the message.
  [[nodiscard]] const Counts& counts() const { return counts_; }

 private:
  Counts counts_;
};

/// Options for building a Hull.
struct HullOptions {
  /// Vertices closer than this fraction of the mesh's bounding-box diagonal
  /// are welded into one. 0 welds exact duplicates only.
  btScalar weldTolerance = btScalar(1e-6);
  /// Triangles longer than this [m] on any edge are split (edge midpoints,
  /// repeatedly, so the surface stays closed) so that the waterline cut stays
  /// close to a curved sea: the cut interpolates linearly along each edge, so
  /// triangles much larger than the wave features misplace the waterline
  /// (docs/model.md §1, "The cut"). 0 or infinity: never split. At least 4
  /// spacings of btScalar at the mesh's largest coordinate, as midpoints
  /// round to them. An edge is left whole where splitting it would make a
  /// triangle of zero area (a sliver as thin as that spacing).
  btScalar maxEdgeLength_m = 0;
  /// Accept closed outward parts that overlap (a cabin pushed into a hull,
  /// two crossing boxes), which are otherwise refused, and drop the copies
  /// of a triangle repeated with the same winding (a part listed twice counts
  /// once). Only the column model floats such a hull, as the union of its
  /// parts (docs/columns.md, "Overlapping parts"): keel::WaterAction keeps it
  /// on BuoyancyModel::Columns, and the triangle model's exact integrals
  /// (hydrostaticsAtPose without columns, massProperties, volumeMoments,
  /// sliceHull) refuse it, as they would count the shared volume twice.
  /// Parts must not share an edge with the parts they overlap (they would be
  /// taken as one part); a hull with overlapping parts may have no cavity,
  /// and at most 7 parts may overlap under one column cell (HullError and
  /// std::invalid_argument say where otherwise).
  bool overlappingParts = false;
  /// Close a render mesh that is not closed (docs/integration.md, "Render
  /// meshes that are not closed"). After welding, in order: a vertex lying on
  /// an open edge of another triangle, within the weld distance, splits that
  /// edge (a T-junction); each loop of open edges is capped, its triangles
  /// wound against the loop's so that the part closes, by ear clipping on the
  /// loop's best-fit plane (Newell's normal; a loop that does not project to
  /// a simple polygon there is left open, and named); a closed
  /// part wound inside out as a whole, and inside no outward part (where it
  /// would be a cavity), is reversed. Hull::repair() says what was done; a
  /// HullError says it too. Overlapping parts stay governed by
  /// overlappingParts, exactly as without this. Off: the mesh is taken as
  /// given, bit for bit.
  bool closeOpenings = false;
};

/// What HullOptions::closeOpenings did to a mesh (Hull::repair()): nothing
/// (all zero) when it was off (`ran` false) or found the mesh closed.
struct HullRepair {
  bool ran = false;                 ///< closeOpenings was on and the mesh passed the checks before it
  std::size_t tJunctionsSplit = 0;  ///< vertices found on an open edge, which was split there
  std::size_t loopsCapped = 0;      ///< loops of open edges closed by a cap
  std::size_t trianglesAdded = 0;   ///< net: the caps' triangles and those made by splitting edges
  btScalar capArea_m2 = 0;          ///< area of the caps [m^2]
  /// Volume enclosed by the parts that the caps closed [m^3] (an open part
  /// encloses none before).
  btScalar cappedVolume_m3 = 0;
  /// Largest distance of a capped loop's vertex from the loop's best-fit
  /// plane [m]: 0 for a planar opening, where the cap is the missing face.
  btScalar capFlatness_m = 0;
  std::size_t partsFlipped = 0;    ///< closed parts wound inside out as a whole, reversed
  std::size_t loopsNotCapped = 0;  ///< loops left open: the hull is then refused
  std::string firstNotCapped;      ///< which loop could not be capped, where, and why

  /// One sentence saying all of the above that is not zero, for a log.
  [[nodiscard]] std::string text() const;
};

/// A validated, closed hull. Vertices are in the rigid body's centre-of-mass
/// frame [m]; triangles wind counter-clockwise seen from outside.
///
/// Construction welds duplicate vertices and drops degenerate (zero-area)
/// triangles. It accepts any surface on which every edge is used as often in
/// one direction as in the other, the condition for the pressure integral to
/// be exact (docs/model.md §4): several closed parts (a catamaran's two
/// hulls), parts touching at a vertex, along an edge or face to face, a
/// zero-thickness fin (a sheet with both sides), and cavities (inward parts
/// wholly inside an outward one, subtracted). It throws HullError for open or
/// inconsistently wound surfaces, triangles repeated with the same winding,
/// parts that overlap (their shared volume would count twice: make them one
/// surface, or see HullOptions::overlappingParts), inward parts not inside a
/// solid (HullOptions::closeOpenings closes openings and reverses such parts
/// first), a hull that encloses no volume
/// or one outside float's normal range, an edge length the coordinates
/// cannot resolve, and more than 2,097,152 vertices after welding or
/// refining (the SIMD kernels pack a triangle's three vertex indices in 64
/// bits), the last two before any refining. A part's own surface is not
/// checked for crossing itself. Immutable afterwards: share one
/// `std::shared_ptr<const Hull>` between every boat that uses it.
class Hull {
 public:
  using Triangle = std::array<std::uint32_t, 3>;  ///< vertex indices, CCW seen from outside

  /// From a Bullet mesh (indexed or not, 16/32-bit indices, any scaling set on it).
  explicit Hull(const btStridingMeshInterface& mesh, const HullOptions& options = {});
  /// From raw vertices [m] and triangles (indices into `vertices`).
  Hull(std::span<const btVector3> vertices, std::span<const Triangle> triangles, const HullOptions& options = {});

  [[nodiscard]] std::span<const btVector3> vertices() const { return vertices_; }  ///< [m], body frame
  /// Indices into vertices(), counter-clockwise seen from outside.
  [[nodiscard]] std::span<const Triangle> triangles() const { return triangles_; }
  /// Area of each triangle [m^2], in triangles() order.
  [[nodiscard]] std::span<const btScalar> triangleAreas_m2() const { return triangleArea_m2_; }
  [[nodiscard]] btScalar volume_m3() const { return volume_m3_; }          ///< enclosed volume [m^3]
  [[nodiscard]] btScalar area_m2() const { return area_m2_; }              ///< surface area [m^2]
  [[nodiscard]] const btVector3& centroid_m() const { return centroid_; }  ///< volume centroid [m], body frame
  [[nodiscard]] const btVector3& boundsMin() const { return boundsMin_; }  ///< [m], body frame
  [[nodiscard]] const btVector3& boundsMax() const { return boundsMax_; }  ///< [m], body frame
  /// Largest distance of a vertex from the body origin (the centre of mass) [m]:
  /// the hull stays inside this sphere whatever its orientation.
  [[nodiscard]] btScalar radius_m() const { return radius_m_; }
  /// Connected parts: 2 for a catamaran; a cavity, or a fin joined to nothing, is one too.
  [[nodiscard]] std::size_t partCount() const { return partCount_; }
  /// Whether some parts overlap (accepted with HullOptions::overlappingParts).
  /// volume_m3() and centroid_m() are then the union's, from its columns.
  [[nodiscard]] bool partsOverlap() const { return partsOverlap_; }
  [[nodiscard]] std::size_t weldedVertexCount() const { return welded_; }  ///< duplicates merged
  [[nodiscard]] std::size_t droppedTriangleCount() const {
    return dropped_;
  }  ///< degenerates removed (and repeated copies: HullOptions::overlappingParts)
  /// What HullOptions::closeOpenings did to close the mesh.
  [[nodiscard]] const HullRepair& repair() const { return repair_; }

 private:
  /// The hull as the library's kernels read it (lib/src): opaque here.
  struct Kernels;
  /// The library's own way to what this class keeps private; not for users.
  friend class Internals;
  /// The constructors' work: welds, repairs, refines and checks `soup`
  /// (three vertices a triangle) and fills every member.
  void build(std::vector<btVector3> soup, const HullOptions& options);

  std::vector<btVector3> vertices_;
  std::vector<Triangle> triangles_;
  std::vector<btScalar> triangleArea_m2_;
  btScalar volume_m3_ = 0;
  btScalar area_m2_ = 0;
  btVector3 centroid_{0, 0, 0};
  btVector3 boundsMin_{0, 0, 0};
  btVector3 boundsMax_{0, 0, 0};
  btScalar radius_m_ = 0;
  std::size_t partCount_ = 0;
  bool partsOverlap_ = false;
  std::size_t welded_ = 0;
  std::size_t dropped_ = 0;
  HullRepair repair_;
  std::shared_ptr<const Kernels> soa_;
};

}  // namespace keel::KEEL_ABI
