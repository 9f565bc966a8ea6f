#pragma once
// The wet pieces a boat that makes waves leaves for its WakeField (the
// WakeSources stage, docs/wakes.md "Forcing"): a stream's pieces of
// positive weight, packed plane by plane.

#include "kernels/buffers.hpp"

#include <cstddef>
#include <cstdint>

namespace keel::KEEL_ABI::detail {

/// The planes a wet piece is packed into (WakeSources::planes).
enum WakePlane : std::size_t { kPieceX, kPieceY, kPieceZ, kAreaX, kAreaY, kAreaZ, kPieceDepth, kWakePlanes };

/// Appends the stream's pieces of positive weight to `planes` from place
/// `at`: the centroid, the area vector and the centroid's depth (the mean
/// of the corners'); each plane holds at least `at + p.count + kPad`
/// values (a vector to spare).
/// Returns the place after the last appended.
std::size_t packWetPieces(const PieceStream& p, btScalar* const planes[kWakePlanes], std::size_t at);

/// The same for a stream of the hull's whole triangles, whose centroids
/// and area vectors are the hull's own: appends the index of each of
/// positive weight to `triangle` and its centroid's depth to `depth` from
/// place `at` (each at least `at + p.count + kPad` long).
/// Returns the place after the last appended.
std::size_t packWetTriangles(const PieceStream& p, std::uint32_t* triangle, btScalar* depth, std::size_t at);

}  // namespace keel::KEEL_ABI::detail
