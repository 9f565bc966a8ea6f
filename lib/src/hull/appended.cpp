// Naming the likeliest cause of a broken surface built from several meshes:
// each appended with its own indices, counted from 0, instead of offset by
// the vertices appended before it (docs/integration.md, "A hull from a mesh
// file"). Its sign: every triangle indexes the first vertices, so the
// vertices after the highest one used (the later meshes') are used by none,
// and lie where no used vertex does. A mesh that merely lost a face keeps its
// orphaned corners where the neighbouring faces' vertices are: no hint.

#include "hull/build_steps.hpp"

#include <BulletCollision/CollisionShapes/btStridingMeshInterface.h>

#include <algorithm>
#include <array>
#include <sstream>

namespace keel::KEEL_ABI::detail::hull_build {
namespace {

/// Fewer unused vertices than a triangle's are no appended mesh.
constexpr std::size_t kLeastAppendedVertices = 3;

using Position = std::array<double, 3>;

/// The tail of `vertexCount` vertices after the highest of `indexCount`
/// indices (`indexAt(i)`), and how many of its vertices lie where no used
/// vertex does (`positionAt(v)`).
template <typename IndexAt, typename PositionAt>
UnusedTail tailOf(std::size_t indexCount, std::size_t vertexCount, IndexAt indexAt, PositionAt positionAt) {
  std::size_t highest = 0;
  for (std::size_t i = 0; i < indexCount; ++i) highest = std::max(highest, indexAt(i));
  if (indexCount == 0 || highest + 1 >= vertexCount) return {};
  std::vector<Position> used(indexCount);
  for (std::size_t i = 0; i < indexCount; ++i) used[i] = positionAt(indexAt(i));
  std::sort(used.begin(), used.end());
  UnusedTail tail{highest + 1, vertexCount - highest - 1, 0};
  for (std::size_t v = tail.first; v < vertexCount; ++v)
    tail.stray += std::binary_search(used.begin(), used.end(), positionAt(v)) ? 0 : 1;
  return tail;
}

/// Subpart `part`'s tail, read through Bullet's index and vertex types.
UnusedTail subpartTail(const btStridingMeshInterface& mesh, int part) {
  const unsigned char *vertices = nullptr, *indices = nullptr;
  int vertexCount = 0, vertexStride = 0, indexStride = 0, faces = 0;
  PHY_ScalarType vertexType{}, indexType{};
  mesh.getLockedReadOnlyVertexIndexBase(&vertices, vertexCount, vertexType, vertexStride, &indices, indexStride, faces,
                                        indexType, part);
  const auto indexAt = [&](std::size_t i) -> std::size_t {
    const unsigned char* triangle = indices + std::ptrdiff_t(i / 3) * indexStride;
    if (indexType == PHY_SHORT) return reinterpret_cast<const unsigned short*>(triangle)[i % 3];
    if (indexType == PHY_UCHAR) return triangle[i % 3];
    return reinterpret_cast<const unsigned int*>(triangle)[i % 3];
  };
  const auto positionAt = [&](std::size_t v) -> Position {
    const unsigned char* p = vertices + std::ptrdiff_t(v) * vertexStride;
    if (vertexType == PHY_DOUBLE) {
      const auto* d = reinterpret_cast<const double*>(p);
      return {d[0], d[1], d[2]};
    }
    const auto* f = reinterpret_cast<const float*>(p);
    return {double(f[0]), double(f[1]), double(f[2])};
  };
  const bool known = (indexType == PHY_INTEGER || indexType == PHY_SHORT || indexType == PHY_UCHAR) &&
                     (vertexType == PHY_FLOAT || vertexType == PHY_DOUBLE) && faces > 0 && vertexCount > 0;
  const UnusedTail tail = known ? tailOf(3 * std::size_t(faces), std::size_t(vertexCount), indexAt, positionAt)
                                : UnusedTail{};
  mesh.unLockReadOnlyVertexBase(part);
  return tail;
}

}  // namespace

UnusedTail unusedTail(std::span<const btVector3> vertices, std::span<const Hull::Triangle> triangles) {
  return tailOf(
      3 * triangles.size(), vertices.size(), [&](std::size_t i) { return std::size_t(triangles[i / 3][i % 3]); },
      [&](std::size_t v) {
        return Position{double(vertices[v].x()), double(vertices[v].y()), double(vertices[v].z())};
      });
}

UnusedTail unusedTail(const btStridingMeshInterface& mesh) {
  for (int part = 0; part < mesh.getNumSubParts(); ++part) {
    UnusedTail tail = subpartTail(mesh, part);
    tail.subpart = mesh.getNumSubParts() > 1 ? part : -1;
    if (tail.count >= kLeastAppendedVertices && tail.stray > 0) return tail;
  }
  return {};
}

void rethrowNamingUnoffsetIndices(const HullError& error, const UnusedTail& tail) {
  const HullError::Counts& c = error.counts();
  const bool broken = c.openEdges || c.nonManifoldEdges || c.flippedEdges || c.repeatedTriangles || c.inwardParts ||
                      c.overlappingParts;
  if (!broken || tail.count < kLeastAppendedVertices || tail.stray == 0) throw;
  std::ostringstream s;
  s << error.what() << " likely cause: vertices " << tail.first << " to " << tail.first + tail.count - 1 << " of "
    << tail.first + tail.count;
  if (tail.subpart >= 0) s << " of subpart " << tail.subpart;
  s << " are used by no triangle (" << tail.stray << " of them away from every used vertex), as when meshes are "
    << "appended one after another without offsetting each one's indices by the vertices before it "
    << "(docs/integration.md, \"A hull from a mesh file\")";
  throw HullError(s.str(), c);
}

}  // namespace keel::KEEL_ABI::detail::hull_build
