// keel::Hull: its constructors, and the construction's stages run in order
// (build_steps.hpp).

#include <keel/hull.hpp>

#include "columns/column_build.hpp"
#include "hull/build_steps.hpp"
#include "kernels/hull_soa.hpp"

#include <BulletCollision/CollisionShapes/btStridingMeshInterface.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace keel::KEEL_ABI {
namespace {

/// Collects every triangle of a Bullet mesh as three positions (a soup).
class SoupCollector final : public btInternalTriangleIndexCallback {
 public:
  explicit SoupCollector(std::vector<btVector3>& soup) : soup_(soup) {}
  void internalProcessTriangleIndex(btVector3* triangle, int, int) override {
    soup_.insert(soup_.end(), triangle, triangle + 3);
  }

 private:
  std::vector<btVector3>& soup_;
};

/// Runs `build`, naming what HullOptions::closeOpenings did in a HullError.
template <class Build>
void reportingRepair(const HullRepair& repair, Build build) {
  try {
    build();
  } catch (const HullError& e) {
    detail::hull_build::rethrowWithRepair(e, repair);
  }
}

}  // namespace

std::vector<btVector3> detail::hull_build::soupOf(const btStridingMeshInterface& mesh) {
  std::vector<btVector3> soup;
  SoupCollector collector(soup);
  const btVector3 huge(BT_LARGE_FLOAT, BT_LARGE_FLOAT, BT_LARGE_FLOAT);
  mesh.InternalProcessAllTriangles(&collector, -huge, huge);
  return soup;
}

Hull::Hull(const btStridingMeshInterface& mesh, const HullOptions& options) {
  try {
    reportingRepair(repair_, [&] { build(detail::hull_build::soupOf(mesh), options); });
  } catch (const HullError& e) {
    detail::hull_build::rethrowNamingUnoffsetIndices(e, detail::hull_build::unusedTail(mesh));
  }
}

Hull::Hull(std::span<const btVector3> vertices, std::span<const Triangle> triangles, const HullOptions& options) {
  std::vector<btVector3> soup;
  soup.reserve(triangles.size() * 3);
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (std::uint32_t index : triangles[t]) {
      if (index >= vertices.size()) {
        std::ostringstream s;
        s << "keel::Hull: triangle " << t << " refers to vertex " << index << " but there are only " << vertices.size()
          << " vertices";
        throw HullError(s.str(), {});
      }
      soup.push_back(vertices[index]);
    }
  try {
    reportingRepair(repair_, [&] { build(std::move(soup), options); });
  } catch (const HullError& e) {
    detail::hull_build::rethrowNamingUnoffsetIndices(e, detail::hull_build::unusedTail(vertices, triangles));
  }
}

void Hull::build(std::vector<btVector3> soup, const HullOptions& options) {
  namespace steps = detail::hull_build;
  // Everything that can be told from the input and the options alone first:
  // each check below is linear in the mesh, or nearly.
  steps::checkInput(soup, options);
  const double diagonal_m = steps::boundingDiagonal_m(soup);
  const double largest_m = soup.empty() ? 0.0 : steps::largestCoordinate_m(steps::boundsOf(soup));
  const bool refine = options.maxEdgeLength_m > 0 && std::isfinite(options.maxEdgeLength_m);
  if (refine) steps::checkEdgeLengthResolvable(double(options.maxEdgeLength_m), largest_m);
  const double weld_m = double(options.weldTolerance) * diagonal_m;
  steps::Mesh mesh = steps::weldVertices(soup, weld_m);
  welded_ = soup.size() - mesh.vertices.size();
  const double minDoubleArea_m2 = 1e-12 * diagonal_m * diagonal_m;
  dropped_ = steps::dropDegenerateTriangles(mesh, minDoubleArea_m2);
  steps::SurfaceProblems problems;
  problems.counts.usableTriangles = mesh.triangles.size();
  if (mesh.triangles.empty())
    throw HullError(
        "keel::Hull: the mesh has no triangle with a non-zero area (" + std::to_string(soup.size() / 3) + " given)",
        problems.counts);

  if (options.overlappingParts) dropped_ += steps::dropRepeatedTriangles(mesh);
  // Surfaces this close touch: the weld distance, or a few coordinate
  // spacings where that is finer than the coordinates resolve.
  const double touch_m = std::max(weld_m, 8 * steps::coordinateSpacing_m(largest_m));
  if (options.closeOpenings) repair_ = steps::closeOpenings(mesh, touch_m, minDoubleArea_m2);
  const std::vector<steps::EdgeUse> edges = steps::collectEdges(mesh.triangles);
  steps::checkEdges(edges, mesh.vertices, problems);
  steps::checkRepeatedTriangles(mesh, problems);
  const std::vector<steps::Part> parts = steps::findParts(edges, mesh);
  problems.partCount = parts.size();
  steps::throwIfNotClosed(problems, mesh.triangles.size());
  partsOverlap_ = steps::checkPartNesting(mesh, parts, touch_m, options.overlappingParts) > 0;
  steps::checkVolume(parts);
  partCount_ = parts.size();

  if (refine) {
    const double maxEdge_m = double(options.maxEdgeLength_m);
    steps::checkRefinedVertexCount(mesh, edges, maxEdge_m, detail::HullSoA::kMaxVertices);
    steps::dropUnusedVertices(mesh);
    steps::refineLongEdges(mesh, maxEdge_m, minDoubleArea_m2, detail::HullSoA::kMaxVertices);
  }
  // Dropped degenerates can leave orphans: every vertex costs a transform and
  // a water query per substep.
  steps::dropUnusedVertices(mesh);
  // The SIMD kernels pack a triangle's three vertex indices in 64 bits.
  if (mesh.vertices.size() > detail::HullSoA::kMaxVertices) {
    problems.counts.usableTriangles = mesh.triangles.size();
    throw HullError("keel::Hull: the hull has " + std::to_string(mesh.vertices.size()) +
                        " vertices after welding; at most " + std::to_string(detail::HullSoA::kMaxVertices) +
                        " are supported (simplify the mesh)",
                    problems.counts);
  }

  steps::Measures measures = steps::measure(mesh);
  vertices_ = std::move(mesh.vertices);
  triangles_ = std::move(mesh.triangles);
  triangleArea_m2_ = std::move(measures.triangleArea_m2);
  volume_m3_ = measures.volume_m3;
  area_m2_ = measures.area_m2;
  centroid_ = measures.centroid;
  boundsMin_ = measures.boundsMin;
  boundsMax_ = measures.boundsMax;
  radius_m_ = measures.radius_m;
  soa_ = std::make_shared<const Kernels>(*this);
  // The parts' own sums count their shared volume twice: the union's
  // volume and centroid come from its columns (docs/columns.md).
  if (partsOverlap_) {
    double volume_m3 = 0;
    detail::unionVolume(*this, volume_m3, centroid_);
    volume_m3_ = btScalar(volume_m3);
  }
}

}  // namespace keel::KEEL_ABI
